package shaper.limit;

import java.time.Duration;
import java.util.Objects;

import shaper.config.GoDuration;

/** Duration checks shared by the limiter's public methods. */
final class Durations {
    private Durations() {
    }

    /** Nanoseconds of {@code d}, saturated at {@link Long#MAX_VALUE} (about 292 years). */
    static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException overflow) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** Returns {@code d} when it is not null and not negative, else throws naming {@code what}. */
    static Duration requireNonNegative(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must be >= 0, got " + GoDuration.format(d));
        }
        return d;
    }
}
