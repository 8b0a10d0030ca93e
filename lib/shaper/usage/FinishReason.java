package shaper.usage;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Where each dialect says why generation stopped, read from a payload the usage scan parsed anyway:
 * Anthropic's {@code stop_reason} (on the message, or on a stream's {@code message_delta}), Chat
 * Completions' first {@code choices[].finish_reason}, and the Responses API's {@code status}.
 */
final class FinishReason {
    private FinishReason() {
    }

    /** The reason {@code root} (or its {@code holder}: the message or response inside it) states, else {@code known}. */
    static String of(JsonNode root, JsonNode holder, String known) {
        for (JsonNode n : new JsonNode[] {holder.path("stop_reason"), root.path("delta").path("stop_reason"),
                root.path("choices").path(0).path("finish_reason")}) {
            if (n.isTextual() && !n.asText().isEmpty()) {
                return n.asText();
            }
        }
        JsonNode status = holder.path("status");
        if (holder != root && status.isTextual() && !status.asText().equals("in_progress")) {
            return status.asText(); // a Responses event's response object
        }
        return known;
    }
}
