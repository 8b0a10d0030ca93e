package shaper.route;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One parsed {@code -limit} pattern, {@code METHOD /path[:N|:unlimited][@group]}; the grammar and the
 * matching rule are in the package documentation.
 *
 * @param method    upper-cased HTTP method, compared ignoring case
 * @param segments  canonical path segments ({@link PathSegments}); empty means the root path only
 * @param raw       the pattern exactly as configured
 * @param limit     declared {@code :N}; {@code 0} when absent or {@code :0}, meaning the default pool
 * @param unlimited {@code :unlimited}: matching requests take no slot from any limiter
 * @param group     the {@code @group} name, or {@code null} when the pattern names none
 */
public record RoutePattern(String method, List<String> segments, String raw, int limit, boolean unlimited, String group) {
    private static final String UNLIMITED = "unlimited";
    /** The keys of a provider's own limiters ({@code shaper.admission.ProviderLimiters}), which no group may take. */
    private static final java.util.Set<String> RESERVED_GROUPS = java.util.Set.of("default", "global", "large-request gate");

    public RoutePattern {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(raw, "raw");
        segments = List.copyOf(segments);
        if (method.isBlank() || !method.equals(method.toUpperCase(Locale.ROOT))) {
            throw new IllegalArgumentException("method: \"" + method + "\" (expected: non-blank, upper case)");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: >= 0)");
        }
        if (unlimited && (limit != 0 || group != null)) {
            throw new IllegalArgumentException("unlimited: true (expected: no limit and no group)");
        }
        if (group != null && group.isEmpty()) {
            throw new IllegalArgumentException("group: \"\" (expected: null or non-empty)");
        }
    }

    /**
     * Parses one {@code -limit} value.
     *
     * @throws IllegalArgumentException with the user-facing message when {@code text} is not a pattern
     */
    public static RoutePattern parse(String text) {
        Objects.requireNonNull(text, "text");
        int space = firstWhitespace(text);
        if (space < 0) {
            throw new IllegalArgumentException("route: invalid pattern " + GoQuote.of(text));
        }
        String method = text.substring(0, space).toUpperCase(Locale.ROOT);
        if (method.isEmpty()) {
            throw new IllegalArgumentException("route: empty method in " + GoQuote.of(text));
        }
        String path = text.substring(space + 1).strip();
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("route: path must start with / in " + GoQuote.of(text));
        }

        String group = null;
        int at = path.lastIndexOf('@');
        if (at >= 0 && path.indexOf('/', at) < 0) {
            group = path.substring(at + 1);
            path = path.substring(0, at);
            if (group.isEmpty()) {
                throw new IllegalArgumentException("route: invalid pattern " + GoQuote.of(text));
            }
            if (RESERVED_GROUPS.contains(group)) {
                // a limiter is found by its key (a reload keeps it, cluster mode shares it): these keys are taken
                throw new IllegalArgumentException("route: group " + GoQuote.of(group) + " in " + GoQuote.of(text)
                        + " is reserved for the provider's own limiter of that name; choose another group name");
            }
        }

        int limit = 0;
        boolean unlimited = false;
        int colon = path.lastIndexOf(':');
        if (colon >= 0) {
            String suffix = path.substring(colon + 1);
            if (suffix.equalsIgnoreCase(UNLIMITED)) {
                unlimited = true;
                path = path.substring(0, colon);
            } else if (isDecimal(suffix)) {
                try {
                    limit = Integer.parseInt(suffix);
                } catch (NumberFormatException tooLarge) {
                    throw new IllegalArgumentException("route: invalid pattern " + GoQuote.of(text), tooLarge);
                }
                path = path.substring(0, colon);
            }
        }
        if (unlimited && group != null) {
            throw new IllegalArgumentException("route: pattern " + GoQuote.of(text) + " declares :unlimited with a group "
                    + GoQuote.of(group) + "; the unlimited class has no limiter to share");
        }
        return new RoutePattern(method, PathSegments.of(path), text, limit, unlimited, group);
    }

    /**
     * The key of the limiter this pattern uses: its group, or else its method and canonical path
     * without the limit ({@code POST /v1/messages} for {@code POST /v1/messages:4}), so a reload that
     * changes only the limit resizes the same limiter instead of starting a second one beside it.
     */
    public String limiterKey() {
        return group != null ? group : method + " /" + String.join("/", segments);
    }

    /**
     * Whether a request matches: equal methods ignoring case, and this pattern's segments equal to the
     * last segments of {@code pathSegments} ignoring case. A pattern without segments matches only an
     * empty {@code pathSegments} (the root).
     *
     * @param pathSegments the request path as produced by {@link PathSegments#of}
     */
    public boolean matches(String requestMethod, List<String> pathSegments) {
        if (!method.equalsIgnoreCase(requestMethod)) {
            return false;
        }
        if (segments.isEmpty()) {
            return pathSegments.isEmpty();
        }
        int offset = pathSegments.size() - segments.size();
        if (offset < 0) {
            return false;
        }
        for (int i = 0; i < segments.size(); i++) {
            if (!segments.get(i).equalsIgnoreCase(pathSegments.get(offset + i))) {
                return false;
            }
        }
        return true;
    }

    private static int firstWhitespace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    // ASCII digits only: "+3" or "-1" are not limits, so their colon stays part of the path.
    private static boolean isDecimal(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
