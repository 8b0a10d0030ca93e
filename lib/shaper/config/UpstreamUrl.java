package shaper.config;

import java.net.URI;
import java.net.URISyntaxException;

/** Validation of {@code -upstream} and the other upstream URL flags: an http or https URL with a host, without credentials or a fragment. */
public final class UpstreamUrl {
    private UpstreamUrl() {
    }

    public static URI parse(String text) {
        return parse(text, "-upstream");
    }

    /** Validates a URL given to {@code flag}; messages name the flag. */
    public static URI parse(String text, String flag) {
        if (text == null || text.isBlank()) {
            throw new ConfigException(flag + " is required");
        }
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new ConfigException(flag + " is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme();
        if (scheme == null) {
            throw new ConfigException(flag + " URL must include scheme (http or https)");
        }
        if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https")) {
            throw new ConfigException(flag + " scheme must be http or https, got \"" + scheme + "\"");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new ConfigException(flag + " URL must include a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new ConfigException(flag + " URL must not carry credentials; use -auth-source");
        }
        if (uri.getRawFragment() != null) {
            throw new ConfigException(flag + " URL must not have a fragment");
        }
        return uri;
    }

    /** The URL as safe to print: scheme, host, port and path, never a query. */
    public static String display(URI uri) {
        String port = uri.getPort() >= 0 ? ":" + uri.getPort() : "";
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        return uri.getScheme() + "://" + uri.getHost() + port + path;
    }
}
