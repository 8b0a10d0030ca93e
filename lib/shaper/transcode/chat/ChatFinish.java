package shaper.transcode.chat;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ir.StopReason;

/**
 * A chat {@code finish_reason} as a canonical stop. {@code stop} becomes a stop-sequence stop only
 * when the provider names the matched string ({@code matched_stop} or vLLM's string
 * {@code stop_reason}) and the client asked for it; token-id values are ignored.
 *
 * @param sequence the matched stop sequence, or null
 */
public record ChatFinish(StopReason reason, String sequence) {
    /** @param choice the choice object; null reason when it has no finish_reason yet */
    static ChatFinish of(JsonNode choice, List<String> requestedStops) {
        JsonNode fr = choice.get("finish_reason");
        if (fr == null || fr.isNull()) {
            return null;
        }
        if (!fr.isTextual()) {
            throw shaper.transcode.JsonFields.UPSTREAM.fail("choices[].finish_reason: expected string");
        }
        return switch (fr.asText()) {
            case "length" -> new ChatFinish(StopReason.MAX_TOKENS, null);
            case "tool_calls", "function_call" -> new ChatFinish(StopReason.TOOL_USE, null);
            case "content_filter" -> new ChatFinish(StopReason.REFUSAL, null);
            default -> {
                String matched = matched(choice, "matched_stop");
                if (matched == null) {
                    matched = matched(choice, "stop_reason");
                }
                yield matched != null && requestedStops.contains(matched)
                        ? new ChatFinish(StopReason.STOP_SEQUENCE, matched)
                        : new ChatFinish(StopReason.END_TURN, null);
            }
        };
    }

    private static String matched(JsonNode choice, String name) {
        JsonNode v = choice.get(name);
        return v != null && v.isTextual() ? v.asText() : null;
    }
}
