package shaper.transcode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A non-2xx upstream answer, dialect-free: the status, the upstream's own type, code, message and
 * param when it sent JSON, its request id and Retry-After. An HTML page (or any non-JSON body) is
 * never forwarded: its message becomes {@code upstream returned HTTP N}.
 *
 * @param type       the upstream's error type, or null
 * @param code       the upstream's error code, or null
 * @param param      the upstream's error param, or null
 * @param requestId  the upstream's request id header, or null
 * @param retryAfter the upstream's Retry-After value, or null
 */
public record UpstreamError(int status, String type, String code, String message, String param, String requestId, String retryAfter) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public UpstreamError {
        message = ErrorText.bound(message);
    }

    /** Parses a (bounded) error body. */
    public static UpstreamError parse(int status, byte[] body, String contentType, String requestId, String retryAfter) {
        String fallback = "upstream returned HTTP " + status;
        boolean html = contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).contains("html");
        if (!html && body.length > 0) {
            try {
                JsonNode root = MAPPER.readTree(body);
                if (root != null && root.isObject()) {
                    JsonNode err = root.get("error");
                    if (err != null && err.isObject()) {
                        return new UpstreamError(status, text(err, "type"), text(err, "code"),
                                orElse(text(err, "message"), fallback), text(err, "param"), requestId, retryAfter);
                    }
                    String msg = err != null && err.isTextual() ? err.asText() : orElse(text(root, "message"), text(root, "detail"));
                    return new UpstreamError(status, null, null, orElse(msg, fallback), null, requestId, retryAfter);
                }
            } catch (IOException e) {
                // not JSON: fall through
            }
            String plain = new String(body, StandardCharsets.UTF_8).trim();
            if (!plain.isEmpty() && !plain.startsWith("<") && plain.length() < 512) {
                return new UpstreamError(status, null, null, fallback + ": " + plain, null, requestId, retryAfter);
            }
        }
        return new UpstreamError(status, null, null, fallback, null, requestId, retryAfter);
    }

    private static String text(JsonNode node, String name) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        return v.isValueNode() ? v.asText() : null;
    }

    private static String orElse(String a, String b) {
        return a != null && !a.isEmpty() ? a : b;
    }
}
