package shaper.breaker;

import java.time.Duration;

import shaper.config.ConfigException;
import shaper.config.DurationFlags;

/**
 * Provider-scope circuit breaker settings ({@code -circuit-breaker}, {@code -cb-*}).
 *
 * <p>When the breaker is enabled every value must be positive; the messages are the CLI's
 * ({@code -cb-threshold must be > 0, got 0}). When it is disabled only negative durations are
 * refused ({@code -cb-window must be >= 0, got -1s}). A {@code maxPenalty} below {@code penalty}
 * is raised to {@code penalty}. A {@code maxOpenTimeout} below {@code openTimeout} is kept: the
 * open wait is then {@code maxOpenTimeout} from the first trip on.
 *
 * @param enabled        {@code -circuit-breaker}, default {@code true}
 * @param threshold      {@code -cb-threshold}: failures within the window that trip the breaker, default 5
 * @param window         {@code -cb-window}: failure counting window, default 30s
 * @param openTimeout    {@code -cb-open-timeout}: open wait before the first probe, default 10s
 * @param maxOpenTimeout {@code -cb-max-open-timeout}: cap of the doubled open wait, default 120s
 * @param penalty        {@code -cb-penalty}: slot hold after the first consecutive failure, default 2s
 * @param maxPenalty     {@code -cb-max-penalty}: cap of the slot hold, default 60s
 * @throws ConfigException on an invalid value; {@link NullPointerException} on a null duration
 */
public record BreakerConfig(
        boolean enabled,
        int threshold,
        Duration window,
        Duration openTimeout,
        Duration maxOpenTimeout,
        Duration penalty,
        Duration maxPenalty) {

    public BreakerConfig {
        if (enabled && threshold <= 0) {
            throw new ConfigException("-cb-threshold must be > 0, got " + threshold);
        }
        check("-cb-window", window, enabled);
        check("-cb-open-timeout", openTimeout, enabled);
        check("-cb-max-open-timeout", maxOpenTimeout, enabled);
        check("-cb-penalty", penalty, enabled);
        check("-cb-max-penalty", maxPenalty, enabled);
        if (maxPenalty.compareTo(penalty) < 0) {
            maxPenalty = penalty;
        }
    }

    /** The documented defaults: enabled, 5 failures in 30s, open 10s doubling to 120s, penalty 2s up to 60s. */
    public static BreakerConfig defaults() {
        return new BreakerConfig(true, 5, Duration.ofSeconds(30), Duration.ofSeconds(10),
                Duration.ofSeconds(120), Duration.ofSeconds(2), Duration.ofSeconds(60));
    }

    /** The same settings with the breaker switched off. */
    public static BreakerConfig disabled() {
        BreakerConfig d = defaults();
        return new BreakerConfig(false, d.threshold, d.window, d.openTimeout, d.maxOpenTimeout, d.penalty, d.maxPenalty);
    }

    /**
     * How long the breaker stays open after {@code backoff} failed probes:
     * {@code openTimeout × 2^backoff}, capped at {@code maxOpenTimeout}.
     */
    public Duration openTimeoutAfter(int backoff) {
        return Duration.ofNanos(Math.min(doubled(nanos(openTimeout), backoff), nanos(maxOpenTimeout)));
    }

    /**
     * The slot hold after {@code consecutiveFailures} failures in a row:
     * {@code penalty × 2^(consecutiveFailures - 1)}, at least {@code lastRetryAfter}, capped at
     * {@code maxPenalty}. Zero consecutive failures count as one.
     */
    public Duration penaltyAfter(int consecutiveFailures, Duration lastRetryAfter) {
        long grown = doubled(nanos(penalty), Math.max(consecutiveFailures - 1, 0));
        long floored = Math.max(grown, nanos(lastRetryAfter));
        return Duration.ofNanos(Math.min(floored, nanos(maxPenalty)));
    }

    /** {@code base × 2^exponent}, saturating at {@link Long#MAX_VALUE} instead of overflowing. */
    static long doubled(long base, int exponent) {
        if (base == 0) {
            return 0;
        }
        if (exponent >= Long.SIZE - 1 || base > (Long.MAX_VALUE >> exponent)) {
            return Long.MAX_VALUE;
        }
        return base << exponent;
    }

    /** Nanoseconds of {@code d}, saturating for durations beyond ~292 years. */
    static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** A duration of an enabled breaker must be positive, of a disabled one not negative. */
    private static void check(String flag, Duration value, boolean enabled) {
        if (enabled) {
            DurationFlags.positive(flag, value);
        } else {
            DurationFlags.nonNegative(flag, value);
        }
    }
}
