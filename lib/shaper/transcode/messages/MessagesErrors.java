package shaper.transcode.messages;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ErrorText;
import shaper.transcode.ErrorTypes;
import shaper.transcode.TranscodeException;
import shaper.transcode.UpstreamError;

/**
 * The Anthropic error envelope {@code {"type":"error","error":{"type","message"},"request_id"}}
 * and the status-to-type table: 400/409/422 invalid_request_error, 401 authentication_error,
 * 403 permission_error, 404 not_found_error, 413 request_too_large, 429 rate_limit_error,
 * 529 overloaded_error, other 5xx api_error, other 4xx invalid_request_error.
 */
public final class MessagesErrors {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private MessagesErrors() {
    }

    public static String typeFor(int status) {
        return switch (status) {
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            default -> ErrorTypes.shared(status);
        };
    }

    /** The body for an upstream error, its status kept. */
    public static byte[] body(UpstreamError e) {
        return body(typeFor(e.status()), e.message(), e.requestId());
    }

    /** The body for a local conversion failure. */
    public static byte[] body(TranscodeException e) {
        return body(typeFor(e.status()), e.getMessage(), null);
    }

    /** The JSON of an {@code error} stream event. */
    public static String event(String type, String message) {
        return envelope(type, message).toString();
    }

    private static ObjectNode envelope(String type, String message) {
        ObjectNode root = MAPPER.createObjectNode().put("type", "error");
        root.putObject("error").put("type", type).put("message", ErrorText.bound(message));
        return root;
    }

    private static byte[] body(String type, String message, String requestId) {
        ObjectNode root = envelope(type, message).put("request_id", requestId); // no id: JSON null
        return root.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
