package shaper.retry;

import java.time.Instant;
import java.util.List;

/**
 * Failure classification for the circuit breaker: status 0, 429 and 500–599 are failures; a 403 is
 * a failure only as a temporary ban (a plain 403 is a bad key, which an open circuit would hide
 * behind {@code 503 circuit open}); other 4xx, 1xx and 3xx say nothing about the upstream's health
 * and are neutral; 2xx is success. Stateless.
 */
public final class UpstreamFailures {
    /**
     * Headers whose mere presence on a 403 marks a rate limit rather than an auth failure: the de-facto
     * {@code X-RateLimit-*} trio and the IETF draft's {@code RateLimit-*} fields.
     */
    public static final List<String> RATE_LIMIT_HEADERS = List.of(
            "x-ratelimit-reset", "x-ratelimit-limit", "x-ratelimit-remaining",
            "ratelimit-reset", "ratelimit-limit", "ratelimit-remaining");

    private UpstreamFailures() {
    }

    /** {@link #classify(int, HeaderLookup, Instant, Instant)} for a decision made as the headers arrive. */
    public static FailureClass classify(int status, HeaderLookup headers, Instant now) {
        return classify(status, headers, now, now);
    }

    /**
     * Classifies one attempt.
     *
     * @param status     the upstream status, or 0 when no response arrived
     * @param headers    the response headers ({@link HeaderLookup#none()} for status 0)
     * @param receivedAt when the headers arrived (anchors a delay-seconds Retry-After)
     * @param now        when the classification is made
     */
    public static FailureClass classify(int status, HeaderLookup headers, Instant receivedAt, Instant now) {
        if (status == 0) {
            return FailureClass.TRANSPORT_ERROR;
        }
        if (status >= 200 && status <= 299) {
            return FailureClass.SUCCESS;
        }
        if (status == 429) {
            return FailureClass.RATE_LIMITED;
        }
        if (status >= 500 && status <= 599) {
            return FailureClass.SERVER_ERROR;
        }
        if (status == 403) {
            return isTemporaryBan(headers, receivedAt, now) ? FailureClass.TEMPORARY_BAN : FailureClass.CLIENT_ERROR;
        }
        if (status >= 400 && status <= 499) {
            return FailureClass.CLIENT_ERROR;
        }
        return FailureClass.NEUTRAL;
    }

    /**
     * True when a 403 carries a rate-limit signal. A rate-limit header decides on its own (even beside a
     * malformed or expired Retry-After); otherwise the Retry-After must still be in effect.
     */
    public static boolean isTemporaryBan(HeaderLookup headers, Instant receivedAt, Instant now) {
        for (String name : RATE_LIMIT_HEADERS) {
            if (headers.has(name)) {
                return true;
            }
        }
        return RetryAfter.inEffect(headers, receivedAt, now);
    }
}
