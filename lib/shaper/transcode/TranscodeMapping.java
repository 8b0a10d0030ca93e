package shaper.transcode;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

import shaper.transcode.ir.Conversation;

/**
 * Everything one transcoded route converts with, fixed at startup and shared by request threads.
 *
 * @param route        the intercepted route and its target
 * @param capabilities the upstream's chat capabilities (defaults plus and minus the flags)
 * @param policy       the approved losses
 * @param allowedQuery client query parameter names forwarded upstream; any other is a 400
 * @param models       client model to upstream model; empty means identity
 * @param limits       byte bounds
 */
public record TranscodeMapping(TranscodeRoute route, Set<ChatCapability> capabilities, LossPolicy policy, Set<String> allowedQuery,
                               Map<String, String> models, TranscodeLimits limits) {
    public TranscodeMapping {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(limits, "limits");
        capabilities = Set.copyOf(capabilities);
        allowedQuery = Set.copyOf(allowedQuery);
        models = Map.copyOf(models);
    }

    public boolean has(ChatCapability c) {
        return capabilities.contains(c);
    }

    /**
     * The upstream model for the client's: mapped, or the same name when no map is configured.
     *
     * @throws TranscodeException.Invalid when a map is configured and lacks the model
     */
    public String upstreamModel(Conversation c) {
        if (models.isEmpty()) {
            return c.model();
        }
        String m = models.get(c.model());
        if (m == null) {
            throw new TranscodeException.Invalid("model \"" + c.model() + "\" is not mapped on this route (mapped: "
                    + String.join(", ", new java.util.TreeSet<>(models.keySet())) + ")");
        }
        return m;
    }
}
