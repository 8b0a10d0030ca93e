package shaper.config;

import java.util.List;

/** The whole validated configuration: the listener and, in order, the providers behind it. */
public record ShaperConfig(ServerConfig server, List<ProviderConfig> providers) {
    public ShaperConfig {
        providers = List.copyOf(providers);
        if (providers.isEmpty()) {
            throw new ConfigException("no providers configured");
        }
    }
}
