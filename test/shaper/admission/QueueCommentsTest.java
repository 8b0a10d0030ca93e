package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.admission.RouteLimitTest.fire;
import static shaper.admission.RouteLimitTest.waiters;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.limit.ManualTimeSource;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** -queue-comments: an SSE request that must wait commits 200 at once and shows it is alive. */
class QueueCommentsTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String STREAMING_BODY = "{\"model\":\"m\",\"stream\":true}";

    /** Upstream: "/hold" requests wait for the gate; others stream a short SSE answer or fail as asked. */
    private static ScriptedUpstream upstream(CountDownLatch gate) {
        return ScriptedUpstream.start((req, ex) -> {
            if (req.target().contains("hold")) {
                if (!gate.await(20, TimeUnit.SECONDS)) {
                    throw new java.io.IOException("gate");
                }
                ex.respond(200, "{}");
            } else if (req.target().contains("fail")) {
                ex.respond(529, "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"SECRET-UPSTREAM-DETAIL\"}}");
            } else {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                ex.chunk("event: message_start\ndata: {}\n\n");
                ex.chunk("event: message_stop\ndata: {}\n\n");
                ex.endChunks();
            }
        });
    }

    private static String request(String path, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static String readAll(RawHttp raw) throws Exception {
        StringBuilder sb = new StringBuilder();
        String chunk;
        while ((chunk = raw.readChunk()) != null) {
            sb.append(chunk);
        }
        return sb.toString();
    }

    @Test
    void queuedStreamingRequestGetsCommentsThenTheUpstreamStream() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = upstream(gate);
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0",
                     "-queue-comments", "1m", "-queue-timeout", "1h")) {
            var holder = fire(shaper, "POST", "/v1/messages/hold", 1);
            RunningShaper.await("slot taken", BOUND, () -> up.inFlight() == 1);
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(request("/v1/messages", STREAMING_BODY));
                RawHttp.Head head = raw.readHead();
                assertEquals(200, head.status(), "committed before admission");
                assertEquals("text/event-stream", head.header("Content-Type"));
                assertEquals(": queue-wait elapsed=0\n\n", raw.readChunk());
                RunningShaper.await("the next comment's alarm set", BOUND, () -> time.hasTaskDueIn(Duration.ofMinutes(1)));
                time.advance(Duration.ofMinutes(1));
                assertTrue(raw.readChunk().startsWith(": queue-wait elapsed="), "a comment per interval while queued");
                gate.countDown();
                String rest = readAll(raw);
                assertTrue(rest.contains("event: message_start") && rest.endsWith("event: message_stop\ndata: {}\n\n"), rest);
            }
            assertEquals(200, holder.getFirst().get(10, TimeUnit.SECONDS).statusCode());
        }
    }

    @Test
    void queueTimeoutAfterCommitEndsTheStreamWithAFailureComment() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = upstream(gate);
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-limit-all", "-concurrency", "1", "-queue-timeout", "1h",
                     "-queue-comments", "2h")) {
            var holder = fire(shaper, "POST", "/v1/messages/hold", 1);
            RunningShaper.await("slot taken", BOUND, () -> up.inFlight() == 1);
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(request("/v1/messages", STREAMING_BODY));
                assertEquals(200, raw.readHead().status());
                RunningShaper.await("the queue timeout's alarm set", BOUND, () -> time.hasTaskDueIn(Duration.ofHours(1)));
                time.advance(Duration.ofHours(1));
                String stream = readAll(raw);
                assertEquals(": queue-wait elapsed=0\n\n: queue-wait failed: timeout\n\n", stream);
            }
            gate.countDown();
            holder.getFirst().get(10, TimeUnit.SECONDS);
            RunningShaper.await("aborted counted", BOUND, () -> shaper.server().counters("default").snapshot().aborted() == 1);
        }
    }

    @Test
    void upstreamErrorAfterCommitNeverLeaksTheErrorBodyIntoTheStream() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = upstream(gate);
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0",
                     "-failure-hold", "0", "-queue-comments", "1h", "-queue-timeout", "2h")) {
            var holder = fire(shaper, "POST", "/v1/messages/hold", 1);
            RunningShaper.await("slot taken", BOUND, () -> up.inFlight() == 1);
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(request("/v1/messages/fail", STREAMING_BODY));
                assertEquals(200, raw.readHead().status());
                assertEquals(": queue-wait elapsed=0\n\n", raw.readChunk());
                RunningShaper.await("queued", BOUND, () -> waiters(shaper) == 1);
                CompletableFuture<String> stream = CompletableFuture.supplyAsync(() -> {
                    try {
                        return readAll(raw);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                gate.countDown();
                RunningShaper.await("admitted: its queue timers cancelled", BOUND, () -> waiters(shaper) == 0);
                // the 529s are retried with growing backoffs: move the proxy's clock to the end of each one
                // instead of waiting it out (time jumps from timer to timer, as it would pass on a wall clock)
                while (!stream.isDone()) {
                    RunningShaper.await("a backoff to move past, or the stream over", BOUND, () -> stream.isDone() || time.pending() > 0);
                    if (!stream.isDone()) {
                        time.advanceToNextTask();
                    }
                }
                String rest = stream.get();
                assertEquals(": queue-wait failed: upstream\n\n", rest);
                assertFalse(rest.contains("SECRET-UPSTREAM-DETAIL"));
            }
            holder.getFirst().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void explicitNonStreamingBodyQueuesSilently() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        try (ScriptedUpstream up = upstream(gate);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0",
                     "-queue-comments", "50ms")) {
            var holder = fire(shaper, "POST", "/v1/messages/hold", 1);
            RunningShaper.await("slot taken", BOUND, () -> up.inFlight() == 1);
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(request("/v1/messages", "{\"stream\":false}"));
                RunningShaper.await("queued", BOUND, () -> waiters(shaper) == 1);
                assertEquals(0, raw.in().available(), "nothing is committed for a non-streaming request");
                gate.countDown();
                RawHttp.Head head = raw.readHead();
                assertEquals(200, head.status());
                assertEquals("text/event-stream", head.header("Content-Type"), "the upstream's own head, not an early commit");
            }
            holder.getFirst().get(10, TimeUnit.SECONDS);
        }
    }
}
