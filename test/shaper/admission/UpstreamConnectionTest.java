package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** Upstream connections are pooled, or fresh per request with -upstream-disable-keep-alives (seen at the socket). */
class UpstreamConnectionTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static void sendSequentially(RunningShaper shaper, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri(i % 2 == 0 ? "/v1/models" : "/v1/stream")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
        }
    }

    private static ScriptedUpstream upstream() {
        return ScriptedUpstream.start((req, ex) -> {
            if (req.target().contains("stream")) {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk("data: x\n\n");
                ex.endChunks();
            } else {
                ex.respond(200, "{\"data\":[]}", "Content-Type: application/json");
            }
        });
    }

    @Test
    void sequentialRequestsReuseOneUpstreamConnection() throws Exception {
        try (ScriptedUpstream up = upstream();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            sendSequentially(shaper, 10);
            assertEquals(1, up.connections(), "Content-Length and chunked responses both leave the connection reusable");
        }
    }

    @Test
    void disableKeepAlivesOpensAFreshConnectionPerRequest() throws Exception {
        try (ScriptedUpstream up = upstream();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-upstream-disable-keep-alives")) {
            sendSequentially(shaper, 6);
            assertEquals(6, up.connections());
            assertEquals("close", up.requests().getFirst().header("Connection"));
        }
    }
}
