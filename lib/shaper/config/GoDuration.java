package shaper.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;

/**
 * Go's {@code time.ParseDuration} grammar: a signed sequence of decimal numbers with units
 * ({@code ns us µs ms s m h}), such as {@code 200ms}, {@code 1.5h} or {@code 1h30m}. A bare
 * {@code 0} is allowed; any other number needs a unit.
 */
public final class GoDuration {
    private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
            "ns", 1L,
            "us", 1_000L,
            "µs", 1_000L,
            "μs", 1_000L,
            "ms", 1_000_000L,
            "s", 1_000_000_000L,
            "m", 60_000_000_000L,
            "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} naming the text when it is not a Go duration. */
    public static Duration parse(String text) {
        String s = text == null ? "" : text.trim();
        if (s.isEmpty()) {
            throw invalid(text);
        }
        boolean negative = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            throw invalid(text);
        }
        BigDecimal totalNanos = BigDecimal.ZERO;
        int i = 0;
        while (i < s.length()) {
            int numberStart = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String number = s.substring(numberStart, i);
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            Long unit = NANOS_PER_UNIT.get(s.substring(unitStart, i));
            if (number.isEmpty() || number.equals(".") || unit == null) {
                throw invalid(text);
            }
            try {
                totalNanos = totalNanos.add(new BigDecimal(number).multiply(BigDecimal.valueOf(unit)));
            } catch (NumberFormatException e) {
                throw invalid(text);
            }
        }
        BigDecimal nanos = totalNanos.setScale(0, RoundingMode.DOWN);
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("duration out of range: \"" + text + "\"");
        }
        long n = nanos.longValue();
        return Duration.ofNanos(negative ? -n : n);
    }

    /** Formats like Go's {@code Duration.String}: {@code 0s}, {@code 200ms}, {@code 1m30s}, {@code 1h0m0s}. */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        String sign = d.isNegative() ? "-" : "";
        Duration a = d.abs();
        if (a.compareTo(Duration.ofSeconds(1)) < 0) {
            long nanos = a.toNanos();
            if (nanos % 1_000_000 == 0) {
                return sign + nanos / 1_000_000 + "ms";
            }
            if (nanos % 1_000 == 0) {
                return sign + nanos / 1_000 + "µs";
            }
            return sign + nanos + "ns";
        }
        long hours = a.toHours();
        int minutes = a.toMinutesPart();
        BigDecimal seconds = BigDecimal.valueOf(a.toSecondsPart())
                .add(BigDecimal.valueOf(a.toNanosPart(), 9)).stripTrailingZeros();
        String secs = seconds.toPlainString() + "s";
        if (hours > 0) {
            return sign + hours + "h" + minutes + "m" + secs;
        }
        if (minutes > 0) {
            return sign + minutes + "m" + secs;
        }
        return sign + secs;
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("invalid duration \"" + text + "\" (expected a Go duration such as 200ms, 30s, 1h30m)");
    }
}
