package shaper.probe;

import java.nio.charset.StandardCharsets;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/** Sends a complete JSON response with a Content-Length, the way every non-streaming fixture answers. */
final class JsonReply {
    private JsonReply() {
    }

    static void send(ServerResponse res, int status, String json) {
        res.status(Status.create(status));
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        res.header(HeaderValues.create(HeaderNames.create("request-id"), MessagesReply.newId("req_")));
        res.send(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The 404 an OpenAI-style server gives a route it does not serve, in OpenAI's error envelope. */
    static void noSuchRoute(ServerResponse res, ProbeRequest r) {
        send(res, 404, "{\"error\":{\"message\":\"no such route: " + r.method().text() + " " + r.remainder()
                + "\",\"type\":\"invalid_request_error\",\"code\":\"not_found\"}}");
    }
}
