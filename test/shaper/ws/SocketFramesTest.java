package shaper.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.testing.ResponsesSocketClient;
import shaper.testing.ResponsesSocketUpstream;
import shaper.testing.RunningShaper;

/**
 * The frames of a terminated session: a message in fragments is one request, pings are answered while
 * a turn waits for its slot (and nothing else is sent meanwhile), and a message the protocol does not
 * allow closes the socket with its RFC 6455 code (1009 too big, 1003 binary, 1007 not JSON, 1008 a
 * second request while one is in flight); the upstream's socket closes with it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketFramesTest {
    private static final Duration BOUND = Duration.ofSeconds(15);

    private static URI socket(RunningShaper shaper) {
        return URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses");
    }

    @Test
    void aFragmentedRequestIsOneTurn() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("joined");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            String create = SocketTurnAdmissionTest.CREATE;
            c.sendFragments(create.substring(0, 10), create.substring(10, 40), create.substring(40));
            assertTrue(c.until("response.completed", BOUND).stream().anyMatch(m -> m.contains("joined")));
            assertEquals(create, up.messages().getFirst(), "the upstream got the whole message");
        }
    }

    @Test
    void aRequestSentTheMomentTheLastTurnCompletedIsTheNextTurn() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("again");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0");
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            // many turns: each request goes upstream right after the last one's send completed (a race in the JDK client)
            for (int turn = 0; turn < 200; turn++) {
                c.send(SocketTurnAdmissionTest.CREATE);
                c.until("response.completed", BOUND);
            }
            assertEquals(-1, c.closeCode(Duration.ofMillis(100)), "the socket is still open");
            RunningShaper.await("every turn recorded", BOUND, () -> shaper.server().journal("default").inFlight().isEmpty());
        }
    }

    @Test
    void aRouteLimitGetsItsSlotBackAfterEveryTurn() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("again");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit", "POST /v1/responses", "-concurrency", "2",
                     "-release-cooldown", "0");
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            for (int turn = 0; turn < 6; turn++) {
                c.send(SocketTurnAdmissionTest.CREATE);
                c.until("response.completed", BOUND);
            }
        }
    }

    @Test
    void pingsAreAnsweredWhileATurnWaitsAndNothingElseIsSent() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0s");
             ResponsesSocketClient first = ResponsesSocketClient.open(socket(shaper));
             ResponsesSocketClient waiting = ResponsesSocketClient.open(socket(shaper))) {
            up.holdTurns();
            first.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the first turn at the fake", BOUND, () -> up.inFlight() == 1);
            waiting.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the second turn queued", BOUND, () -> shaper.server().journal("default").inFlight().size() == 2);
            for (int i = 0; i < 3; i++) {
                assertTrue(waiting.ping("p" + i, BOUND), "pong " + i + " while queued");
            }
            assertEquals(null, waiting.next(Duration.ofMillis(200)), "no event while the turn waits");
            up.release(2);
            first.until("response.completed", BOUND);
            waiting.until("response.completed", BOUND);
        }
    }

    @Test
    void aMessageOverTheBoundClosesWith1009() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            String chunk = "x".repeat(1024 * 1024);
            String[] parts = new String[12];
            parts[0] = "{\"type\":\"response.create\",\"input\":\"";
            for (int i = 1; i < parts.length; i++) {
                parts[i] = chunk;
            }
            try {
                c.sendFragments(parts);
            } catch (Exception closedMeanwhile) {
                // the proxy may close before the last fragment is written
            }
            assertEquals(1009, c.closeCode(BOUND));
            RunningShaper.await("the upstream socket closed", BOUND, () -> up.closes() == 1);
            assertTrue(up.messages().isEmpty(), "nothing of it went upstream");
        }
    }

    @Test
    void aBinaryMessageClosesWith1003() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            c.sendBinary(new byte[] {1, 2, 3});
            assertEquals(1003, c.closeCode(BOUND));
        }
    }

    @Test
    void aMessageThatIsNotAJsonObjectWithATypeClosesWith1007() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            c.send("[1,2]");
            assertEquals(1007, c.closeCode(BOUND));
            assertTrue(up.messages().isEmpty());
        }
    }

    @Test
    void aSecondRequestWhileOneIsInFlightClosesWith1008() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-release-cooldown", "0s");
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            up.holdTurns();
            c.send(SocketTurnAdmissionTest.CREATE);
            RunningShaper.await("the turn at the fake", BOUND, () -> up.inFlight() == 1);
            c.send(SocketTurnAdmissionTest.CREATE);
            assertEquals(1008, c.closeCode(BOUND));
            RunningShaper.await("the held turn abandoned upstream", BOUND, () -> up.abandoned() == 1);
            RunningShaper.await("the turn recorded", BOUND, () -> SocketTurnAdmissionTest.turns(shaper).size() == 1);
        }
    }

    @Test
    void anUpstreamErrorEventEndsTheTurnWithItsStatus() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            up.answerNextWith("{\"type\":\"error\",\"status\":429,\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"},"
                    + "\"headers\":{\"retry-after\":\"2\"}}");
            c.send(SocketTurnAdmissionTest.CREATE);
            assertTrue(c.until("error", BOUND).getLast().contains("slow down"), "relayed as it came");
            RunningShaper.await("the turn recorded", BOUND, () -> SocketTurnAdmissionTest.turns(shaper).size() == 1);
            assertEquals(429, SocketTurnAdmissionTest.turns(shaper).getFirst().status());
        }
    }
}
