package shaper.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The range checks of duration flags, with the CLI's messages ({@code -queue-timeout must be >= 0,
 * got -1s}). Each names the flag once; a null value is a programming error, not a bad flag.
 */
public final class DurationFlags {
    private DurationFlags() {
    }

    /** @throws ConfigException when {@code d} is negative */
    public static Duration nonNegative(String flag, Duration d) {
        if (Objects.requireNonNull(d, flag).isNegative()) {
            throw new ConfigException(flag + " must be >= 0, got " + GoDuration.format(d));
        }
        return d;
    }

    /** @throws ConfigException when {@code d} is zero or negative */
    public static Duration positive(String flag, Duration d) {
        if (Objects.requireNonNull(d, flag).isZero() || d.isNegative()) {
            throw new ConfigException(flag + " must be > 0, got " + GoDuration.format(d));
        }
        return d;
    }
}
