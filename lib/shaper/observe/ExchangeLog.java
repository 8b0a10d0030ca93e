package shaper.observe;

import java.io.PrintStream;
import java.time.Instant;
import java.util.Locale;

/**
 * One line per exchange on stdout, in logfmt: time, provider, method, path (never the query string,
 * which may carry keys), status (0 when none was committed), duration and outcome.
 */
public final class ExchangeLog {
    private final PrintStream out;

    public ExchangeLog(PrintStream out) {
        this.out = out;
    }

    public void exchange(String provider, String method, String path, int status, long nanos, Outcome outcome) {
        String line = String.format(Locale.ROOT, "%s exchange provider=%s method=%s path=%s status=%d duration=%.1fms outcome=%s",
                Instant.now(), provider, method, quote(path), status, nanos / 1e6, outcome.label());
        out.println(line);
    }

    public void info(String message) {
        out.println(Instant.now() + " " + message);
    }

    private static String quote(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c == '"' || c == '\\' || c >= 0x7f) {
                return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
            }
        }
        return value;
    }
}
