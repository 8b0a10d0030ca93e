package shaper.proxy;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Small JSON helpers for the proxy's own messages. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static String quote(String s) {
        try {
            return MAPPER.writeValueAsString(s == null ? "" : s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The error type and message of an Anthropic or OpenAI error body (or an SSE data line holding one). */
    record ErrorInfo(String type, String message) {
    }

    static Optional<ErrorInfo> errorInfo(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).trim();
        for (String candidate : candidates(text)) {
            try {
                JsonNode root = MAPPER.readTree(candidate);
                JsonNode err = root.path("error");
                if (err.isMissingNode() && root.path("response").path("error").isObject()) {
                    err = root.path("response").path("error");
                }
                if (err.isObject()) {
                    String type = firstText(err, "type", "code");
                    String message = firstText(err, "message");
                    return Optional.of(new ErrorInfo(type.isEmpty() ? "api_error" : type, message));
                }
                if (err.isTextual()) {
                    return Optional.of(new ErrorInfo("api_error", err.asText()));
                }
            } catch (JsonProcessingException e) {
                // not JSON; try the next candidate
            }
        }
        return Optional.empty();
    }

    private static String firstText(JsonNode node, String... names) {
        for (String n : names) {
            if (node.path(n).isTextual() && !node.path(n).asText().isEmpty()) {
                return node.path(n).asText();
            }
        }
        return "";
    }

    /** The body itself, or the data lines of an SSE body. */
    private static java.util.List<String> candidates(String text) {
        java.util.List<String> list = new java.util.ArrayList<>();
        list.add(text);
        for (String line : text.split("\r?\n")) {
            if (line.startsWith("data:")) {
                list.add(line.substring(5).trim());
            }
        }
        return list;
    }
}
