package shaper.sse;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the fields of one frame's JSON data that the inspector needs, across the three error envelopes:
 * Anthropic {@code {"type":"error","error":{"type","message"}}}, OpenAI Responses
 * {@code {"type":"error","code","message"}} and {@code {"type":"response.failed","response":{"error":{"code","message"}}}},
 * and Chat Completions {@code {"error":{"message","type","code"}}}.
 */
final class EarlyError {
    /** Upstream messages are cut here: they end up in logs and synthesized error events. */
    static final int MAX_MESSAGE_CHARS = 1000;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param type           the data's {@code type} member, or null
     * @param hasErrorMember the data is an object with a non-null {@code error} member
     * @param message        the best error message found, else the raw data (bounded); never null
     * @param errorType      the error's type or code, or null
     */
    record Parsed(String type, boolean hasErrorMember, String message, String errorType) {
    }

    private EarlyError() {
    }

    static Parsed parse(String data) {
        if (data == null) {
            return new Parsed(null, false, "", null);
        }
        JsonNode root = readObject(data);
        if (root == null) {
            return new Parsed(null, false, bounded(data.strip()), null);
        }
        JsonNode error = root.path("error");
        JsonNode responseError = root.path("response").path("error");
        String message;
        String errorType;
        if (error.isObject()) {
            message = text(error, "message");
            errorType = firstText(error, "type", "code");
        } else if (responseError.isObject()) {
            message = text(responseError, "message");
            errorType = firstText(responseError, "code", "type");
        } else {
            message = error.isTextual() ? error.asText() : text(root, "message");
            errorType = text(root, "code");
        }
        return new Parsed(text(root, "type"), !error.isMissingNode() && !error.isNull(),
                bounded(message != null ? message : data.strip()), errorType);
    }

    private static JsonNode readObject(String data) {
        try {
            JsonNode node = JSON.readTree(data);
            return node != null && node.isObject() ? node : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isValueNode() && !v.isNull() ? v.asText() : null;
    }

    private static String firstText(JsonNode node, String first, String second) {
        String v = text(node, first);
        return v != null ? v : text(node, second);
    }

    private static String bounded(String s) {
        return s.length() <= MAX_MESSAGE_CHARS ? s : s.substring(0, MAX_MESSAGE_CHARS) + "…";
    }
}
