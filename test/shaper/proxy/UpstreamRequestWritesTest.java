package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The upstream connection's write buffer starts small and grows only as far as a request needs (a
 * connection held by an event stream keeps what its one small head took), so requests of every size
 * around its bounds must still reach the upstream byte for byte, one after another on the same
 * pooled connection: heads below and above 8 KiB, bodies that fit beside the head, that exceed the
 * buffer, and chunked ones.
 */
class UpstreamRequestWritesTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(30);

    private record Case(int headerBytes, int bodyBytes, boolean chunked) {
    }

    @Test
    void requestsOfEverySizeArriveExactlyOnOnePooledConnection() throws Exception {
        List<Case> cases = List.of(new Case(10, 0, false), new Case(10, 300, false), new Case(9_000, 0, false),
                new Case(9_000, 300, false), new Case(100, 9_000, false), new Case(12_000, 70_000, false),
                new Case(10, 20, false), new Case(100, 9_000, true), new Case(10, 40_000, true), new Case(10, 5, false));
        Random random = new Random(7);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, "n=" + req.body().length));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            byte[][] sent = new byte[cases.size()][];
            String[] pads = new String[cases.size()];
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                byte[] body = new byte[c.bodyBytes()];
                random.nextBytes(body);
                sent[i] = body;
                pads[i] = "p".repeat(c.headerBytes() - 1) + (char) ('a' + i);
                HttpRequest.BodyPublisher publisher = c.chunked()
                        ? HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body))
                        : HttpRequest.BodyPublishers.ofByteArray(body);
                HttpResponse<String> res = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/write/" + i)).timeout(BOUND)
                        .header("X-Pad", pads[i]).POST(publisher).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, res.statusCode(), "case " + c);
                assertEquals("n=" + body.length, res.body(), "case " + c);
            }
            List<RecordedRequest> got = up.requests();
            assertEquals(cases.size(), got.size());
            for (int i = 0; i < cases.size(); i++) {
                RecordedRequest r = got.get(i);
                assertEquals("/v1/write/" + i, r.target(), "order");
                assertEquals(pads[i], r.header("X-Pad"), "header of case " + cases.get(i));
                assertArrayEquals(sent[i], r.body(), "body of case " + cases.get(i));
                assertEquals(cases.get(i).chunked(), r.chunked(), "framing of case " + cases.get(i));
            }
            assertEquals(1, up.connections(), "every request reused the one pooled upstream connection");
        }
    }
}
