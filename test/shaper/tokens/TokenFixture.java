package shaper.tokens;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.RunningShaper;

/** A ProbeServer and the proxy in front of it, with a metrics listener, for the token tests. */
final class TokenFixture implements AutoCloseable {
    static final Duration BOUND = Duration.ofSeconds(20);
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(BOUND).build();

    final ProbeServer probe;
    final RunningShaper shaper;

    private TokenFixture(ProbeServer probe, RunningShaper shaper) {
        this.probe = probe;
        this.shaper = shaper;
    }

    /** The proxy on {@code upstreamPath} of a fresh probe, with {@code flags} (provider scope) and metrics. */
    static TokenFixture start(String upstreamPath, String... flags) {
        return start(null, upstreamPath, flags);
    }

    /** As above, on {@code time} (null: the system clock): buckets refill and waits end when the test moves it. */
    static TokenFixture start(shaper.limit.TimeSource time, String upstreamPath, String... flags) {
        ProbeConfig d = ProbeConfig.defaults(0);
        ProbeServer probe = ProbeServer.start(d.withRateLimits(new ProbeConfig.RateLimitDefaults(50, 30_000, 8_000, 8)));
        List<String> argv = new ArrayList<>(List.of("-metrics-bind", "127.0.0.1:0", "-upstream", probe.uri(upstreamPath).toString()));
        argv.addAll(List.of(flags));
        try {
            String[] args = argv.toArray(String[]::new);
            return new TokenFixture(probe, time == null ? RunningShaper.start(args) : RunningShaper.start(time, args));
        } catch (RuntimeException e) {
            probe.stop();
            throw e;
        }
    }

    HttpResponse<String> post(String path, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    String metrics() throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + shaper.server().metricsPort().orElseThrow() + "/metrics");
        return CLIENT.send(HttpRequest.newBuilder(uri).timeout(BOUND).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The value of the series line starting with {@code nameAndLabels} ({@code name{a="b",...}}), or -1 when absent. */
    static double value(String metrics, String nameAndLabels) {
        Matcher m = Pattern.compile("^" + Pattern.quote(nameAndLabels) + " (\\S+)$", Pattern.MULTILINE).matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    /** Waits until the proxy's log has {@code n} exchange lines. */
    List<String> exchangeLines(int n) {
        RunningShaper.await(n + " exchange lines", BOUND, () -> shaper.logLines(" exchange ").size() >= n);
        return shaper.logLines(" exchange ");
    }

    @Override
    public void close() {
        try {
            shaper.close();
        } finally {
            probe.stop();
        }
    }
}
