package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * {@code -queue-comments} for a request whose body asks to stream while its Accept header names only
 * JSON (Claude Code streams with {@code Accept: application/json}): on a Messages, Chat or Responses
 * route it is committed and ticks comments while queued; anywhere else, or without
 * {@code "stream": true}, it waits in silence as before.
 */
class QueueCommentsForJsonStreamsTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static ScriptedUpstream upstream(CountDownLatch gate) {
        return ScriptedUpstream.start((req, ex) -> {
            if (req.target().contains("hold")) {
                if (!gate.await(20, TimeUnit.SECONDS)) {
                    throw new java.io.IOException("gate");
                }
                ex.respond(200, "{}");
            } else {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk("event: message_stop\ndata: {}\n\n");
                ex.endChunks();
            }
        });
    }

    private static String jsonRequest(String path, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static CompletableFuture<HttpResponse<String>> hold(RunningShaper shaper) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/messages/hold")).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int waiters(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum();
    }

    private static void assertCommented(String path, String body) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = upstream(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1",
                     "-release-cooldown", "0", "-queue-comments", "1m")) {
            var holder = hold(shaper);
            RunningShaper.await("slot taken", BOUND, () -> up.inFlight() == 1);
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(jsonRequest(path, body));
                RawHttp.Head head = raw.readHead();
                assertEquals(200, head.status(), "committed before admission: " + path);
                assertEquals("text/event-stream", head.header("Content-Type"));
                assertEquals(": queue-wait elapsed=0\n\n", raw.readChunk());
                gate.countDown();
                StringBuilder rest = new StringBuilder();
                for (String chunk = raw.readChunk(); chunk != null; chunk = raw.readChunk()) {
                    rest.append(chunk);
                }
                assertTrue(rest.toString().endsWith("event: message_stop\ndata: {}\n\n"), path + ": " + rest);
            }
            assertEquals(200, holder.get(10, TimeUnit.SECONDS).statusCode());
        }
    }

    private static void assertSilent(String path, String body) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = upstream(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1",
                     "-release-cooldown", "0", "-queue-comments", "50ms")) {
            var holder = hold(shaper);
            RunningShaper.await("slot taken", BOUND, () -> up.inFlight() == 1);
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(jsonRequest(path, body));
                RunningShaper.await("queued", BOUND, () -> waiters(shaper) == 1);
                // several comment intervals pass with nothing written
                RunningShaper.await("the holder's wait", BOUND, () -> shaper.server().journal("default").inFlight().stream()
                        .anyMatch(f -> f.age().toMillis() >= 300));
                assertEquals(0, raw.in().available(), "nothing is committed: " + path + " " + body);
                gate.countDown();
                assertEquals(200, raw.readHead().status());
            }
            holder.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aMessagesBodyAskingToStreamGetsCommentsWhateverItsAccept() throws Exception {
        assertCommented("/v1/messages", "{\"model\":\"m\",\"stream\":true}");
    }

    @Test
    void chatAndResponsesBodiesAskingToStreamGetCommentsToo() throws Exception {
        assertCommented("/v1/chat/completions", "{\"model\":\"m\",\"stream\":true}");
        assertCommented("/v1/responses", "{\"model\":\"m\",\"stream\":true}");
    }

    @Test
    void aJsonRequestThatDoesNotAskToStreamWaitsSilently() throws Exception {
        assertSilent("/v1/messages", "{\"model\":\"m\"}");
        assertSilent("/v1/other", "{\"model\":\"m\",\"stream\":true}");
    }
}
