package shaper.auth;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import shaper.config.ConfigException;
import shaper.http.HopByHop;

/**
 * How the upstream credential is attached ({@code -auth-mode}, {@code -auth-header}).
 *
 * <table>
 *   <caption>Modes</caption>
 *   <tr><th>mode</th><th>upstream sees</th></tr>
 *   <tr><td>{@code auto} (default)</td><td>{@code x-api-key} for {@code api.anthropic.com} and {@code *.anthropic.com}, else {@code bearer}</td></tr>
 *   <tr><td>{@code bearer}</td><td>{@code Authorization: Bearer <secret>}</td></tr>
 *   <tr><td>{@code x-api-key}</td><td>{@code X-Api-Key: <secret>} plus {@code Anthropic-Version}</td></tr>
 *   <tr><td>{@code api-key}</td><td>{@code Api-Key: <secret>}</td></tr>
 *   <tr><td>{@code header:NAME}</td><td>{@code NAME: <secret>}; same as {@code -auth-header NAME}</td></tr>
 *   <tr><td>{@code none}</td><td>nothing (strip-only)</td></tr>
 * </table>
 *
 * @param kind       the mode
 * @param headerName the custom field name for {@link Kind#HEADER}, {@code null} for every other kind
 */
public record AuthMode(Kind kind, String headerName) {
    /** The mode keywords. */
    public enum Kind { AUTO, BEARER, X_API_KEY, API_KEY, HEADER, NONE }

    public static final AuthMode AUTO = new AuthMode(Kind.AUTO, null);

    /**
     * Custom credential names that are refused: fields the proxy or the HTTP layer owns
     * ({@code Host}, framing and {@code Content-*}, every hop-by-hop field of
     * {@link HopByHop#NAMES}), forwarding fields the stealth hop removes, conditional
     * request fields (RFC 9110 §13.1), and protocol fields whose meaning is not a credential.
     * Lower case.
     */
    static final Set<String> RESERVED_NAMES = Set.of(
            "host", "forwarded", "expect",
            "if-match", "if-none-match", "if-modified-since", "if-unmodified-since", "if-range");

    /** Reserved lower-case prefixes: representation metadata, Anthropic protocol fields, forwarding, cloud signatures. */
    static final List<String> RESERVED_PREFIXES = List.of("content-", "anthropic-", "x-forwarded-", "x-amz-", "x-goog-");

    private static final String EXPECTED_MODES = "auto, bearer, x-api-key, api-key, header:NAME or none";
    private static final String TCHARS = "!#$%&'*+-.^_`|~";

    public AuthMode {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.HEADER) != (headerName != null)) {
            throw new IllegalArgumentException("headerName: " + headerName + " (expected: set exactly for HEADER)");
        }
        if (headerName != null) {
            checkHeaderName("headerName", headerName);
        }
    }

    /**
     * Parses {@code -auth-mode} together with {@code -auth-header}.
     *
     * @param mode       the {@code -auth-mode} value, or {@code null} when not given ({@code auto})
     * @param authHeader the {@code -auth-header} value, or {@code null} when not given
     * @throws ConfigException for an unknown mode, a bad or reserved header name, or conflicting flags
     */
    public static AuthMode parse(String mode, String authHeader) {
        if (authHeader != null) {
            checkHeaderName("-auth-header", authHeader);
        }
        if (mode == null) {
            return authHeader == null ? AUTO : new AuthMode(Kind.HEADER, authHeader);
        }
        String keyword = mode.toLowerCase(Locale.ROOT);
        if (keyword.startsWith("header:")) {
            String name = mode.substring("header:".length());
            checkHeaderName("-auth-mode header:NAME", name);
            if (authHeader != null && !authHeader.equalsIgnoreCase(name)) {
                throw new ConfigException("-auth-header " + authHeader + " conflicts with -auth-mode " + mode);
            }
            return new AuthMode(Kind.HEADER, name);
        }
        Kind kind = switch (keyword) {
            case "auto" -> Kind.AUTO;
            case "bearer" -> Kind.BEARER;
            case "x-api-key" -> Kind.X_API_KEY;
            case "api-key" -> Kind.API_KEY;
            case "header" -> Kind.HEADER;
            case "none" -> Kind.NONE;
            default -> throw new ConfigException("-auth-mode: \"" + mode + "\" (expected: " + EXPECTED_MODES + ")");
        };
        if (kind == Kind.HEADER || (kind == Kind.AUTO && authHeader != null)) {
            if (authHeader == null) {
                throw new ConfigException("-auth-mode header needs a field name (use header:NAME or -auth-header NAME)");
            }
            return new AuthMode(Kind.HEADER, authHeader);
        }
        if (authHeader != null) {
            throw new ConfigException("-auth-header cannot be combined with -auth-mode " + mode);
        }
        return new AuthMode(kind, null);
    }

    /** Resolves {@code auto} for this upstream; every other mode is returned unchanged. */
    public AuthMode resolveFor(URI upstream) {
        if (kind != Kind.AUTO) {
            return this;
        }
        return new AuthMode(isAnthropicHost(upstream.getHost()) ? Kind.X_API_KEY : Kind.BEARER, null);
    }

    /** The flag spelling of this mode ({@code x-api-key}, {@code header:X-Key}). */
    public String label() {
        return kind == Kind.HEADER ? "header:" + headerName : kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static boolean isAnthropicHost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        return h.equals("api.anthropic.com") || h.endsWith(".anthropic.com");
    }

    private static void checkHeaderName(String flag, String name) {
        if (name.isEmpty() || !isToken(name)) {
            throw new ConfigException(flag + ": \"" + name + "\" is not a valid header field name (expected: an RFC 7230 token)");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        boolean reserved = RESERVED_NAMES.contains(lower) || HopByHop.NAMES.contains(lower)
                || RESERVED_PREFIXES.stream().anyMatch(lower::startsWith);
        if (reserved) {
            throw new ConfigException(flag + ": \"" + name + "\" is reserved (Host, Content-*, Anthropic-*, X-Forwarded-*, "
                    + "Forwarded, conditional and hop-by-hop fields, x-amz-*, x-goog-*)");
        }
    }

    /** RFC 7230 §3.2.6 token: one or more tchar. */
    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean tchar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || TCHARS.indexOf(c) >= 0;
            if (!tchar) {
                return false;
            }
        }
        return true;
    }
}
