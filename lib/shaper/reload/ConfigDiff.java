package shaper.reload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import shaper.config.BindAddress;
import shaper.config.GoDuration;
import shaper.settings.ProviderConfig;
import shaper.settings.ServerConfig;
import shaper.settings.ShaperConfig;

/**
 * What a reload changes, computed before anything is touched: providers are matched by name, and
 * the settings that cannot change while the proxy runs keep their running values.
 *
 * @param applied          the configuration to apply: the new one with the non-live settings of the running one
 * @param added            names of providers that serve from now on
 * @param removed          names of providers that take no new request from now on
 * @param changed          names of providers present in both whose settings differ
 * @param keptUntilRestart one entry per non-live setting that differs: {@code -bind 127.0.0.1:8080 (file: 127.0.0.1:9090)}
 */
public record ConfigDiff(ShaperConfig applied, List<String> added, List<String> removed, List<String> changed,
                         List<String> keptUntilRestart) {
    public ConfigDiff {
        Objects.requireNonNull(applied, "applied");
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        changed = List.copyOf(changed);
        keptUntilRestart = List.copyOf(keptUntilRestart);
    }

    /**
     * @param running the configuration in force
     * @param next    the validated configuration the file and command line now describe
     */
    public static ConfigDiff of(ShaperConfig running, ShaperConfig next) {
        List<String> kept = new ArrayList<>();
        ServerConfig was = running.server();
        ServerConfig now = next.server();
        keep(kept, "-bind", was.bind(), now.bind());
        keep(kept, "-metrics-bind", was.metricsBind().map(BindAddress::toString).orElse("off"),
                now.metricsBind().map(BindAddress::toString).orElse("off"));
        keep(kept, "-tui", was.tui(), now.tui());
        keep(kept, "-otel", was.telemetry().enabled(), now.telemetry().enabled());
        keep(kept, "-otel-endpoint", was.telemetry().endpoint(), now.telemetry().endpoint());
        keep(kept, "-shutdown-grace", GoDuration.format(was.shutdownGrace()), GoDuration.format(now.shutdownGrace()));
        keep(kept, "-header-read-timeout", GoDuration.format(was.headerReadTimeout()), GoDuration.format(now.headerReadTimeout()));
        ServerConfig server = was.withClientKeys(now.clientKeys()).withRouting(now.routing());

        Map<String, ProviderConfig> old = new LinkedHashMap<>();
        running.providers().forEach(p -> old.put(p.name(), p));
        List<ProviderConfig> providers = new ArrayList<>();
        List<String> added = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (ProviderConfig p : next.providers()) {
            Optional<ProviderConfig> before = Optional.ofNullable(old.remove(p.name()));
            if (before.isEmpty()) {
                added.add(p.name());
                providers.add(p);
                continue;
            }
            ProviderConfig q = p;
            if (!before.get().cluster().equals(p.cluster())) {
                kept.add("-limiter-backend and its -limiter-* settings of provider " + p.name());
                q = p.withCluster(before.get().cluster());
            }
            if (before.get().cluster().clustered() && !sameLimits(before.get(), p)) {
                // cluster-wide limiters keep their limits: the other instances share them through Redis
                kept.add("the limits of provider " + p.name() + " (its limiters are cluster-wide)");
            }
            if (!q.equals(before.get())) {
                changed.add(p.name());
            }
            providers.add(q);
        }
        return new ConfigDiff(new ShaperConfig(server, providers), added, List.copyOf(old.keySet()), changed, kept);
    }

    private static boolean sameLimits(ProviderConfig a, ProviderConfig b) {
        return a.admission().concurrency() == b.admission().concurrency()
                && a.admission().globalConcurrency() == b.admission().globalConcurrency()
                && a.admission().limits().equals(b.admission().limits())
                && a.gateway().bigCtxConcurrency() == b.gateway().bigCtxConcurrency();
    }

    private static void keep(List<String> kept, String flag, Object was, Object now) {
        if (!was.equals(now)) {
            kept.add(flag + " " + was + " (file: " + now + ")");
        }
    }

    /** The reload's log line body: {@code added [a]; removed [b]; changed [c]; kept until restart: ...}. */
    public String summary() {
        StringBuilder b = new StringBuilder();
        b.append("providers added ").append(added).append(", removed ").append(removed).append(", changed ").append(changed);
        if (!keptUntilRestart.isEmpty()) {
            b.append("; kept until restart: ").append(String.join(", ", keptUntilRestart));
        }
        return b.toString();
    }
}
