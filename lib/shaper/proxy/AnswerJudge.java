package shaper.proxy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.codec.BodyDecoder;
import shaper.codec.CodingException;
import shaper.codec.ContentCodings;
import shaper.retry.ErrorSignal;
import shaper.retry.ErrorWording;
import shaper.retry.FailureClass;
import shaper.retry.GiveUpReason;
import shaper.retry.RetryAfter;
import shaper.retry.RetryConfig;
import shaper.retry.RetryContext;
import shaper.retry.RetryDecision;
import shaper.retry.RetryPolicy;
import shaper.retry.RetryReason;
import shaper.retry.StaleReasoning;
import shaper.retry.UpstreamAnswer;
import shaper.retry.UpstreamFailures;

/**
 * What an attempt's answer means, decided by one pure function of what was read of it (status,
 * headers, the start of an error body, the early-SSE inspection) and of the request that may be
 * replayed: no sockets, no clocks but the ones handed in, so it is tested as a plain function.
 * <ul>
 *   <li>{@link Accept}: relay this answer;</li>
 *   <li>{@link Retry}: replay after the backoff, with the stale reasoning carriers stripped when that
 *       is the reason (and only if there was something to strip);</li>
 *   <li>{@link GiveUp}: relay this answer although retrying was wanted; when the budget ran out the
 *       client is told how long to wait ({@code Retry-After}).</li>
 * </ul>
 * Beside the decision it names the attempt's failure class and Retry-After (which the breaker and
 * the slots judge by) and the overload signal an adaptive limit reads: {@code 429}, {@code 529}
 * (Anthropic's overloaded), {@code 503}, a {@code -retry-status} status whose body carries the
 * rate-limit or transient wording, and an early SSE error under a 200. Other failures (a 500, a bad
 * request, a reset) say nothing about capacity.
 */
public final class AnswerJudge {
    /** The cause an early SSE error is logged with. */
    static final String EARLY_SSE_ERROR = "early SSE error";

    sealed interface Decision permits Accept, Retry, GiveUp {
    }

    record Accept() implements Decision {
    }

    /** @param replacedBody the plain body to send instead (stale reasoning stripped), or null to replay the same */
    record Retry(RetryDecision.Retry retry, byte[] replacedBody) implements Decision {
    }

    record GiveUp(GiveUpReason reason) implements Decision {
        /** The client is told when to come back: the budget, not the answer, ended the retries. */
        boolean retriesExhausted() {
            return reason.budgetExhausted();
        }
    }

    /**
     * What was read of the answer.
     *
     * @param upstream      status, headers, the decoded start of an error body (empty when not read), arrival time
     * @param earlySseError a 2xx event stream whose first frames carried an {@code error} / {@code response.failed}
     */
    record Answer(UpstreamAnswer upstream, boolean earlySseError) {
    }

    /**
     * The request as a replay would send it.
     *
     * @param body    the body sent; only a buffered body within {@code -retry-max-body-mb} (or none) is replayed
     * @param codings the codings {@code body} is in now
     */
    record Replay(RetryPolicy policy, RetryContext context, RequestBody body, ContentCodings codings) {
        RetryConfig config() {
            return policy.config();
        }

        /** Whether the body can be sent again; a body buffered only to wait in the queue may be too large. */
        boolean possible() {
            return config().enabled() && switch (body) {
                case RequestBody.None none -> true;
                case RequestBody.Buffered buffered -> buffered.bytes().length <= config().maxBodyBytes();
                case RequestBody.Streamed streamed -> false;
            };
        }
    }

    /** The decision, the attempt's failure class and Retry-After, and its overload cause (empty for none). */
    record Judgement(Decision decision, FailureClass failure, Duration retryAfter, String overload) {
        /** What a discarded attempt tells the breaker. */
        BreakerVerdict discarded() {
            return BreakerVerdict.of(false, failure, retryAfter, false);
        }
    }

    private AnswerJudge() {
    }

    /** Judges {@code answer}; {@code now} is the decision time (backoff and deadline). */
    static Judgement judge(Answer answer, Replay replay, Instant now) {
        UpstreamAnswer a = answer.upstream();
        FailureClass failure = answer.earlySseError() ? FailureClass.SERVER_ERROR
                : UpstreamFailures.classify(a.status(), a.headers(), a.receivedAt());
        Duration retryAfter = RetryAfter.remaining(a.headers(), a.receivedAt(), a.receivedAt()).orElse(Duration.ZERO);
        String overload = overload(a, answer.earlySseError(), replay.config());
        RetryDecision verdict = null;
        if (replay.possible() && answer.earlySseError()) {
            verdict = replay.policy().decideErrorUnder200(replay.context(), a.headers(), a.receivedAt(), now);
        } else if (replay.possible() && a.status() >= 400) {
            verdict = replay.policy().decide(replay.context(), a, now);
        }
        return new Judgement(decide(verdict, replay), failure, retryAfter, overload);
    }

    /** The decision from the retry policy's verdict ({@code null}: the answer was not judged). */
    static Decision decide(RetryDecision verdict, Replay replay) {
        return switch (verdict) {
            case null -> new Accept();
            case RetryDecision.Retry r when r.reason() == RetryReason.STALE_REASONING ->
                    strip(replay).<Decision>map(b -> new Retry(r, b)).orElse(new Accept());
            case RetryDecision.Retry r -> new Retry(r, null);
            case RetryDecision.GiveUp g -> new GiveUp(g.reason());
        };
    }

    private static String overload(UpstreamAnswer a, boolean earlySseError, RetryConfig config) {
        int status = a.status();
        if (earlySseError) {
            return EARLY_SSE_ERROR;
        }
        String byStatus = ofStatus(status);
        if (!byStatus.isEmpty() || a.bodyPrefix().length == 0 || !config.retryStatus().contains(status)) {
            return byStatus;
        }
        return ErrorWording.scan(a.bodyPrefix()) == ErrorSignal.RATE_LIMIT_OR_TRANSIENT ? status + " rate-limit wording" : "";
    }

    private static String ofStatus(int status) {
        return status == 429 || status == 529 || status == 503 ? Integer.toString(status) : "";
    }

    /**
     * The replay body of stale-reasoning recovery: the request with its reasoning carriers removed. A
     * coded body is decoded first, within {@code -retry-max-body-mb}, and the rewritten body is sent
     * uncompressed (the caller drops {@code Content-Encoding}): re-encoding would need an encoder for
     * every coding the proxy reads and buys nothing on a one-off replay. A body that cannot be decoded
     * has nothing to strip: the upstream's 400 goes to the client, as for a body without carriers.
     */
    private static Optional<byte[]> strip(Replay replay) {
        byte[] bytes = replay.body().bytes();
        if (bytes == null) {
            return Optional.empty();
        }
        ContentCodings codings = replay.codings();
        try {
            return StaleReasoning.stripCarriers(BodyDecoder.decode(bytes, codings,
                    codings.isIdentity() ? Long.MAX_VALUE : replay.config().maxBodyBytes()));
        } catch (CodingException unreadable) {
            return Optional.empty();
        }
    }

    /**
     * What one upstream call tells the circuit breaker, for plain requests and upgrades alike:
     * success only when the answer was 2xx and reached the client completely; an upstream failure
     * (5xx, 429, a transport error, a cut body) counts; a client that left judges nothing; anything
     * else (a bare 4xx) is neutral.
     */
    public sealed interface BreakerVerdict {
        record Success() implements BreakerVerdict {
        }

        record Failure(Duration retryAfter) implements BreakerVerdict {
        }

        record Neutral() implements BreakerVerdict {
        }

        record Cancel() implements BreakerVerdict {
        }

        /**
         * @param delivered  the whole answer reached the client
         * @param failure    the call's failure class
         * @param retryAfter the upstream's Retry-After, zero when none
         * @param clientLeft the client left before the call could be judged
         */
        public static BreakerVerdict of(boolean delivered, FailureClass failure, Duration retryAfter, boolean clientLeft) {
            if (delivered && failure.isSuccess()) {
                return new Success();
            }
            if (failure.isUpstreamFailure()) {
                return new Failure(retryAfter);
            }
            return clientLeft ? new Cancel() : new Neutral();
        }

        /** Tells {@code breaker} about the call admitted with {@code admission}. */
        default void report(CircuitBreaker breaker, Admission admission) {
            switch (this) {
                case Success s -> breaker.recordSuccess(admission);
                case Failure f -> breaker.recordFailure(admission, f.retryAfter());
                case Neutral n -> breaker.recordNeutral(admission);
                case Cancel c -> breaker.cancel(admission);
            }
        }
    }
}
