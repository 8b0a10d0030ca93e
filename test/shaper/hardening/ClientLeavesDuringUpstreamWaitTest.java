package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.HoldingUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;

/**
 * A client that leaves while the upstream is still working on the answer (before any response
 * byte) is noticed then, by the end-of-stream watch: the upstream call ends within about a second,
 * the exchange is aborted and the slot comes back.
 */
class ClientLeavesDuringUpstreamWaitTest {
    private static final Duration NOTICED_WITHIN = Duration.ofSeconds(3);

    @Test
    void clientLeavingBeforeTheResponseHeadEndsTheUpstreamCall() throws Exception {
        try (HoldingUpstream up = HoldingUpstream.start();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "2",
                     "-cancel-cooldown", "20ms", "-release-cooldown", "0s")) {
            leaveWhileUpstreamWorks(shaper, up, "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 16\r\n\r\n{\"stream\":false}");
            leaveWhileUpstreamWorks(shaper, up, "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
            RunningShaper.await("aborted exchanges logged", Duration.ofSeconds(5),
                    () -> shaper.logLines("outcome=aborted").size() >= 2);
            RunningShaper.await("slots back", Duration.ofSeconds(5), () -> {
                List<LimiterSnapshot> s = shaper.server().limiters("default");
                return s.stream().allMatch(l -> l.inUse() == 0 && l.cooling() == 0);
            });
        }
    }

    @Test
    void clientLeavingAfterStreamingItsWholeBodyEndsTheUpstreamCall() throws Exception {
        try (HoldingUpstream up = HoldingUpstream.start();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            leaveWhileUpstreamWorks(shaper, up, "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n10\r\n{\"stream\":false}\r\n0\r\n\r\n");
        }
    }

    private static void leaveWhileUpstreamWorks(RunningShaper shaper, HoldingUpstream up, String request) throws Exception {
        int closed = up.closedByProxy();
        int heads = up.heads();
        RawHttp raw = new RawHttp(shaper.port());
        raw.send(request);
        RunningShaper.await("the upstream working on it", Duration.ofSeconds(10), () -> up.heads() > heads);
        raw.close();
        long left = System.nanoTime();
        RunningShaper.await("the upstream call ended", NOTICED_WITHIN.plusSeconds(2), () -> up.closedByProxy() > closed);
        Duration took = Duration.ofNanos(System.nanoTime() - left);
        assertTrue(took.compareTo(NOTICED_WITHIN) <= 0, "upstream call ended " + took + " after the client left");
    }
}
