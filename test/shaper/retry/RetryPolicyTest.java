package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    static final String ANTHROPIC_OVERLOADED = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
    static final String ANTHROPIC_RATE_LIMIT = "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":"
            + "\"This request would exceed your organization's rate limit of 50,000 input tokens per minute.\"}}";
    static final String OPENAI_RATE_LIMIT = "{\"error\":{\"message\":\"Rate limit reached for gpt-4o in organization org-abc "
            + "on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.\",\"type\":\"requests\","
            + "\"param\":null,\"code\":\"rate_limit_exceeded\"}}";
    static final String OPENAI_INSUFFICIENT_QUOTA = "{\"error\":{\"message\":\"You exceeded your current quota, please check "
            + "your plan and billing details.\",\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota\"}}";
    static final String BRIDGE_UNAVAILABLE_422 = "{\"error\":{\"message\":\"Upstream service unavailable\",\"type\":\"upstream_error\"}}";
    static final String FORMAT_422 = "{\"detail\":[{\"loc\":[\"body\",\"messages\",0,\"content\"],\"msg\":\"field required\","
            + "\"type\":\"value_error.missing\"}]}";
    static final String ANTHROPIC_INVALID = "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
            + "\"message\":\"messages.1.content.0.tool_use.input: Input should be a valid dictionary\"}}";
    static final String REJECTED_502 = "{\"error\":{\"message\":\"The upstream provider rejected the request as invalid\",\"type\":\"bad_gateway\"}}";
    static final String HIGH_DEMAND = "{\"error\":{\"message\":\"We're currently experiencing high demand, which may cause temporary errors.\"}}";
    static final String QUOTA = "{\"error\":{\"code\":429,\"message\":\"Quota exceeded for quota metric 'Generate Content API requests per minute'\",\"status\":\"RESOURCE_EXHAUSTED\"}}";
    static final String FAILED_BEFORE_OUTPUT = "{\"error\":{\"message\":\"stream failed before output\",\"type\":\"server_error\"}}";
    static final String TOO_MANY = "{\"error\":{\"code\":\"too_many_requests\",\"message\":\"slow down\"}}";
    static final String ENCRYPTED_MISMATCH = "{\"error\":{\"message\":\"The encrypted content for item rs_0a18166210d72b5e could not be verified. "
            + "Reason: Encrypted content could not be decrypted or parsed.\",\"type\":\"invalid_request_error\",\"param\":null,"
            + "\"code\":\"invalid_encrypted_content\"}}";

    private static final Instant T0 = Instant.parse("2025-06-01T12:00:00Z");

    private static RetryPolicy policy(RetryConfig.Builder b) {
        return new RetryPolicy(b.build(), new Random(1));
    }

    private static RetryDecision decide(RetryPolicy p, int status, String body) {
        return p.decide(RetryContext.first(p.config(), T0), new UpstreamAnswer(status, HeaderLookup.of("Content-Type", "application/json"), body.getBytes(StandardCharsets.UTF_8), T0), T0);
    }

    private static RetryReason retried(RetryDecision d) {
        return assertInstanceOf(RetryDecision.Retry.class, d, d::toString).reason();
    }

    private static GiveUpReason gaveUp(RetryDecision d) {
        return assertInstanceOf(RetryDecision.GiveUp.class, d, d::toString).reason();
    }

    @Test
    void transportErrorIsRetriedEvenOnTheFirstAttempt() {
        RetryPolicy p = policy(RetryConfig.builder());
        RetryDecision d = p.decideTransportError(RetryContext.first(p.config(), T0), T0);
        assertEquals(RetryReason.TRANSPORT_ERROR, retried(d));
    }

    @Test
    void serverErrorsAreRetried() {
        RetryPolicy p = policy(RetryConfig.builder());
        assertEquals(RetryReason.SERVER_ERROR, retried(decide(p, 529, ANTHROPIC_OVERLOADED)));
        assertEquals(RetryReason.SERVER_ERROR, retried(decide(p, 500, "")));
        for (int s : new int[] {502, 503, 504}) {
            assertEquals(RetryReason.SERVER_ERROR, retried(decide(p, s, "<html>Bad Gateway</html>")), "status " + s);
        }
    }

    @Test
    void gatewayErrorMarkingAnInvalidRequestIsNotRetried() {
        RetryPolicy p = policy(RetryConfig.builder());
        assertEquals(GiveUpReason.INVALID_REQUEST, gaveUp(decide(p, 502, REJECTED_502)));
        assertEquals(GiveUpReason.INVALID_REQUEST, gaveUp(decide(p, 503,
                "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"overloaded? no: bad tool schema\"}}")));
    }

    @Test
    void tooManyRequestsIsNotRetriedByDefault() {
        RetryPolicy p = policy(RetryConfig.builder());
        assertEquals(GiveUpReason.SKIP_429, gaveUp(decide(p, 429, OPENAI_RATE_LIMIT)));
        assertEquals(GiveUpReason.SKIP_429, gaveUp(decide(p, 429, ANTHROPIC_RATE_LIMIT)));
    }

    @Test
    void tooManyRequestsInRetryStatusNeedsRecognizedWording() {
        RetryPolicy p = policy(RetryConfig.builder().skip429(false));
        assertEquals(RetryReason.RECOGNIZED_WORDING, retried(decide(p, 429, OPENAI_RATE_LIMIT)));
        assertEquals(RetryReason.RECOGNIZED_WORDING, retried(decide(p, 429, ANTHROPIC_RATE_LIMIT)));
        assertEquals(RetryReason.RECOGNIZED_WORDING, retried(decide(p, 429, TOO_MANY)));
        assertEquals(GiveUpReason.UNRECOGNIZED_WORDING, gaveUp(decide(p, 429, OPENAI_INSUFFICIENT_QUOTA)));
        assertEquals(GiveUpReason.UNRECOGNIZED_WORDING, gaveUp(decide(p, 429, "")));
    }

    @Test
    void tooManyRequestsOutsideRetryStatusIsRetriedOnStatusAlone() {
        RetryPolicy p = policy(RetryConfig.builder().skip429(false).retryStatus(Set.of(422)));
        assertEquals(RetryReason.TOO_MANY_REQUESTS, retried(decide(p, 429, "")));
        assertEquals(GiveUpReason.INVALID_REQUEST, gaveUp(decide(p, 429, ANTHROPIC_INVALID)));
    }

    @Test
    void unprocessableWithRecognizedWordingIsRetried() {
        RetryPolicy p = policy(RetryConfig.builder());
        for (String body : new String[] {BRIDGE_UNAVAILABLE_422, ANTHROPIC_OVERLOADED, OPENAI_RATE_LIMIT, HIGH_DEMAND,
                QUOTA, FAILED_BEFORE_OUTPUT, TOO_MANY, "UPSTREAM SERVICE UNAVAILABLE"}) {
            assertEquals(RetryReason.RECOGNIZED_WORDING, retried(decide(p, 422, body)), body);
        }
    }

    @Test
    void unprocessableFormatErrorIsNotRetried() {
        RetryPolicy p = policy(RetryConfig.builder());
        assertEquals(GiveUpReason.UNRECOGNIZED_WORDING, gaveUp(decide(p, 422, FORMAT_422)));
        assertEquals(GiveUpReason.INVALID_REQUEST, gaveUp(decide(p, 422, ANTHROPIC_INVALID)));
    }

    @Test
    void invalidRequestWordingWinsOverRateLimitWording() {
        RetryPolicy p = policy(RetryConfig.builder());
        String both = "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"rate limit field must be an integer\"}}";
        assertEquals(GiveUpReason.INVALID_REQUEST, gaveUp(decide(p, 422, both)));
        assertEquals(GiveUpReason.INVALID_REQUEST, gaveUp(decide(p, 422, "Overloaded; the proxy rejected the request as invalid")));
    }

    @Test
    void otherClientErrorsAreNeverRetried() {
        RetryPolicy p = policy(RetryConfig.builder().skip429(false));
        for (int s : new int[] {400, 401, 404, 409, 413}) {
            assertEquals(GiveUpReason.NOT_RETRYABLE, gaveUp(decide(p, s, ANTHROPIC_OVERLOADED)), "status " + s);
        }
    }

    @Test
    void forbiddenIsNeverRetriedEvenAsATemporaryBan() {
        RetryPolicy p = policy(RetryConfig.builder().skip429(false));
        RetryDecision d = p.decide(RetryContext.first(p.config(), T0), new UpstreamAnswer(403, HeaderLookup.of("Retry-After", "30", "x-ratelimit-remaining", "0"), "{\"error\":{\"message\":\"rate limit\"}}".getBytes(StandardCharsets.UTF_8), T0), T0);
        assertEquals(GiveUpReason.NOT_RETRYABLE, gaveUp(d));
    }

    @Test
    void successAndRedirectsAreNotRetried() {
        RetryPolicy p = policy(RetryConfig.builder());
        assertEquals(GiveUpReason.NOT_RETRYABLE, gaveUp(decide(p, 200, ANTHROPIC_OVERLOADED)));
        assertEquals(GiveUpReason.NOT_RETRYABLE, gaveUp(decide(p, 307, "")));
    }

    @Test
    void configuredRetryStatusIsBodyMatchedToo() {
        RetryPolicy p = policy(RetryConfig.builder().retryStatus(Set.of(400, 422)));
        assertEquals(RetryReason.RECOGNIZED_WORDING, retried(decide(p, 400, ANTHROPIC_OVERLOADED)));
        assertEquals(GiveUpReason.NOT_RETRYABLE, gaveUp(policy(RetryConfig.builder().retryStatus(Set.of()))
                .decide(RetryContext.first(RetryConfig.DEFAULTS, T0), new UpstreamAnswer(422, HeaderLookup.none(), BRIDGE_UNAVAILABLE_422.getBytes(StandardCharsets.UTF_8), T0), T0)));
    }

    @Test
    void onlyTheFirstSixteenKibOfTheBodyIsRead() {
        RetryPolicy p = policy(RetryConfig.builder());
        String late = " ".repeat(ErrorWording.MAX_SCAN_BYTES) + "Overloaded";
        assertEquals(GiveUpReason.UNRECOGNIZED_WORDING, gaveUp(decide(p, 422, late)));
    }

    @Test
    void retryZeroDisablesEveryRetry() {
        RetryPolicy p = policy(RetryConfig.builder().retry(0));
        assertEquals(GiveUpReason.RETRIES_DISABLED, gaveUp(decide(p, 503, "")));
        assertTrue(GiveUpReason.RETRIES_DISABLED.budgetExhausted());
        assertFalse(GiveUpReason.SKIP_429.budgetExhausted());
    }

    @Test
    void retryNAllowsNPlusOneCalls() {
        RetryPolicy p = policy(RetryConfig.builder().retry(2));
        RetryContext ctx = RetryContext.first(p.config(), T0);
        RetryDecision first = p.decideTransportError(ctx, T0);
        ctx = ctx.next(assertInstanceOf(RetryDecision.Retry.class, first));
        RetryDecision second = p.decideTransportError(ctx, T0);
        ctx = ctx.next(assertInstanceOf(RetryDecision.Retry.class, second));
        assertEquals(3, ctx.attempt());
        assertEquals(GiveUpReason.ATTEMPTS_EXHAUSTED, gaveUp(p.decideTransportError(ctx, T0)));
        assertTrue(GiveUpReason.ATTEMPTS_EXHAUSTED.budgetExhausted());
    }

    @Test
    void unlimitedRetriesAreBoundedByTheDeadlineOnly() {
        RetryPolicy p = policy(RetryConfig.builder());
        RetryContext late = new RetryContext(10_000, T0.plus(Duration.ofMinutes(5)), false);
        assertEquals(RetryReason.TRANSPORT_ERROR, retried(p.decideTransportError(late, T0)));
        assertEquals(GiveUpReason.DEADLINE_EXHAUSTED, gaveUp(p.decideTransportError(late, T0.plus(Duration.ofMinutes(5)))));
    }

    @Test
    void waitsGrowExponentiallyWithinJitterAndAboveTheFloor() {
        RetryPolicy p = policy(RetryConfig.builder().minDelay(Duration.ZERO));
        for (int attempt = 1; attempt <= 8; attempt++) {
            RetryContext ctx = new RetryContext(attempt, T0.plus(Duration.ofMinutes(5)), false);
            Duration wait = assertInstanceOf(RetryDecision.Retry.class, p.decideTransportError(ctx, T0)).delay();
            long base = Math.min(500L << (attempt - 1), 30_000);
            assertTrue(wait.toMillis() >= Math.max(500, base * 3 / 4) && wait.toMillis() <= Math.min(30_000, base * 5 / 4),
                    "attempt " + attempt + ": " + wait);
        }
        RetryPolicy floored = policy(RetryConfig.builder());
        Duration first = assertInstanceOf(RetryDecision.Retry.class,
                floored.decideTransportError(RetryContext.first(floored.config(), T0), T0)).delay();
        assertEquals(Duration.ofSeconds(1), first, "-retry-min-delay 1s floors the first 500ms step");
    }

    @Test
    void retryAfterSetsAMinimumWaitBeyondWaitMax() {
        RetryPolicy p = policy(RetryConfig.builder().skip429(false).retryStatus(Set.of()));
        RetryDecision d = p.decide(RetryContext.first(p.config(), T0), new UpstreamAnswer(429, HeaderLookup.of("Retry-After", "90"), new byte[0], T0), T0);
        assertEquals(new RetryDecision.Retry(RetryReason.TOO_MANY_REQUESTS, Duration.ofSeconds(90)), d);
    }

    @Test
    void retryAfterBeyondTheDeadlineGivesUp() {
        RetryPolicy p = policy(RetryConfig.builder());
        RetryDecision d = p.decide(RetryContext.first(p.config(), T0), new UpstreamAnswer(503, HeaderLookup.of("Retry-After", "600"), new byte[0], T0), T0);
        assertEquals(GiveUpReason.DEADLINE_EXHAUSTED, gaveUp(d));
        assertTrue(GiveUpReason.DEADLINE_EXHAUSTED.budgetExhausted());
    }

    @Test
    void retryAfterIsMeasuredFromWhenHeadersArrived() {
        RetryPolicy p = policy(RetryConfig.builder().minDelay(Duration.ZERO).waitMin(Duration.ZERO));
        RetryDecision d = p.decide(RetryContext.first(p.config(), T0), new UpstreamAnswer(503, HeaderLookup.of("Retry-After", "20"), new byte[0], T0), T0.plusSeconds(5));
        assertEquals(Duration.ofSeconds(15), assertInstanceOf(RetryDecision.Retry.class, d).delay());
    }

    @Test
    void staleReasoningMismatchIsRecoveredOnceWithoutBackoff() {
        RetryPolicy p = policy(RetryConfig.builder());
        RetryContext ctx = RetryContext.first(p.config(), T0);
        RetryDecision first = p.decide(ctx, new UpstreamAnswer(400, HeaderLookup.none(), ENCRYPTED_MISMATCH.getBytes(StandardCharsets.UTF_8), T0), T0);
        RetryDecision.Retry retry = assertInstanceOf(RetryDecision.Retry.class, first);
        assertEquals(new RetryDecision.Retry(RetryReason.STALE_REASONING, Duration.ofSeconds(1)), retry);
        RetryContext next = ctx.next(retry);
        assertTrue(next.reasoningStripped());
        RetryDecision again = p.decide(next, new UpstreamAnswer(400, HeaderLookup.none(), ENCRYPTED_MISMATCH.getBytes(StandardCharsets.UTF_8), T0), T0);
        assertEquals(GiveUpReason.STALE_REASONING_ALREADY_TRIED, gaveUp(again));
    }

    @Test
    void staleReasoningRecoveryCanBeSwitchedOffAndCountsAsAnAttempt() {
        assertEquals(GiveUpReason.INVALID_REQUEST,
                gaveUp(decide(policy(RetryConfig.builder().stripStaleReasoning(false).retryStatus(Set.of(400))), 400, ENCRYPTED_MISMATCH)));
        assertEquals(GiveUpReason.NOT_RETRYABLE, gaveUp(decide(policy(RetryConfig.builder().stripStaleReasoning(false)), 400, ENCRYPTED_MISMATCH)));
        assertEquals(GiveUpReason.RETRIES_DISABLED, gaveUp(decide(policy(RetryConfig.builder().retry(0)), 400, ENCRYPTED_MISMATCH)));
    }

    @Test
    void plainBadRequestIsNotAReasoningMismatch() {
        assertEquals(GiveUpReason.NOT_RETRYABLE, gaveUp(decide(policy(RetryConfig.builder()), 400, ANTHROPIC_INVALID)));
    }

    @Test
    void errorUnderTwoHundredIsRetriedWithinBudget() {
        RetryPolicy p = policy(RetryConfig.builder().retry(1));
        RetryContext ctx = RetryContext.first(p.config(), T0);
        RetryDecision d = p.decideErrorUnder200(ctx, HeaderLookup.of("Content-Type", "text/event-stream"), T0, T0);
        RetryDecision.Retry r = assertInstanceOf(RetryDecision.Retry.class, d);
        assertEquals(RetryReason.ERROR_UNDER_200, r.reason());
        assertEquals(GiveUpReason.ATTEMPTS_EXHAUSTED, gaveUp(p.decideErrorUnder200(ctx.next(r), HeaderLookup.none(), T0, T0)));
    }
}
