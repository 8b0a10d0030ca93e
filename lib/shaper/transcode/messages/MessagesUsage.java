package shaper.transcode.messages;

import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.LossKey;
import shaper.transcode.ir.Usage;

/**
 * Canonical usage as an Anthropic {@code usage} object. Unknown input/output counts are rendered as
 * 0 under the {@code usage_unknown} decision (the schema requires integers); unknown cache counts
 * are rendered as {@code null}, never an invented zero.
 */
final class MessagesUsage {
    private MessagesUsage() {
    }

    static void write(ObjectNode usage, Usage u, ConversionReport report) {
        if (u.unknown()) {
            report.loss(LossKey.USAGE_UNKNOWN, "usage");
            usage.put("input_tokens", 0).put("output_tokens", 0).putNull("cache_creation_input_tokens").putNull("cache_read_input_tokens");
            return;
        }
        if (u.input() == null || u.output() == null) {
            report.loss(LossKey.USAGE_UNKNOWN, u.input() == null ? "usage.input_tokens" : "usage.output_tokens");
        }
        usage.put("input_tokens", u.input() == null ? 0 : u.input());
        usage.put("output_tokens", u.output() == null ? 0 : u.output());
        if (u.cacheWrite() == null) {
            report.loss(LossKey.USAGE_CACHE_WRITE_UNKNOWN, "usage.cache_creation_input_tokens");
            usage.putNull("cache_creation_input_tokens");
        } else {
            usage.put("cache_creation_input_tokens", u.cacheWrite());
        }
        if (u.cacheRead() == null) {
            report.loss(LossKey.USAGE_CACHE_READ_UNKNOWN, "usage.cache_read_input_tokens");
            usage.putNull("cache_read_input_tokens");
        } else {
            usage.put("cache_read_input_tokens", u.cacheRead());
        }
    }

    static String stopReason(shaper.transcode.ir.StopReason r) {
        return switch (r) {
            case END_TURN -> "end_turn";
            case MAX_TOKENS -> "max_tokens";
            case STOP_SEQUENCE -> "stop_sequence";
            case TOOL_USE -> "tool_use";
            case REFUSAL -> "refusal";
        };
    }

    /** An Anthropic message id for an upstream id: {@code msg_} and the id's safe characters. */
    static String messageId(String upstreamId) {
        String safe = upstreamId.replaceAll("[^A-Za-z0-9_-]", "");
        return "msg_" + (safe.isEmpty() ? "transcoded" : safe);
    }
}
