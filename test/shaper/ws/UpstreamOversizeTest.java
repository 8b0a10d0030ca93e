package shaper.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.observe.EndReason;
import shaper.observe.Outcome;
import shaper.testing.ResponsesSocketClient;
import shaper.testing.ResponsesSocketUpstream;
import shaper.testing.RunningShaper;

/**
 * An upstream message over the proxy's bound (32 MiB) closes the upstream's socket with 1009 and the
 * client's with 1011 (the session cannot go on without it); the turn is aborted as an upstream that
 * broke off, and nothing of the oversized event reaches the client.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UpstreamOversizeTest {
    @Test
    void anOversizedUpstreamEventClosesBothSocketsAndAbortsTheTurn() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             ResponsesSocketClient c = ResponsesSocketClient.open(URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses"))) {
            up.answerNextWith("{\"type\":\"response.output_text.delta\",\"delta\":\"" + "y".repeat(33 * 1024 * 1024) + "\"}");
            c.send(SocketTurnAdmissionTest.CREATE);
            assertEquals(1011, c.closeCode(Duration.ofSeconds(30)));
            assertEquals(null, c.next(Duration.ofMillis(100)), "nothing of it was relayed");
            RunningShaper.await("the turn recorded", Duration.ofSeconds(15), () -> SocketTurnAdmissionTest.turns(shaper).size() == 1);
            var r = SocketTurnAdmissionTest.turns(shaper).getFirst();
            assertEquals(Outcome.ABORTED, r.outcome(), r.toString());
            assertEquals(EndReason.UPSTREAM_BROKE_OFF, r.reason(), r.toString());
        }
    }
}
