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
        if (uri.getPort() == 0 || uri.getPort() > 65_535) {
            throw new ConfigException(flag + " port " + uri.getPort() + " is out of range (expected 1..65535)");
        }
        if (uri.getPort() < 0 && uri.getRawAuthority() != null && uri.getRawAuthority().matches(".*:[0-9]+$")) {
            // java.net.URI leaves a port it cannot hold in an int unparsed rather than refusing it
            throw new ConfigException(flag + " port in \"" + uri.getRawAuthority() + "\" is out of range (expected 1..65535)");
        }
        if (uri.getRawUserInfo() != null) {
            throw new ConfigException(flag + " URL must not carry credentials; use -auth-source");
        }
        if (uri.getRawFragment() != null) {
            throw new ConfigException(flag + " URL must not have a fragment");
        }
        return uri;
    }

    /**
     * The startup warning for a base path ending in {@code /v1}: clients' paths already start with
     * {@code /v1}, so {@code /v1/messages} would go to {@code .../v1/v1/messages}; empty otherwise.
     */
    public static java.util.Optional<String> doubledV1Warning(URI uri, String flag) {
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if (!path.endsWith("/v1") && !path.endsWith("/v1/")) {
            return java.util.Optional.empty();
        }
        String base = display(uri).replaceFirst("/$", "");
        return java.util.Optional.of("WARNING: " + flag + " " + display(uri) + " ends in /v1 and clients' paths start with /v1:"
                + " /v1/messages goes to " + base + "/v1/messages. Leave /v1 off " + flag + " unless the upstream really serves that.");
    }

    /** The URL as safe to print: scheme, host, port and path, never a query. */
    public static String display(URI uri) {
        String port = uri.getPort() >= 0 ? ":" + uri.getPort() : "";
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        return uri.getScheme() + "://" + uri.getHost() + port + path;
    }
}
