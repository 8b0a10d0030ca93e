package shaper.server;

import java.nio.charset.StandardCharsets;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;

/**
 * Helidon's answer to input it could not even route: a malformed request line, header or
 * framing. Each such answer is an exchange like any other local answer: one record, one log line,
 * counted ({@link MountTable#refusedByListener}). Helidon reports some malformed requests (a
 * method with characters outside the HTTP token set, non-ASCII or control bytes) as an internal
 * error: {@code 500} and an 18-line stack trace per request, so any client could flood the log.
 * Nothing had been parsed, so it is the client's input: {@code 400}, the connection closed.
 * Internal errors of a request that was routed keep Helidon's {@code 500}, unrecorded here: the
 * route already recorded its exchange.
 */
final class BadInputAnswer implements DirectHandler {
    static final String BODY = "bad request\n";

    private final MountTable table;

    BadInputAnswer(MountTable table) {
        this.table = table;
    }

    /** The listener's direct handlers: this one for every event Helidon answers without routing. */
    static DirectHandlers forEveryEvent(MountTable table) {
        BadInputAnswer answer = new BadInputAnswer(table);
        DirectHandlers.Builder handlers = DirectHandlers.builder();
        for (EventType type : EventType.values()) {
            handlers.addHandler(type, answer);
        }
        return handlers.build();
    }

    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status defaultStatus,
                                    ServerResponseHeaders responseHeaders, String message) {
        // Helidon passes its empty request when the failure came before anything was parsed.
        boolean nothingParsed = request == TransportRequest.empty();
        if (eventType == EventType.INTERNAL_ERROR && !nothingParsed) {
            return DirectHandler.defaultHandler().handle(request, eventType, defaultStatus, responseHeaders, message);
        }
        TransportResponse answer = eventType != EventType.INTERNAL_ERROR
                ? DirectHandler.defaultHandler().handle(request, eventType, defaultStatus, responseHeaders, message)
                : TransportResponse.builder()
                        .status(Status.BAD_REQUEST_400)
                        .headers(responseHeaders)
                        .header(HeaderNames.CONTENT_TYPE, "text/plain")
                        .keepAlive(false)
                        .entity(BODY.getBytes(StandardCharsets.US_ASCII))
                        .build();
        String method = nothingParsed || request.method() == null || request.method().isEmpty() ? "-" : request.method();
        String path = nothingParsed || request.path() == null ? "" : request.path();
        table.refusedByListener(method, path, answer.status().code());
        return answer;
    }
}
