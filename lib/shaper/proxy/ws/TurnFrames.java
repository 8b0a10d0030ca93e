package shaper.proxy.ws;

import java.io.IOException;
import java.time.Duration;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The few fields of the Responses WebSocket protocol the proxy reads, and the one event it writes.
 * A client message is a JSON object whose {@code type} says what it asks ({@code response.create}
 * carries a Responses request body's fields; {@code "generate": false} makes it a prewarm that
 * generates nothing); an upstream message is one event of a streamed Responses answer, or an
 * {@code error} event whose {@code status} and {@code headers} stand for an HTTP answer. Pure.
 */
final class TurnFrames {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FACTORY = JSON.getFactory();

    /** Events that end a turn besides an {@code error} event. */
    static final String COMPLETED = "response.completed";
    static final String FAILED = "response.failed";
    static final String INCOMPLETE = "response.incomplete";

    private TurnFrames() {
    }

    /** What a client message asks: its {@code type}, and whether it makes the upstream generate. */
    record Request(String type, boolean generating) {
    }

    /**
     * Reads a client message.
     *
     * @throws IOException when it is not a JSON object with a string {@code type}
     */
    static Request request(String text) throws IOException {
        JsonNode node = JSON.readTree(text);
        if (node == null || !node.isObject() || !node.path("type").isTextual()) {
            throw new IOException("a message must be a JSON object with a \"type\"");
        }
        String type = node.get("type").asText();
        JsonNode generate = node.get("generate");
        boolean generating = type.equals("response.create") && !(generate != null && generate.isBoolean() && !generate.asBoolean());
        return new Request(type, generating);
    }

    /**
     * The top-level {@code type} of an upstream event, read with a streaming parser that stops there
     * (it is the first field of every event, so a long event is not walked); empty when there is none.
     */
    static String type(String event) {
        try (JsonParser p = FACTORY.createParser(event)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return "";
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("type")) {
                    return value == JsonToken.VALUE_STRING ? p.getText() : "";
                }
                p.skipChildren();
            }
        } catch (IOException e) {
            return "";
        }
        return "";
    }

    /** An {@code error} event's HTTP status (0 when it names none) and {@code retry-after} (zero when none). */
    record Error(int status, Duration retryAfter) {
    }

    static Error error(String event) {
        try {
            JsonNode node = JSON.readTree(event);
            int status = node.path("status").asInt(node.path("status_code").asInt(0));
            JsonNode after = node.path("headers").path("retry-after");
            long seconds = after.isNumber() ? after.asLong() : after.isTextual() ? parseSeconds(after.asText()) : 0;
            return new Error(status, Duration.ofSeconds(Math.max(0, seconds)));
        } catch (IOException e) {
            return new Error(0, Duration.ZERO);
        }
    }

    private static long parseSeconds(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * The proxy's own refusal, in the shape the client reads as an HTTP answer:
     * {@code {"type":"error","status":429,"error":{"type":…,"code":…,"message":…},"headers":{"retry-after":"1"}}}.
     *
     * @param code       the error's code, or null for none
     * @param retryAfter zero for no {@code retry-after}
     */
    static String errorEvent(int status, String type, String code, String message, Duration retryAfter) {
        ObjectNode event = JSON.createObjectNode();
        event.put("type", "error");
        event.put("status", status);
        ObjectNode error = event.putObject("error");
        error.put("type", type);
        if (code != null) {
            error.put("code", code);
        }
        error.put("message", message);
        ObjectNode headers = event.putObject("headers");
        if (retryAfter.isPositive()) {
            headers.put("retry-after", Long.toString(retryAfter.toSeconds()));
        }
        return event.toString();
    }
}
