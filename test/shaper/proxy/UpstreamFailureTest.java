package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;

/** An upstream that cannot be reached becomes a short local 502, logged without query strings. */
class UpstreamFailureTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void unreachableUpstreamAnswers502NamingCauseAndUpstreamAndALogLineWithoutTheQuery() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + closedPort + "/base?key=sk-base-secret", "-retry", "0")) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages?key=sk-client-secret")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(502, r.statusCode());
            assertTrue(r.headers().firstValue("content-type").orElseThrow().startsWith("application/json"));
            assertEquals("{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"upstream unreachable: connection refused"
                    + " (http://127.0.0.1:" + closedPort + "/base)\"}}", r.body(), "the cause and the upstream, never its query");

            RunningShaper.await("exchange logged", java.time.Duration.ofSeconds(5), () -> !shaper.logLines(" exchange ").isEmpty());
            List<String> errors = shaper.logLines("upstream error");
            assertEquals(1, errors.size(), shaper.stdout());
            assertTrue(errors.getFirst().contains("path=/v1/messages"));
            List<String> exchange = shaper.logLines("exchange ");
            assertTrue(exchange.getFirst().contains("status=502") && exchange.getFirst().contains("outcome=failed"), exchange.toString());
            assertFalse(shaper.stdout().contains("sk-client-secret"), "query strings never reach the log");
            assertFalse(shaper.stdout().contains("sk-base-secret"), "the upstream's query never reaches the log");
            assertFalse(r.body().contains("sk-base-secret") || r.body().contains("?"), "the error body names the upstream without its query");
        }
    }

    @Test
    void transportErrorDescriptionsRedactUrlQueries() {
        String d = TransportErrors.describe(new java.io.UncheckedIOException(
                new java.io.IOException("failed GET http://h/p?api_key=secret123&x=1 after reset")));
        assertFalse(d.contains("secret123"), d);
        assertTrue(d.contains("http://h/p?[redacted]"), d);
    }
}
