package shaper.server;

import java.nio.charset.StandardCharsets;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;

/**
 * Helidon's answer to input it could not even parse, before any routing. Helidon reports some
 * malformed requests (a method with characters outside the HTTP token set, non-ASCII or control
 * bytes) as an internal error: {@code 500} and an 18-line stack trace per request, so any client
 * could flood the log. Nothing had been parsed, so it is the client's input: {@code 400}, the
 * connection closed, no log line. Internal errors of a request that was parsed keep Helidon's
 * {@code 500}.
 */
final class BadInputAnswer implements DirectHandler {
    static final String BODY = "bad request\n";

    @Override
    public TransportResponse handle(TransportRequest request, EventType eventType, Status defaultStatus,
                                    ServerResponseHeaders responseHeaders, String message) {
        // Helidon passes its empty request when the failure came before anything was parsed.
        boolean nothingParsed = request == TransportRequest.empty();
        if (eventType != EventType.INTERNAL_ERROR || !nothingParsed) {
            return DirectHandler.defaultHandler().handle(request, eventType, defaultStatus, responseHeaders, message);
        }
        return TransportResponse.builder()
                .status(Status.BAD_REQUEST_400)
                .headers(responseHeaders)
                .header(HeaderNames.CONTENT_TYPE, "text/plain")
                .keepAlive(false)
                .entity(BODY.getBytes(StandardCharsets.US_ASCII))
                .build();
    }
}
