package shaper.proxy;

import java.util.List;

/**
 * Where an exchange may be served: a provider, and the transcoded route of that provider that
 * converts it (null for passthrough). The route stage ({@link #candidates}) lists them in the order
 * they are tried; the request path serves the first, and a later candidate can take over only while
 * nothing of the answer is committed.
 *
 * @param provider    the provider that serves it
 * @param transcoding its transcoded route's stage, or null when the request passes through
 */
record Target(ProviderAssembly provider, TranscodeStage transcoding) {
    /** The candidates for {@code exchange} on {@code provider}, in order; never empty. Today exactly one. */
    static List<Target> candidates(ProviderAssembly provider, Exchange exchange) {
        return List.of(new Target(provider, provider.transcoding().match(exchange.method(), exchange.path())));
    }
}
