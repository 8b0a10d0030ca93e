package shaper.proxy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where an exchange may be served: a provider, and the transcoded route of that provider that
 * converts it (null for passthrough). The route stage ({@link #candidates}, or the routed mount's
 * {@link RoutedMount}) lists them in the order they are tried; the request path serves the first,
 * and a later candidate takes over only while nothing of the answer is committed.
 *
 * @param provider      the provider that serves it
 * @param transcoding   its transcoded route's stage, or null when the request passes through
 * @param upstreamModel the {@code model} the body names when sent to this target, null to keep the client's
 * @param mayMove       whether a fallback trigger moves the exchange to the next candidate instead of
 *                      answering the client (false for the last candidate, and on a provider's own mount)
 * @param patience      how long the exchange may wait for this target's slots or tokens before it moves on;
 *                      zero waits the provider's own {@code -queue-timeout}
 */
record Target(ProviderAssembly provider, TranscodeStage transcoding, String upstreamModel, boolean mayMove, Duration patience) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The candidates for {@code exchange} on a provider's own mount: exactly that provider. */
    static List<Target> candidates(ProviderAssembly provider, Exchange exchange) {
        return List.of(of(provider, exchange));
    }

    /** {@code provider} serving {@code exchange} its own way (passthrough, or the transcoded route its path matches), as the last resort. */
    static Target of(ProviderAssembly provider, Exchange exchange) {
        return new Target(provider, provider.transcoding().match(exchange.method(), exchange.path()), null, false, Duration.ZERO);
    }

    /** This target as one the exchange may leave for the next, after at most {@code wait} in its queue. */
    Target movable(Duration wait) {
        return new Target(provider, transcoding, upstreamModel, true, wait);
    }

    /** This target asked for {@code model} instead of the client's. */
    Target asking(String model) {
        return new Target(provider, transcoding, model, mayMove, patience);
    }

    /**
     * The body as this target is sent it: the client's, or with its top-level {@code model} replaced.
     * Only an identity-coded body held in memory is rewritten (the routed mount maps no other); one that
     * is not a JSON object goes as it is, for the upstream to refuse.
     */
    RequestBody mapped(RequestBody body) {
        byte[] bytes = body.bytes();
        if (upstreamModel == null || bytes == null) {
            return body;
        }
        try {
            JsonNode tree = JSON.readTree(bytes);
            if (!(tree instanceof ObjectNode object)) {
                return body;
            }
            object.put("model", upstreamModel);
            return new RequestBody.Buffered(JSON.writeValueAsBytes(object), body.length() < 0);
        } catch (IOException notJson) {
            return body;
        }
    }
}
