package shaper.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import shaper.main.ShaperMain;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TestNet;

/** -metrics-bind: its own listener, bound after the proxy's, failing startup cleanly. */
class MetricsListenerTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static HttpResponse<String> get(int port, String method, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsNeverShareTheProxyPortAndServeOnlyTheirPath() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("upstream's own /metrics");
             RunningShaper shaper = RunningShaper.start("-metrics-bind", "127.0.0.1:0", "-upstream", up.url(),
                     "-circuit-breaker=false")) {
            HttpResponse<String> proxied = get(shaper.port(), "GET", "/metrics");
            assertEquals("upstream's own /metrics", proxied.body(), "a bare-root provider keeps every path");
            assertEquals("/metrics", up.onlyRequest().target());
            int port = shaper.server().metricsPort().orElseThrow();
            assertTrue(port != shaper.port());
            assertEquals(404, get(port, "GET", "/other").statusCode());
            assertEquals(405, get(port, "POST", "/metrics").statusCode());
            HttpResponse<String> metrics = get(port, "GET", "/metrics");
            assertEquals(200, metrics.statusCode());
            assertFalse(metrics.body().contains("shaper_breaker_state"), "breaker off: the family is omitted entirely");
            RunningShaper.await("listening line", java.time.Duration.ofSeconds(5),
                    () -> !shaper.logLines("metrics listening on 127.0.0.1:" + port + "/metrics").isEmpty());
        }
    }

    @Test
    void aBusyMetricsAddressFailsStartupAndReleasesTheProxyListener() throws Exception {
        int proxyPort = TestNet.freePort();
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = ShaperMain.run(new String[]{"-bind", "127.0.0.1:" + proxyPort, "-metrics-bind", "127.0.0.1:" + busy.getLocalPort(),
                            "-upstream", "http://127.0.0.1:9"},
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(1, code);
            String message = err.toString(StandardCharsets.UTF_8);
            assertTrue(message.contains("-metrics-bind 127.0.0.1:" + busy.getLocalPort()), message);
        }
        try (ServerSocket again = new ServerSocket(proxyPort, 1, InetAddress.getLoopbackAddress())) {
            assertEquals(proxyPort, again.getLocalPort(), "the proxy listener was released");
        }
    }

    @Test
    void anUnparseableMetricsAddressIsAUsageErrorAndABadPortASemanticOne() {
        // as for -bind: text that is no host:port does not parse (2); a port out of range is a bad value (1)
        for (String[] c : new String[][] {{"nonsense", "2"}, {"127.0.0.1:99999", "1"}}) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = ShaperMain.run(new String[]{"-metrics-bind", c[0], "-upstream", "http://127.0.0.1:9"},
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(Integer.parseInt(c[1]), code, c[0]);
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("-metrics-bind"), err.toString(StandardCharsets.UTF_8));
        }
    }
}
