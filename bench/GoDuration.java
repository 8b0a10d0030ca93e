import java.util.Locale;

/**
 * A duration written the way Go and the proxy's flags write one, with a single unit: {@code 100ms},
 * {@code 250us}, {@code 2s}. Shared by {@code FakeUpstream} (its {@code interval} and {@code delay}
 * parameters), {@code SseProbe} (which staggers its streams by a fraction of that interval) and
 * {@code QueueFlood} (its timing flags), so all read the same text the same way.
 */
final class GoDuration {
    private GoDuration() {
    }

    static long nanos(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        String[][] units = {{"ns", "1"}, {"us", "1000"}, {"µs", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
        for (String[] u : units) {
            // Two-letter units come first, so "100ms" never matches the bare "s".
            if (t.endsWith(u[0])) {
                double v = Double.parseDouble(t.substring(0, t.length() - u[0].length()));
                return (long) (v * Long.parseLong(u[1]));
            }
        }
        throw new IllegalArgumentException("interval " + text + " (expected a Go duration such as 100ms)");
    }
}
