package shaper.route;

import java.util.Objects;

/**
 * The pattern that claimed a request, and the limiter it must use.
 *
 * @param pattern    the first matching pattern
 * @param limiterKey the group, or the pattern's raw text; for an unlimited match only a label, never
 *                   a limiter to acquire
 * @param limit      size of the route limiter shared by every pattern with this key; {@code 0} means
 *                   the provider's default pool ({@code -concurrency}), or nothing at all when unlimited
 * @param unlimited  the request takes no slot from any limiter, not even under {@code -limit-all}
 */
public record RouteMatch(RoutePattern pattern, String limiterKey, int limit, boolean unlimited) {
    public RouteMatch {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(limiterKey, "limiterKey");
        if (limit < 0) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: >= 0)");
        }
        if (unlimited && limit != 0) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: 0 when unlimited)");
        }
    }

    /** Whether the request uses the provider's default pool rather than a route limiter of its own. */
    public boolean usesDefaultPool() {
        return !unlimited && limit == 0;
    }
}
