package shaper.proxy;

import java.util.Objects;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import shaper.limit.QueueClass;
import shaper.limit.QueueClient;
import shaper.limit.QueuePlace;

/**
 * One model call as the request path sees it, whatever transport started it: built once by
 * {@link Intake} and read, never changed, by every later stage (route, admission, attempts, relay,
 * settlement). Nothing here is tied to the listener's request type, so anything that can say what
 * was asked (an HTTP request, one message of a long-lived connection) can start an exchange.
 *
 * @param id         the journal's id of this exchange (its line in the log, its row in the dashboard)
 * @param method     the request method, as sent
 * @param path       the raw path after the provider's mount prefix: what routes are classified by,
 *                   what is logged and what is sent upstream
 * @param query      the raw query, empty when none
 * @param headers    the client's request header fields, as received
 * @param coding     the body's {@code Content-Encoding} and its one decoded view
 * @param acceptsEventStream the client's {@code Accept} names {@code text/event-stream}: the stream intent the head
 *                   states (whether the body asks for a stream is read only when a stage needs it,
 *                   {@link StreamFlag#isTrue(byte[], shaper.codec.ContentCodings)})
 * @param priority   the priority class the request queues in ({@link QueueClass#DEFAULT} without classes)
 * @param client     who asks: the identity {@code -client-id} found ({@code shaper.clients.ClientIdentity}) and its
 *                   policy; {@link QueueClient#ANONYMOUS} when no source named one
 * @param costBytes  what the large-request gate judges: the body's length, decoded when coded; -1 when unknown
 */
public record Exchange(long id, String method, String path, String query, Headers headers, RequestCoding coding,
                       boolean acceptsEventStream, QueueClass priority, QueueClient client, long costBytes) {
    public Exchange {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        query = query == null ? "" : query;
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(coding, "coding");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(client, "client");
    }

    /** Where it queues in every limiter: its priority class's lane, its client's line. */
    QueuePlace place() {
        return new QueuePlace(priority, client);
    }

    /** The declared {@code Content-Length}, -1 when none (chunked or no body). */
    long declaredLength() {
        return headers.contentLength().orElse(-1L);
    }

    /** The wire the client speaks, judged from its path. */
    Dialect dialect() {
        return Dialect.of(path);
    }

    /** Whether {@code headers} accept an event stream; looked for in place (every request asks, most have no Accept). */
    static boolean acceptsEventStream(Headers headers) {
        if (!headers.contains(HeaderNames.ACCEPT)) {
            return false;
        }
        String accept = headers.get(HeaderNames.ACCEPT).get();
        String type = "text/event-stream";
        for (int i = 0; i + type.length() <= accept.length(); i++) {
            if (accept.regionMatches(true, i, type, 0, type.length())) {
                return true;
            }
        }
        return false;
    }
}
