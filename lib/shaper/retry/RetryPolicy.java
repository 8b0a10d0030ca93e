package shaper.retry;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Decides, after each failed upstream attempt, whether to replay the request and how long to wait.
 * Pure: no I/O, time comes in as arguments, randomness from the injected generator.
 *
 * <p>Which failures are retryable (first matching rule wins):
 * <ol>
 * <li>status 0 (no response) → {@link RetryReason#TRANSPORT_ERROR};</li>
 * <li>400 whose body is a recognized backend-resource mismatch ({@link StaleReasoning}) →
 *     {@link RetryReason#STALE_REASONING} once, if {@code -strip-stale-reasoning};</li>
 * <li>a body with {@link ErrorWording#INVALID_REQUEST} wording → never ({@link GiveUpReason#INVALID_REQUEST});</li>
 * <li>500–599 → {@link RetryReason#SERVER_ERROR};</li>
 * <li>429 with {@code -retry-skip-429} → never; else, when 429 is in {@code -retry-status}, only with
 *     recognized wording, otherwise on its status alone;</li>
 * <li>another status in {@code -retry-status} → only with {@link ErrorWording#RATE_LIMIT_OR_TRANSIENT} wording;</li>
 * <li>anything else (a bare 403, other 4xx, 1xx–3xx) → never.</li>
 * </ol>
 * An error hidden under HTTP 200 is judged by the SSE inspector and scheduled with
 * {@link #decideErrorUnder200}.
 *
 * <p>Budget: {@code -retry N} allows N+1 calls (stale-reasoning recovery included), {@code -1} unlimited,
 * {@code 0} none. The wait is {@link Backoff#waitBefore} (Retry-After and min-delay included); a wait that
 * would reach the deadline gives up rather than starting an attempt with no time left.
 *
 * <p>Thread-safe if the {@link RandomGenerator} is.
 */
public final class RetryPolicy {
    private final RetryConfig config;
    private final Backoff backoff;

    public RetryPolicy(RetryConfig config, RandomGenerator random) {
        this.config = Objects.requireNonNull(config, "config");
        this.backoff = Backoff.of(config, random);
    }

    public RetryConfig config() {
        return config;
    }

    /**
     * Decides after an attempt that produced {@code answer}.
     *
     * @param ctx    the attempt just made
     * @param answer what the attempt's answer showed (status 0 = transport error or per-call timeout)
     * @param now    the decision time
     */
    public RetryDecision decide(RetryContext ctx, UpstreamAnswer answer, Instant now) {
        Objects.requireNonNull(ctx, "ctx");
        RetryDecision verdict = classify(ctx, answer.status(), answer.bodyPrefix());
        if (verdict instanceof RetryDecision.Retry retry) {
            return schedule(ctx, retry.reason(), answer.headers(), answer.receivedAt(), now);
        }
        return verdict;
    }

    /** Decides after a transport error or per-call timeout: no response, no headers. */
    public RetryDecision decideTransportError(RetryContext ctx, Instant now) {
        return decide(ctx, UpstreamAnswer.none(now), now);
    }

    /**
     * Decides after the SSE inspector found a recognized early {@code error} / {@code response.failed}
     * frame under HTTP 200. Always retryable; only the budget can stop it.
     */
    public RetryDecision decideErrorUnder200(RetryContext ctx, HeaderLookup headers, Instant receivedAt, Instant now) {
        return schedule(ctx, RetryReason.ERROR_UNDER_200, headers, receivedAt, now);
    }

    /** The retryability of a response alone; a {@code Retry} here carries a zero wait. */
    private RetryDecision classify(RetryContext ctx, int status, byte[] body) {
        if (status == 0) {
            return retry(RetryReason.TRANSPORT_ERROR);
        }
        if (status == 400 && config.stripStaleReasoning() && StaleReasoning.isResourceMismatch(status, body)) {
            return ctx.reasoningStripped()
                    ? new RetryDecision.GiveUp(GiveUpReason.STALE_REASONING_ALREADY_TRIED)
                    : retry(RetryReason.STALE_REASONING);
        }
        boolean serverError = status >= 500 && status <= 599;
        boolean bodyMatched = config.retryStatus().contains(status);
        if (!serverError && status != 429 && !bodyMatched) {
            return new RetryDecision.GiveUp(GiveUpReason.NOT_RETRYABLE);
        }
        if (status == 429 && config.skip429()) {
            return new RetryDecision.GiveUp(GiveUpReason.SKIP_429);
        }
        ErrorSignal signal = ErrorWording.scan(body);
        if (signal == ErrorSignal.INVALID_REQUEST) {
            return new RetryDecision.GiveUp(GiveUpReason.INVALID_REQUEST);
        }
        if (serverError) {
            return retry(RetryReason.SERVER_ERROR);
        }
        if (!bodyMatched) {
            return retry(RetryReason.TOO_MANY_REQUESTS);
        }
        return switch (signal) {
            case RATE_LIMIT_OR_TRANSIENT -> retry(RetryReason.RECOGNIZED_WORDING);
            case NONE, INVALID_REQUEST -> new RetryDecision.GiveUp(GiveUpReason.UNRECOGNIZED_WORDING);
        };
    }

    private RetryDecision schedule(RetryContext ctx, RetryReason reason, HeaderLookup headers,
                                   Instant receivedAt, Instant now) {
        if (!config.enabled()) {
            return new RetryDecision.GiveUp(GiveUpReason.RETRIES_DISABLED);
        }
        if (config.retry() != RetryConfig.UNLIMITED && ctx.attempt() > config.retry()) {
            return new RetryDecision.GiveUp(GiveUpReason.ATTEMPTS_EXHAUSTED);
        }
        // The recovery replays a changed request, not a rate-limited one: no backoff, only the floor.
        Duration wait = reason == RetryReason.STALE_REASONING
                ? backoff.floor(Duration.ZERO)
                : backoff.waitBefore(ctx.attempt(), retryAfter(headers, receivedAt, now));
        if (wait.compareTo(ctx.remaining(now)) >= 0) {
            return new RetryDecision.GiveUp(GiveUpReason.DEADLINE_EXHAUSTED);
        }
        return new RetryDecision.Retry(reason, wait);
    }

    private static Optional<Duration> retryAfter(HeaderLookup headers, Instant receivedAt, Instant now) {
        return headers == null ? Optional.empty() : RetryAfter.remaining(headers, receivedAt, now);
    }

    private static RetryDecision retry(RetryReason reason) {
        return new RetryDecision.Retry(reason, Duration.ZERO);
    }
}
