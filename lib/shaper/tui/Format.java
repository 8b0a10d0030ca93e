package shaper.tui;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Short human forms of durations, sizes, rates and clock times for narrow columns. */
final class Format {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    private Format() {
    }

    /** {@code 850ms}, {@code 1.2s}, {@code 42s}, {@code 3m05s}, {@code 2h10m}; "-" for null. */
    static String duration(Duration d) {
        if (d == null) {
            return "-";
        }
        long ms = Math.max(0, d.toMillis());
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 10_000) {
            return String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    /** {@code 512B}, {@code 1.5K}, {@code 12M}; "-" when unknown (negative). */
    static String size(long bytes) {
        if (bytes < 0) {
            return "-";
        }
        if (bytes < 1024) {
            return bytes + "B";
        }
        double v = bytes;
        String[] units = {"K", "M", "G", "T"};
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return v < 10 ? String.format(Locale.ROOT, "%.1f%s", v, units[u]) : String.format(Locale.ROOT, "%d%s", (long) v, units[u]);
    }

    /** {@code 0.0}, {@code 4.2}, {@code 120}. */
    static String rate(double perSecond) {
        return perSecond < 100 ? String.format(Locale.ROOT, "%.1f", perSecond) : String.valueOf(Math.round(perSecond));
    }

    /** {@code 950}, {@code 12.3k}, {@code 456k}, {@code 7.8M}: token counts for narrow columns. */
    static String count(long n) {
        long a = Math.abs(n);
        if (a < 1000) {
            return String.valueOf(n);
        }
        String[] units = {"k", "M", "G"};
        double v = n;
        int u = -1;
        while (Math.abs(v) >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return Math.abs(v) < 100 ? String.format(Locale.ROOT, "%.1f%s", v, units[u]) : String.format(Locale.ROOT, "%d%s", Math.round(v), units[u]);
    }

    /** Local wall-clock time, {@code HH:mm:ss}. */
    static String clock(Instant t, ZoneId zone) {
        return CLOCK.format(t.atZone(zone));
    }

    /** A status code, "-" when none was committed. */
    static String status(int status) {
        return status == 0 ? "-" : String.valueOf(status);
    }
}
