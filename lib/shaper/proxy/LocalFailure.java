package shaper.proxy;

import java.time.Duration;

import shaper.config.GoDuration;
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

    /**
     * The upstream could not be reached: the cause in words and the upstream it was (base URL, no
     * query), so the client's error says what to fix ({@code upstream unreachable: connection refused (http://127.0.0.1:15799)}).
     */
    public static LocalFailure unreachable(String cause, String upstream) {
        return new LocalFailure(EndReason.UPSTREAM_UNREACHABLE, 502, "upstream unreachable: " + cause + " (" + upstream + ")",
                "api_error", "server_error", "upstream_unreachable", "upstream", Duration.ZERO, Body.DIALECT_OR_PLAIN);
    }

    /** The upstream redirected to a place the provider does not serve; {@code upstream} is the provider's {@code -upstream}. */
    static LocalFailure badRedirect(String upstream) {
        return new LocalFailure(EndReason.BAD_REDIRECT, 502, "upstream redirected outside " + upstream + " (-upstream); not followed",
                "api_error", "server_error", "bad_redirect", "upstream", Duration.ZERO, Body.DIALECT_OR_PLAIN);
    }

    /**
     * The request waited its whole {@code -queue-timeout} for a slot, or the proxy is stopping and
     * admits no one who still waits.
     */
    static LocalFailure queueTimeout(Duration timeout, boolean stopping) {
        String message = stopping ? "the proxy is stopping: requests still queued are not admitted"
                : "queue timeout after " + GoDuration.format(timeout) + " (-queue-timeout)";
        return new LocalFailure(EndReason.QUEUE_TIMEOUT, 504, message, "timeout_error", "timeout_error", stopping ? "proxy_stopping" : "queue_timeout",
                "timeout", Duration.ZERO, Body.DIALECT_OR_PLAIN);
    }

    /** No {@code -prefix} mount leads {@code path}: Go's plain {@code 404 page not found} where the path speaks no API. */
    public static LocalFailure notMounted(String path) {
        return new LocalFailure(EndReason.NOT_MOUNTED, 404, "no provider is mounted at " + path + " (see -prefix and /__shaper/health)",
                "not_found_error", "not_found_error", "not_mounted", "not found", Duration.ZERO, Body.DIALECT_OR_PLAIN);
    }

    static final String LIMITER_UNAVAILABLE_TEXT = "concurrency limiter unavailable (shared store unreachable); retry shortly";

    static final LocalFailure LIMITER_UNAVAILABLE = new LocalFailure(EndReason.LIMITER_UNAVAILABLE, 503, LIMITER_UNAVAILABLE_TEXT,
            "overloaded_error", "server_error", "limiter_unavailable", "unavailable", Duration.ofSeconds(1), Body.DIALECT);

    /** The breaker is open: waiting helps, for as long as until its next probe (at least a second). */
    public static LocalFailure circuitOpen(Duration untilProbe) {
        return circuitOpen(untilProbe, java.util.Optional.empty());
    }

    /**
     * The breaker is open. When the failures that opened it were transport errors ({@code unreachable}
     * holds the last one in words), nothing was overloaded: the answer says the upstream cannot be
     * reached, with {@code api_error}, so no client reads it as the provider being busy.
     */
    public static LocalFailure circuitOpen(Duration untilProbe, java.util.Optional<String> unreachable) {
        Duration wait = atLeastOneSecond(untilProbe);
        if (unreachable.isPresent()) {
            return new LocalFailure(EndReason.CIRCUIT_OPEN, 503, "circuit open: " + unreachable.get() + "; next try in " + wait.toSeconds()
                    + "s (-cb-open-timeout)", "api_error", "server_error", "circuit_open", "upstream", wait, Body.DIALECT_OR_PLAIN);
        }
        return new LocalFailure(EndReason.CIRCUIT_OPEN, 503, "circuit open", "overloaded_error", "server_error", "circuit_open",
                "upstream", wait, Body.DIALECT_OR_PLAIN);
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
            case QUEUE_FULL -> "proxy queue is full";
            default -> message;
        };
    }

    /** Whole seconds for {@code Retry-After}, rounded up, at least 1. */
    static Duration atLeastOneSecond(Duration d) {
        return Duration.ofSeconds(Math.max(1, (d.toMillis() + 999) / 1000));
    }

    /** The body in {@code path}'s dialect when it speaks one (or this failure always takes JSON), else empty for plain text. */
    public java.util.Optional<String> jsonAt(String path) {
        Dialect d = Dialect.of(path);
        return plainFor(d) ? java.util.Optional.empty() : java.util.Optional.of(json(d));
    }

    /** True when the uncommitted answer is {@code text/plain} for a client of dialect {@code d}. */
    boolean plainFor(Dialect d) {
        return body == Body.PLAIN || (body == Body.DIALECT_OR_PLAIN && d == Dialect.OTHER);
    }

    /** The error object of dialect {@code d}. */
    String json(Dialect dialect) {
        String c = code == null ? "" : "\"code\":" + Json.quote(code) + ",";
        String m = "\"message\":" + Json.quote(message);
        Dialect d = body == Body.NEUTRAL ? Dialect.OTHER : dialect;
        return switch (d) {
            case MESSAGES -> "{\"type\":\"error\",\"error\":{\"type\":" + Json.quote(anthropic) + "," + m + "}}";
            case CHAT, RESPONSES -> "{\"error\":{\"type\":" + Json.quote(openai) + "," + c + m + "}}";
            case OTHER -> "{\"type\":\"error\",\"error\":{\"type\":" + Json.quote(anthropic) + "," + c + m + "}}";
        };
    }
}
