package shaper.limit;

import shaper.config.ConfigException;

/**
 * One provider's adaptive-concurrency settings, validated once at startup.
 *
 * @param enabled {@code -adaptive-concurrency} (default off): every limiter of the provider finds its own
 *                limit below its configured one
 * @param min     {@code -concurrency-min} (default 1): the lowest limit it may fall to, at least 1
 */
public record AdaptiveConfig(boolean enabled, int min) {
    public static final AdaptiveConfig OFF = new AdaptiveConfig(false, 1);

    public AdaptiveConfig {
        if (min < 1) {
            throw new ConfigException("-concurrency-min must be >= 1, got " + min);
        }
    }
}
