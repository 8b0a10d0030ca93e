package shaper.proxy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/**
 * The proxy's own answers, with the original tool's statuses and texts. Plain-text bodies end in a
 * newline like Go's {@code http.Error}; the queue-full body is JSON that both Anthropic and OpenAI
 * SDKs parse as a rate-limit error.
 */
public final class LocalAnswers {
    public static final String BAD_GATEWAY = "bad gateway: upstream unreachable\n";
    static final String QUEUE_TIMEOUT = "queue timeout\n";
    public static final String CIRCUIT_OPEN = "circuit open\n";
    static final String LIMITER_UNAVAILABLE = "concurrency limiter unavailable (shared store unreachable); retry shortly";

    private LocalAnswers() {
    }

    static void text(ServerResponse res, Status status, String body) {
        res.status(status).header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).header(HeaderValues.create("X-Content-Type-Options", "nosniff"))
                .send(body.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code 429} for a full queue: {@code Retry-After} in whole seconds and a dialect-neutral JSON error. */
    static void queueFull(ServerResponse res, int waiters, Duration retryAfter) {
        long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
        String body = "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"code\":\"queue_full\",\"message\":"
                + "\"proxy queue is full (" + waiters + " requests waiting); retry after " + seconds + "s\"}}";
        res.status(Status.TOO_MANY_REQUESTS_429)
                .header(HeaderValues.CONTENT_TYPE_JSON)
                .header(HeaderNames.RETRY_AFTER, Long.toString(seconds))
                .send(body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code 503} when a cluster limiter fails closed: the error object of the client's dialect
     * (Anthropic {@code overloaded_error}, OpenAI {@code server_error}), with a short Retry-After.
     */
    static void limiterUnavailable(ServerResponse res, Dialect dialect) {
        String body = switch (dialect) {
            case MESSAGES -> "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"" + LIMITER_UNAVAILABLE + "\"}}";
            case CHAT, RESPONSES -> "{\"error\":{\"type\":\"server_error\",\"code\":\"limiter_unavailable\",\"message\":\""
                    + LIMITER_UNAVAILABLE + "\"}}";
            case OTHER -> "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"code\":\"limiter_unavailable\",\"message\":\""
                    + LIMITER_UNAVAILABLE + "\"}}";
        };
        res.status(Status.SERVICE_UNAVAILABLE_503)
                .header(HeaderValues.CONTENT_TYPE_JSON)
                .header(HeaderNames.RETRY_AFTER, "1")
                .send(body.getBytes(StandardCharsets.UTF_8));
    }
}
