package shaper.transcode.responses;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.ir.StopReason;

/**
 * Reads of an upstream Responses answer the JSON and stream decoders share: the text of output
 * items and content parts, and the stop a response's status means. Tolerant of unknown members
 * (an opaque {@code p}, {@code phase}, reasoning {@code format}); strict about the content union.
 */
final class ResponsesOutput {
    private static final JsonFields F = JsonFields.UPSTREAM;

    private ResponsesOutput() {
    }

    /** The text of one content part: output_text and refusal are answer text; reasoning parts are reasoning. */
    static String text(JsonNode part, String path) {
        F.object(part, path);
        String type = F.string(part, "type", path);
        return switch (type) {
            case "output_text", "text", "reasoning_text", "summary_text" -> F.string(part, "text", path);
            case "refusal" -> F.string(part, "refusal", path);
            default -> throw F.fail(path + ".type: unknown content part type \"" + type + "\"");
        };
    }

    /** A reasoning item's text: its raw content when present, else its summaries joined. */
    static String reasoning(JsonNode item, String path) {
        StringBuilder sb = new StringBuilder();
        for (String member : List.of("content", "summary")) {
            JsonNode parts = item.get(member);
            if (parts == null || parts.isNull()) {
                continue;
            }
            F.array(parts, path + "." + member);
            for (int i = 0; i < parts.size(); i++) {
                if (sb.length() > 0) {
                    sb.append('\n');
                }
                sb.append(text(parts.get(i), path + "." + member + "[" + i + "]"));
            }
            if (sb.length() > 0) {
                break;
            }
        }
        return sb.toString();
    }

    /**
     * The stop a finished response's status means.
     *
     * @throws shaper.transcode.TranscodeException.UpstreamWire for {@code failed} (an upstream failure) or an unknown status
     */
    static StopReason stop(JsonNode response, boolean calls) {
        String status = F.optString(response, "status", "response");
        if (status == null || status.equals("completed")) {
            return calls ? StopReason.TOOL_USE : StopReason.END_TURN;
        }
        switch (status) {
            case "incomplete" -> {
                String reason = response.path("incomplete_details").path("reason").asText("");
                return reason.equals("content_filter") ? StopReason.REFUSAL : StopReason.MAX_TOKENS;
            }
            case "failed" -> throw F.fail("response failed: " + failure(response));
            case "cancelled" -> throw F.fail("response was cancelled");
            default -> throw F.fail("response.status: \"" + status + "\" (expected: completed, incomplete or failed)");
        }
    }

    /** Token logprobs on a content part or delta: a Messages answer has nowhere to put them. */
    static void logprobs(JsonNode node, String path, ConversionReport report) {
        JsonNode lp = node.get("logprobs");
        if (lp != null && lp.isArray() && !lp.isEmpty()) {
            report.loss(LossKey.LOGPROBS, path + ".logprobs");
        }
    }

    /** The tier actually served, when it is not the default one: a Messages answer does not carry it. */
    static void serviceTier(JsonNode response, ConversionReport report) {
        JsonNode tier = response.get("service_tier");
        if (tier != null && tier.isTextual() && !tier.asText().equals("default") && !tier.asText().equals("auto")) {
            report.loss(LossKey.RESPONSE_SERVICE_TIER, "service_tier");
        }
    }

    /** The message of a failed response's {@code error}, bounded by the caller. */
    static String failure(JsonNode response) {
        JsonNode error = response.get("error");
        if (error == null || error.isNull()) {
            return "no error given";
        }
        return error.isTextual() ? error.asText() : error.path("message").asText("no message given");
    }
}
