package shaper.tui;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One immutable picture of the whole proxy, taken a few times a second by the render loop.
 *
 * @param at        when it was taken
 * @param listen    the proxy's listen address, for the header
 * @param providers every provider in configuration order (at least one)
 * @param logs      the captured log lines, oldest first
 * @param modelRoutes the routed mount's routes and where their traffic went; empty without one
 */
public record Frame(Instant at, String listen, List<ProviderFrame> providers, List<String> logs, List<ModelRouteStat> modelRoutes) {
    /** A frame of a proxy without a routed mount. */
    public Frame(Instant at, String listen, List<ProviderFrame> providers, List<String> logs) {
        this(at, listen, providers, logs, List.of());
    }

    public Frame {
        modelRoutes = List.copyOf(modelRoutes);
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(listen, "listen");
        providers = List.copyOf(providers);
        logs = List.copyOf(logs);
        if (providers.isEmpty()) {
            throw new IllegalArgumentException("providers: [] (expected: at least one)");
        }
    }
}
