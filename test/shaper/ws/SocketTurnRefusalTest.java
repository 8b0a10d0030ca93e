package shaper.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.observe.EndReason;
import shaper.observe.ExchangeRecord;
import shaper.observe.Outcome;
import shaper.testing.ResponsesSocketClient;
import shaper.testing.ResponsesSocketUpstream;
import shaper.testing.RunningShaper;

/**
 * A turn the proxy refuses reaches the client as the {@code error} event it reads as an HTTP answer
 * (status, error object, {@code retry-after}), then the socket closes; a turn whose client closes its
 * socket while it is held closes the upstream's socket too and is aborted. Every ending gives the slot
 * back: the next turn is served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketTurnRefusalTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration BOUND = Duration.ofSeconds(15);

    private static URI socket(RunningShaper shaper) {
        return URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses");
    }

    @Test
    void queueTimeoutIsAnErrorEventWithRetryAfterThenClose() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1",
                     "-queue-timeout", "300ms", "-release-cooldown", "0s");
             ResponsesSocketClient first = ResponsesSocketClient.open(socket(shaper));
             ResponsesSocketClient second = ResponsesSocketClient.open(socket(shaper))) {
            up.holdTurns();
            first.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the first turn at the fake", BOUND, () -> up.inFlight() == 1);
            second.send(SocketTurnAdmissionTest.CREATE);
            String event = second.next(BOUND);
            assertNotNull(event, "the refusal arrived");
            JsonNode e = JSON.readTree(event);
            assertEquals("error", e.path("type").asText(), event);
            assertEquals(504, e.path("status").asInt(), event);
            assertEquals("timeout_error", e.path("error").path("type").asText(), event);
            assertEquals("1", e.path("headers").path("retry-after").asText(), event);
            assertEquals(1013, second.closeCode(BOUND), "closed after the refusal, so the client retries on a new socket");
            up.release(1);
            first.until("response.completed", BOUND);
            RunningShaper.await("both turns recorded", BOUND, () -> SocketTurnAdmissionTest.turns(shaper).size() == 2);
            List<ExchangeRecord> turns = SocketTurnAdmissionTest.turns(shaper);
            assertTrue(turns.stream().anyMatch(r -> r.reason() == EndReason.QUEUE_TIMEOUT && r.status() == 504), turns.toString());
            assertTrue(turns.stream().anyMatch(r -> r.reason() == EndReason.COMPLETED && r.status() == 200), turns.toString());
            assertEquals(1, up.maxInFlight());
        }
    }

    @Test
    void fullQueueIsA429ErrorEventWithTheQueuesRetryAfter() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1",
                     "-queue-depth", "1", "-release-cooldown", "3s");
             ResponsesSocketClient first = ResponsesSocketClient.open(socket(shaper));
             ResponsesSocketClient queued = ResponsesSocketClient.open(socket(shaper));
             ResponsesSocketClient third = ResponsesSocketClient.open(socket(shaper))) {
            up.holdTurns();
            first.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the first turn at the fake", BOUND, () -> up.inFlight() == 1);
            queued.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the second turn queued", BOUND, () -> shaper.server().journal("default").inFlight().size() == 2);
            third.send(SocketTurnAdmissionTest.CREATE);
            JsonNode e = JSON.readTree(third.next(BOUND));
            assertEquals(429, e.path("status").asInt(), e.toString());
            assertEquals("rate_limit_error", e.path("error").path("type").asText(), e.toString());
            assertEquals("queue_full", e.path("error").path("code").asText(), e.toString());
            assertEquals("3", e.path("headers").path("retry-after").asText(), "the queue's retry-after: the release cooldown");
            assertEquals(1013, third.closeCode(BOUND));
            up.release(2);
            first.until("response.completed", BOUND);
            queued.until("response.completed", BOUND);
        }
    }

    @Test
    void clientClosingMidTurnClosesTheUpstreamSocketIsAbortedAndFreesTheSlot() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0s")) {
            up.holdTurns();
            ResponsesSocketClient leaving = ResponsesSocketClient.open(socket(shaper));
            leaving.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the turn at the fake", BOUND, () -> up.inFlight() == 1);
            leaving.close();
            RunningShaper.await("the upstream's turn abandoned", BOUND, () -> up.abandoned() == 1);
            RunningShaper.await("the turn recorded", BOUND, () -> SocketTurnAdmissionTest.turns(shaper).size() == 1);
            ExchangeRecord r = SocketTurnAdmissionTest.turns(shaper).getFirst();
            assertEquals(Outcome.ABORTED, r.outcome(), r.toString());
            assertEquals(EndReason.CLIENT_LEFT, r.reason(), r.toString());
            try (ResponsesSocketClient next = ResponsesSocketClient.open(socket(shaper))) {
                next.send(SocketTurnAdmissionTest.CREATE);
                RunningShaper.await("the next turn at the fake", BOUND, () -> up.inFlight() == 1);
                up.release(1);
                next.until("response.completed", BOUND);
            }
            RunningShaper.await("no session open", BOUND, () -> up.closes() == 2);
        }
    }

    @Test
    void clientClosingWhileQueuedLeavesTheQueueAndNeverReachesTheUpstream() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0s");
             ResponsesSocketClient first = ResponsesSocketClient.open(socket(shaper))) {
            up.holdTurns();
            first.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the first turn at the fake", BOUND, () -> up.inFlight() == 1);
            ResponsesSocketClient leaving = ResponsesSocketClient.open(socket(shaper));
            leaving.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the second turn queued", BOUND, () -> shaper.server().journal("default").inFlight().size() == 2);
            leaving.close();
            RunningShaper.await("the queued turn recorded", BOUND, () -> SocketTurnAdmissionTest.turns(shaper).size() == 1);
            ExchangeRecord r = SocketTurnAdmissionTest.turns(shaper).getFirst();
            assertEquals(EndReason.CLIENT_LEFT, r.reason(), r.toString());
            assertEquals(0, r.attempts(), "never sent upstream");
            up.release(1);
            first.until("response.completed", BOUND);
            assertEquals(1, up.messages().size(), "only the first turn reached the upstream: " + up.messages());
        }
    }
}
