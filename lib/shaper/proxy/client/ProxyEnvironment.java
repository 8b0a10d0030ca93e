package shaper.proxy.client;

import java.net.URI;
import java.util.Locale;
import java.util.function.Function;

/**
 * The egress proxy the environment names for an upstream, by the conventions curl and Claude Code
 * follow: {@code https_proxy} for an {@code https} upstream, {@code http_proxy} for an {@code http}
 * one, {@code all_proxy} for either, each in lower case first and then upper case; and no proxy
 * when {@code no_proxy} / {@code NO_PROXY} lists the host: {@code *} (every host), a host name
 * (itself and every name under it, with or without a leading dot), an IP literal, each optionally
 * with {@code :port}. CIDR ranges are not read. A loopback upstream ({@code localhost},
 * {@code 127.0.0.0/8}, {@code ::1}) is never sent through the environment's proxy: a proxy elsewhere
 * cannot reach this machine's loopback, and a local upstream (a test fixture, a local gateway)
 * must keep working in a shell that exports a proxy; {@code -upstream-proxy} still applies to it.
 */
public final class ProxyEnvironment {
    private ProxyEnvironment() {
    }

    /** Where an upstream's connections go, and why (for the startup log line). */
    public record Choice(EgressProxy proxy, String source) {
    }

    /**
     * @param upstream the upstream base URL
     * @param env      the environment
     * @return the proxy to use, or null for a direct connection
     * @throws IllegalArgumentException when the variable that applies holds no usable proxy URL (naming it)
     */
    public static Choice of(URI upstream, Function<String, String> env) {
        boolean tls = upstream.getScheme().equalsIgnoreCase("https");
        String[] names = tls ? new String[] {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"}
                : new String[] {"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"};
        for (String name : names) {
            String value = env.apply(name);
            if (value == null || value.isBlank()) {
                continue;
            }
            UpstreamAddress target = UpstreamAddress.of(upstream);
            if (bypassed(target, first(env, "no_proxy", "NO_PROXY"))) {
                return null;
            }
            // curl accepts a bare host:port there and means http://
            String url = value.contains("://") ? value : "http://" + value;
            try {
                return new Choice(EgressProxy.parse(url), name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ": " + e.getMessage());
            }
        }
        return null;
    }

    private static String first(Function<String, String> env, String lower, String upper) {
        String v = env.apply(lower);
        return v != null ? v : env.apply(upper);
    }

    static boolean bypassed(UpstreamAddress target, String noProxy) {
        String host = target.host().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.equals("localhost") || host.endsWith(".localhost") || host.startsWith("127.") || host.equals("::1")) {
            return true;
        }
        if (noProxy == null) {
            return false;
        }
        for (String raw : noProxy.split("[,\\s]+")) {
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals("*")) {
                return true;
            }
            int colon = entry.lastIndexOf(':');
            if (colon > 0 && entry.indexOf(':') == colon && entry.substring(colon + 1).chars().allMatch(c -> c >= '0' && c <= '9')) {
                if (!entry.substring(colon + 1).equals(Integer.toString(target.port()))) {
                    continue;
                }
                entry = entry.substring(0, colon);
            }
            if (entry.startsWith("[") && entry.endsWith("]")) {
                entry = entry.substring(1, entry.length() - 1);
            }
            String name = entry.startsWith(".") ? entry.substring(1) : entry;
            if (host.equals(name) || host.endsWith("." + name)) {
                return true;
            }
        }
        return false;
    }
}
