package shaper.proxy;

import java.time.Duration;

import shaper.observe.EndReason;

/**
 * A failure the proxy answers itself, independent of how it reaches the client: the
 * {@link ClientSink} renders it as an HTTP answer while nothing is committed, or as the last event
 * of a committed stream.
 *
 * @param reason     the exchange's end reason
 * @param status     the HTTP status while nothing is committed
 * @param message    what happened, in words
 * @param anthropic  the Anthropic error type ({@code overloaded_error}, …)
 * @param openai     the OpenAI error type ({@code server_error}, …)
 * @param code       the machine-readable code, or null
 * @param queueWord  the word after {@code : queue-wait failed:} on a queue-comment stream
 * @param retryAfter a {@code Retry-After} worth sending (zero: none)
 * @param body       how the uncommitted answer's body is shaped
 */
public record LocalFailure(EndReason reason, int status, String message, String anthropic, String openai, String code,
                    String queueWord, Duration retryAfter, Body body) {

    /** The shape of an uncommitted answer's body. */
    enum Body {
        /** {@code text/plain}, the message and a newline (Go's {@code http.Error}), whatever the client speaks. */
        PLAIN,
        /** The error object of the client's dialect (a generic JSON error for a path that speaks none). */
        DIALECT,
        /** The error object of the client's dialect; {@code text/plain} for a path that speaks none. */
        DIALECT_OR_PLAIN,
        /** One JSON error both SDKs parse, whatever the path ({@code {"type":"error","error":{...}}}). */
        NEUTRAL
    }

    /** Defined once: the answer for an upstream that could not be reached. */
    public static final LocalFailure UPSTREAM_UNREACHABLE = new LocalFailure(EndReason.UPSTREAM_UNREACHABLE, 502,
            "bad gateway: upstream unreachable", "api_error", "server_error", null, "upstream", Duration.ZERO, Body.PLAIN);

    static final LocalFailure BAD_REDIRECT = new LocalFailure(EndReason.BAD_REDIRECT, 502,
            "bad gateway: upstream redirected outside the proxy", "api_error", "server_error", null, "upstream", Duration.ZERO, Body.PLAIN);

    static final LocalFailure QUEUE_TIMEOUT = new LocalFailure(EndReason.QUEUE_TIMEOUT, 504, "queue timeout", "timeout_error",
            "timeout_error", null, "timeout", Duration.ZERO, Body.PLAIN);

    static final String LIMITER_UNAVAILABLE_TEXT = "concurrency limiter unavailable (shared store unreachable); retry shortly";

    static final LocalFailure LIMITER_UNAVAILABLE = new LocalFailure(EndReason.LIMITER_UNAVAILABLE, 503, LIMITER_UNAVAILABLE_TEXT,
            "overloaded_error", "server_error", "limiter_unavailable", "unavailable", Duration.ofSeconds(1), Body.DIALECT);

    /** The breaker is open: waiting helps, for as long as until its next probe (at least a second). */
    public static LocalFailure circuitOpen(Duration untilProbe) {
        return new LocalFailure(EndReason.CIRCUIT_OPEN, 503, "circuit open", "overloaded_error", "server_error", "circuit_open",
                "upstream", atLeastOneSecond(untilProbe), Body.DIALECT_OR_PLAIN);
    }

    /** A {@code -queue-depth} bound refused the request; a slot frees within about {@code cooldown}. */
    static LocalFailure queueFull(int depth, Duration cooldown) {
        Duration wait = atLeastOneSecond(cooldown);
        return new LocalFailure(EndReason.QUEUE_FULL, 429, "proxy queue is full (" + depth + " requests waiting); retry after "
                + wait.toSeconds() + "s", "rate_limit_error", "rate_limit_error", "queue_full", "queue full", wait, Body.NEUTRAL);
    }

    /** No {@code -model-route} pattern matches the request's model (null: the body names none). */
    static LocalFailure noRoute(String model) {
        String what = model == null ? "the request names no model" : "no route for model " + Json.quote(model);
        return new LocalFailure(EndReason.NO_ROUTE, 404, what + " on this mount", "not_found_error", "invalid_request_error",
                "model_not_found", "no route", Duration.ZERO, Body.DIALECT);
    }

    /** The message on a committed stream: the bare words, without the status-line flavour. */
    String streamMessage() {
        return switch (reason) {
            case UPSTREAM_UNREACHABLE -> "upstream unreachable";
            case QUEUE_FULL -> "proxy queue is full";
            default -> message;
        };
    }

    /** Whole seconds for {@code Retry-After}, rounded up, at least 1. */
    static Duration atLeastOneSecond(Duration d) {
        return Duration.ofSeconds(Math.max(1, (d.toMillis() + 999) / 1000));
    }
}
