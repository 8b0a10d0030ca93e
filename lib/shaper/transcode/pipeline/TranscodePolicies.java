package shaper.transcode.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import shaper.config.ConfigException;
import shaper.transcode.ChatCapability;
import shaper.transcode.Direction;
import shaper.transcode.LossKey;
import shaper.transcode.LossPolicy;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.TranscodeRoute;

/**
 * The three additive layers resolved once per provider (capabilities, client query allowlist,
 * loss approvals) and applied to its routes, with the startup checks that span routes.
 */
public record TranscodePolicies(Set<ChatCapability> capabilities, Set<String> query, LossPolicy policy) {
    /** The query parameter Anthropic clients add to every request ({@code ?beta=true}). */
    public static final String DEFAULT_QUERY = "beta";

    /** @throws ConfigException for an unknown name, a conflict or an invalid query name */
    public static TranscodePolicies resolve(List<String> capabilities, List<String> queries, List<String> losses, boolean strictDefaults) {
        Set<ChatCapability> caps = NameSelection.resolve("-transcode-chat-capability", capabilities,
                strictDefaults ? Set.of() : ChatCapability.cliDefaults(), name -> {
                    for (ChatCapability c : ChatCapability.values()) {
                        if (c.wireName().equals(name)) {
                            return c;
                        }
                    }
                    return null;
                }, java.util.Arrays.stream(ChatCapability.values()).map(ChatCapability::wireName).toList());
        Set<String> query = NameSelection.resolve("-transcode-allow-client-query", queries,
                strictDefaults ? Set.of() : Set.of(DEFAULT_QUERY), name -> ClientQuery.validName(name) ? name : null, List.of());
        Set<LossKey> approved = NameSelection.resolve("-transcode-allow-loss", losses,
                strictDefaults ? Set.of() : LossPolicy.cliDefaults(),
                name -> LossKey.byName(name).filter(k -> k.kind() == LossKey.Kind.POLICY).orElse(null),
                java.util.Arrays.stream(LossKey.values()).filter(k -> k.kind() == LossKey.Kind.POLICY).map(LossKey::wireName).toList());
        return new TranscodePolicies(caps, query, new LossPolicy(approved));
    }

    /** The mappings for these routes, each checked: distinct client routes, a direction this version converts. */
    public List<TranscodeMapping> mappings(List<TranscodeRoute> routes, Map<String, String> models, long requestMb, long responseMb) {
        TranscodeLimits limits;
        try {
            limits = TranscodeLimits.ofMebibytes(requestMb, responseMb);
        } catch (ArithmeticException e) {
            throw new ConfigException("-transcode-max-request-mb / -transcode-max-response-mb: too large");
        }
        List<TranscodeMapping> out = new ArrayList<>();
        for (TranscodeRoute r : routes) {
            for (TranscodeMapping m : out) {
                if (m.route().clientPath().equals(r.clientPath())) {
                    throw new ConfigException("duplicate transcode route for POST " + r.clientPath());
                }
            }
            if (r.direction() == Direction.MESSAGES_RESPONSES && !policy.approves(LossKey.TOOL_SCHEMA_STRICTNESS)) {
                throw new ConfigException("transcoding messages to responses requires -transcode-allow-loss tool_schema_strictness"
                        + " (Messages tools cannot preserve the strictness the Responses contract requires)");
            }
            TranscodeMapping m = new TranscodeMapping(r, capabilities, policy, query, models, limits);
            Transcoder.of(m); // a direction this version cannot convert fails here, at startup
            out.add(m);
        }
        return out;
    }
}
