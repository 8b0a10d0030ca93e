package shaper.route;

import java.util.Objects;

/**
 * One distinct limiter key of a {@link RouteTable} with its resolved size, for sizing pools and
 * labelling metrics.
 *
 * @param key   the group, or a pattern's raw text
 * @param limit size of the key's own route limiter; {@code 0} when its requests share the default pool
 */
public record RouteClass(String key, int limit) {
    public RouteClass {
        Objects.requireNonNull(key, "key");
        if (limit < 0) {
            throw new IllegalArgumentException("limit: " + limit + " (expected: >= 0)");
        }
    }
}
