package shaper.settings;

import java.util.List;
import java.util.Objects;

import shaper.config.ConfigException;
import shaper.mount.MountPrefix;

/**
 * The whole validated configuration: the listener and, in order, the providers behind it.
 * Provider names are unique and mount prefixes never overlap segment-wise, so every request path
 * belongs to at most one provider; both are checked here, before anything binds.
 */
public record ShaperConfig(ServerConfig server, List<ProviderConfig> providers) {
    public ShaperConfig {
        Objects.requireNonNull(server, "server");
        providers = List.copyOf(providers);
        if (providers.isEmpty()) {
            throw new ConfigException("no providers configured");
        }
        for (int i = 0; i < providers.size(); i++) {
            for (int j = i + 1; j < providers.size(); j++) {
                ProviderConfig a = providers.get(i);
                ProviderConfig b = providers.get(j);
                if (a.name().equals(b.name())) {
                    throw new ConfigException("duplicate provider name \"" + a.name() + "\" (providers " + (i + 1) + " and " + (j + 1) + ")",
                            "-name", j + 1);
                }
                MountPrefix pa = a.mountPrefix();
                MountPrefix pb = b.mountPrefix();
                if (pa.overlaps(pb)) {
                    throw new ConfigException("provider prefixes overlap: \"" + pa + "\" (" + a.name() + ") and \"" + pb + "\" (" + b.name() + ")",
                            "-prefix", j + 1);
                }
            }
        }
        server.routing().validate(providers.stream().map(ProviderConfig::name).collect(java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new)),
                providers.stream().map(ProviderConfig::mountPrefix).toList());
    }
}
