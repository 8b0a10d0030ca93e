package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;

import shaper.codec.ContentCodings;
import shaper.proxy.AnswerJudge.BreakerVerdict;
import shaper.retry.FailureClass;
import shaper.retry.GiveUpReason;
import shaper.retry.HeaderLookup;
import shaper.retry.RetryConfig;
import shaper.retry.RetryContext;
import shaper.retry.RetryDecision;
import shaper.retry.RetryPolicy;
import shaper.retry.RetryReason;
import shaper.retry.UpstreamAnswer;

/** The attempt loop's decisions as plain functions: no sockets, no clocks. */
class AnswerJudgeTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final RetryDecision.Retry SERVER_ERROR = new RetryDecision.Retry(RetryReason.SERVER_ERROR, Duration.ofMillis(5));
    private static final RetryPolicy POLICY = new RetryPolicy(RetryConfig.DEFAULTS, new Random(1));

    private static AnswerJudge.Replay replay(byte[] body) {
        return replay(POLICY, body == null ? new RequestBody.Streamed(java.io.InputStream.nullInputStream(), -1) : new RequestBody.Buffered(body));
    }

    private static AnswerJudge.Replay replay(RetryPolicy policy, RequestBody body) {
        return new AnswerJudge.Replay(policy, RetryContext.first(policy.config(), T0), body, ContentCodings.IDENTITY);
    }

    private static AnswerJudge.Judgement judge(int status, String body, HeaderLookup headers, boolean earlySseError) {
        UpstreamAnswer answer = new UpstreamAnswer(status, headers, body == null ? null : body.getBytes(StandardCharsets.UTF_8), T0);
        return AnswerJudge.judge(new AnswerJudge.Answer(answer, earlySseError), replay("{}".getBytes(StandardCharsets.UTF_8)), T0);
    }

    @Test
    void anUnjudgedAnswerIsAcceptedAsIs() {
        assertEquals(new AnswerJudge.Accept(), AnswerJudge.decide(null, replay(null)));
    }

    @Test
    void aRetryKeepsTheBodyUnlessStaleReasoningCanBeStripped() {
        AnswerJudge.Retry plain = assertInstanceOf(AnswerJudge.Retry.class, AnswerJudge.decide(SERVER_ERROR, replay(new byte[] {1})));
        assertNull(plain.replacedBody());

        RetryDecision.Retry stale = new RetryDecision.Retry(RetryReason.STALE_REASONING, Duration.ZERO);
        byte[] carrier = ("{\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"x\","
                + "\"signature\":\"ccswitch-openai-reasoning-abc\"},{\"type\":\"text\",\"text\":\"hi\"}]}]}").getBytes(StandardCharsets.UTF_8);
        AnswerJudge.Retry stripped = assertInstanceOf(AnswerJudge.Retry.class, AnswerJudge.decide(stale, replay(carrier)));
        assertEquals(-1, new String(stripped.replacedBody(), StandardCharsets.UTF_8).indexOf("ccswitch-openai-reasoning-"));
        assertEquals(new AnswerJudge.Accept(), AnswerJudge.decide(stale, replay("{}".getBytes(StandardCharsets.UTF_8))),
                "nothing to strip: the 400 is the answer");
        assertEquals(new AnswerJudge.Accept(), AnswerJudge.decide(stale, replay(null)), "a streamed body cannot be stripped");
    }

    @Test
    void aGiveUpByBudgetAsksForRetryAfterOnTheRelayedAnswer() {
        AnswerJudge.GiveUp exhausted = assertInstanceOf(AnswerJudge.GiveUp.class,
                AnswerJudge.decide(new RetryDecision.GiveUp(GiveUpReason.ATTEMPTS_EXHAUSTED), replay(null)));
        assertTrue(exhausted.retriesExhausted());
        AnswerJudge.GiveUp notRetryable = assertInstanceOf(AnswerJudge.GiveUp.class,
                AnswerJudge.decide(new RetryDecision.GiveUp(GiveUpReason.NOT_RETRYABLE), replay(null)));
        assertEquals(false, notRetryable.retriesExhausted(), "an answer that is not retryable is relayed as it is");
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

    @Test
    void aRateLimitIsCountedAsUpstreamFailureAndSignalsOverloadThoughTheDefaultSkips429() {
        AnswerJudge.Judgement j = judge(429, "{\"error\":{\"message\":\"rate limit exceeded\"}}", HeaderLookup.of("Retry-After", "3"), false);
        assertEquals(new AnswerJudge.GiveUp(GiveUpReason.SKIP_429), j.decision(), "-retry-skip-429 is on by default");
        assertEquals(FailureClass.RATE_LIMITED, j.failure());
        assertEquals(Duration.ofSeconds(3), j.retryAfter());
        assertEquals("429", j.overload());
        assertEquals(new BreakerVerdict.Failure(Duration.ofSeconds(3)), j.discarded());
    }

    @Test
    void aRetryStatusWithRateLimitWordingSignalsOverloadAndOtherFailuresDoNot() {
        assertEquals("422 rate-limit wording", judge(422, "{\"error\":{\"message\":\"Rate limit reached, try again\"}}",
                HeaderLookup.none(), false).overload());
        assertEquals("", judge(422, "{\"error\":{\"message\":\"invalid field\"}}", HeaderLookup.none(), false).overload());
        assertEquals("", judge(500, "", HeaderLookup.none(), false).overload(), "a 500 says nothing about capacity");
        assertEquals("529", judge(529, "", HeaderLookup.none(), false).overload());
        assertEquals("503", judge(503, "", HeaderLookup.none(), false).overload());
    }

    @Test
    void anEarlySseErrorUnder200IsAServerErrorToRetry() {
        AnswerJudge.Judgement j = judge(200, null, HeaderLookup.none(), true);
        assertInstanceOf(AnswerJudge.Retry.class, j.decision());
        assertEquals(FailureClass.SERVER_ERROR, j.failure());
        assertEquals(AnswerJudge.EARLY_SSE_ERROR, j.overload());
        AnswerJudge.Judgement clean = judge(200, null, HeaderLookup.none(), false);
        assertEquals(new AnswerJudge.Accept(), clean.decision());
        assertEquals(FailureClass.SUCCESS, clean.failure());
        assertEquals("", clean.overload());
    }

    @Test
    void aBodyThatCannotBeReplayedIsNeverJudgedForARetry() {
        UpstreamAnswer answer = new UpstreamAnswer(503, HeaderLookup.none(), null, T0);
        AnswerJudge.Replay streamed = replay(POLICY, new RequestBody.Streamed(java.io.InputStream.nullInputStream(), 10));
        AnswerJudge.Judgement j = AnswerJudge.judge(new AnswerJudge.Answer(answer, false), streamed, T0);
        assertEquals(new AnswerJudge.Accept(), j.decision());
        assertEquals("503", j.overload(), "the status alone still signals overload");
        RetryPolicy off = new RetryPolicy(RetryConfig.builder().retry(0).build(), new Random(1));
        assertEquals(false, replay(off, new RequestBody.None()).possible(), "-retry 0 replays nothing");
        assertEquals(true, replay(POLICY, new RequestBody.None()).possible());
    }
}
