package shaper.retry;

/**
 * What one upstream attempt means to the circuit breaker, failure hold and metrics. Computed once per
 * attempt by {@link UpstreamFailures#classify}; callers switch on it instead of re-reading statuses.
 */
public enum FailureClass {
    /** 2xx. Closes a half-open breaker (once the body has fully copied, which the caller knows). */
    SUCCESS(false),
    /** No HTTP response at all: connect, TLS, timeout or reset before headers (status 0). */
    TRANSPORT_ERROR(true),
    /** 429 Too Many Requests. */
    RATE_LIMITED(true),
    /** 500–599. */
    SERVER_ERROR(true),
    /** 403 carrying a rate-limit signal: a live Retry-After or an {@code x-ratelimit-*} / {@code ratelimit-*} header. */
    TEMPORARY_BAN(true),
    /** A 2xx whose body or stream broke the wire contract a transcoded route reads (or the wrong one of stream and JSON). */
    BODY_ERROR(true),
    /** Any other 4xx, including a bare 403, so a bad key is never masked by a breaker 503. */
    CLIENT_ERROR(false),
    /** 1xx and 3xx: neither success nor failure. */
    NEUTRAL(false);

    private final boolean upstreamFailure;

    FailureClass(boolean upstreamFailure) {
        this.upstreamFailure = upstreamFailure;
    }

    /** True when the attempt counts against the breaker and triggers the failure hold. */
    public boolean isUpstreamFailure() {
        return upstreamFailure;
    }

    /** True only for {@link #SUCCESS}. */
    public boolean isSuccess() {
        return this == SUCCESS;
    }
}
