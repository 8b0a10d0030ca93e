package shaper.config;

import java.net.URI;
import java.util.Locale;

/** Derives a provider's display name from its upstream host: {@code api.anthropic.com} becomes {@code anthropic}. */
public final class ProviderNames {
    private ProviderNames() {
    }

    public static String derive(URI upstream) {
        String host = upstream.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            return host;
        }
        if (host.startsWith("api.") || host.startsWith("api-")) {
            host = host.substring(4);
        }
        if (host.chars().allMatch(c -> Character.isDigit(c) || c == '.')) {
            return host;
        }
        int dot = host.indexOf('.');
        return dot > 0 ? host.substring(0, dot) : host;
    }
}
