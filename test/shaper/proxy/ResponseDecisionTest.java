package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.retry.FailureClass;
import shaper.retry.GiveUpReason;
import shaper.retry.RetryDecision;
import shaper.retry.RetryReason;

/** The attempt loop's decisions as plain functions: no sockets, no clocks. */
class ResponseDecisionTest {
    private static final RetryDecision.Retry SERVER_ERROR = new RetryDecision.Retry(RetryReason.SERVER_ERROR, Duration.ofMillis(5));

    @Test
    void anUnjudgedAnswerIsAcceptedAsIs() {
        assertEquals(new ResponseDecision.Accept(false), ResponseDecision.of(null, null));
    }

    @Test
    void aRetryKeepsTheBodyUnlessStaleReasoningCanBeStripped() {
        ResponseDecision.Retry plain = assertInstanceOf(ResponseDecision.Retry.class, ResponseDecision.of(SERVER_ERROR, new byte[] {1}));
        assertNull(plain.replacedBody());

        RetryDecision.Retry stale = new RetryDecision.Retry(RetryReason.STALE_REASONING, Duration.ZERO);
        byte[] carrier = ("{\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"x\","
                + "\"signature\":\"ccswitch-openai-reasoning-abc\"},{\"type\":\"text\",\"text\":\"hi\"}]}]}").getBytes(StandardCharsets.UTF_8);
        ResponseDecision.Retry stripped = assertInstanceOf(ResponseDecision.Retry.class, ResponseDecision.of(stale, carrier));
        assertEquals(-1, new String(stripped.replacedBody(), StandardCharsets.UTF_8).indexOf("ccswitch-openai-reasoning-"));
        assertEquals(new ResponseDecision.Accept(false), ResponseDecision.of(stale, "{}".getBytes(StandardCharsets.UTF_8)),
                "nothing to strip: the 400 is the answer");
        assertEquals(new ResponseDecision.Accept(false), ResponseDecision.of(stale, null), "a streamed body cannot be stripped");
    }

    @Test
    void aGiveUpByBudgetAsksForRetryAfterOnTheRelayedAnswer() {
        assertEquals(new ResponseDecision.Accept(true), ResponseDecision.of(new RetryDecision.GiveUp(GiveUpReason.ATTEMPTS_EXHAUSTED), null));
    }

    @Test
    void theBreakerVerdictIsOneFunctionOfTheCallsFacts() {
        assertInstanceOf(BreakerVerdict.Success.class, BreakerVerdict.of(true, FailureClass.SUCCESS, Duration.ZERO, false));
        assertEquals(new BreakerVerdict.Failure(Duration.ofSeconds(3)),
                BreakerVerdict.of(true, FailureClass.SERVER_ERROR, Duration.ofSeconds(3), false));
        assertInstanceOf(BreakerVerdict.Failure.class, BreakerVerdict.of(false, FailureClass.TRANSPORT_ERROR, Duration.ZERO, true),
                "an upstream failure counts even when the client left too");
        assertInstanceOf(BreakerVerdict.Cancel.class, BreakerVerdict.of(false, FailureClass.SUCCESS, Duration.ZERO, true));
        assertInstanceOf(BreakerVerdict.Neutral.class, BreakerVerdict.of(true, FailureClass.CLIENT_ERROR, Duration.ZERO, false));
        assertInstanceOf(BreakerVerdict.Neutral.class, BreakerVerdict.of(false, FailureClass.SUCCESS, Duration.ZERO, false),
                "a 2xx that did not reach the client is no success");
    }
}
