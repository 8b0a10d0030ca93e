package shaper.transcode.responses;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.FlatToolNames;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.TranscodeException;
import shaper.transcode.ir.Conversation;
import shaper.transcode.ir.OutputFormat;
import shaper.transcode.ir.Reasoning;
import shaper.transcode.ir.ToolChoice;
import shaper.transcode.ir.ToolSpec;
import shaper.transcode.ir.Turn;

/**
 * Strict decoding of an OpenAI Responses create request into a {@link Conversation}: an unknown
 * member or item type is a 400. Envelope controls are decided here ({@code responses_controls},
 * the request-only keys); the conversation-state controls {@link #ALWAYS_ERRORS} are rejected
 * under every policy, because a stateless upstream cannot honour them and silently ignoring them
 * would change what the client asked for. Input items are decoded by {@link ResponsesInput},
 * tools by {@link ResponsesTools}. Stateless and thread-safe.
 */
public final class ResponsesRequestDecoder {
    /** A decoded request and the flat names its namespaced tools were given. */
    public record Decoded(Conversation conversation, FlatToolNames toolNames) {
    }

    /** Rejected under every loss policy. */
    public static final Set<String> ALWAYS_ERRORS = Set.of("background", "max_tool_calls", "prompt", "safety_identifier", "status");

    private static final JsonFields F = JsonFields.CLIENT;
    private static final Set<String> TOP = Set.of("model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls",
            "max_output_tokens", "temperature", "top_p", "stream", "stream_options", "store", "reasoning", "text", "include", "metadata",
            "client_metadata", "previous_response_id", "conversation", "prompt_cache_key", "prompt_cache_retention", "service_tier",
            "truncation", "top_logprobs", "user", "background", "max_tool_calls", "prompt", "safety_identifier", "status");
    /** Noted or dropped under {@code responses_controls}. */
    private static final Set<String> CONTROLS = Set.of("include", "metadata", "client_metadata", "prompt_cache_key",
            "prompt_cache_retention", "user");
    private static final Set<String> REASONING = Set.of("effort", "summary", "generate_summary");
    private static final Set<String> TEXT = Set.of("format", "verbosity");
    private static final Set<String> STREAM_OPTIONS = Set.of("include_obfuscation");
    private static final Set<String> FORMAT_SCHEMA = Set.of("type", "name", "description", "schema", "strict");

    private ResponsesRequestDecoder() {
    }

    /** @throws TranscodeException.Invalid for malformed input, {@link TranscodeException.Unsupported} for a rejected loss */
    public static Decoded decode(byte[] body, ConversionReport report) {
        JsonNode root = F.parseObject(body, "request");
        F.only(root, "request", TOP);
        for (String name : ALWAYS_ERRORS) {
            if (present(root.get(name)) && !(name.equals("background") && root.get(name).isBoolean() && !root.get(name).asBoolean())) {
                throw new TranscodeException.Unsupported(name, LossKey.RESPONSES_CONTROLS);
            }
        }
        String model = F.string(root, "model", "request");
        controls(root, report);
        List<Turn> turns = new ArrayList<>();
        String instructions = F.optString(root, "instructions", "request");
        if (instructions != null) {
            turns.add(new Turn(shaper.transcode.ir.Role.SYSTEM, List.of(new shaper.transcode.ir.Part.Text(instructions)), "instructions"));
        }
        ResponsesTools.Decoded tools = ResponsesTools.decode(root.get("tools"), report);
        ResponsesInput.decode(root.get("input"), tools.names(), turns, report);
        ToolChoice choice = ResponsesTools.choice(root.get("tool_choice"), tools, report);
        Long maxTokens = F.optLong(root, "max_output_tokens", "request");
        Boolean stream = F.optBoolean(root, "stream", "request");
        F.optBoolean(root, "store", "request");
        JsonNode so = root.get("stream_options");
        if (present(so)) {
            F.only(F.object(so, "stream_options"), "stream_options", STREAM_OPTIONS);
        }
        Conversation c = new Conversation(model, turns, tools.specs(), choice, F.optBoolean(root, "parallel_tool_calls", "request"),
                maxTokens == null ? null : Math.toIntExact(Math.min(maxTokens, Integer.MAX_VALUE)),
                F.optDouble(root, "temperature", "request"), F.optDouble(root, "top_p", "request"), List.of(),
                reasoning(root.get("reasoning"), report), Boolean.TRUE.equals(stream), format(root.get("text"), report));
        return new Decoded(c, tools.names());
    }

    private static void controls(JsonNode root, ConversionReport report) {
        for (String name : CONTROLS) {
            if (present(root.get(name))) {
                report.loss(LossKey.RESPONSES_CONTROLS, name);
            }
        }
        if (present(root.get("previous_response_id"))) {
            report.loss(LossKey.PREVIOUS_RESPONSE_ID, "previous_response_id");
        }
        if (present(root.get("conversation"))) {
            report.loss(LossKey.PREVIOUS_RESPONSE_ID, "conversation");
        }
        String tier = F.optString(root, "service_tier", "request");
        if (tier != null && !tier.equals("auto") && !tier.equals("default")) {
            report.loss(LossKey.REQUEST_SERVICE_TIER, "service_tier");
        }
        String truncation = F.optString(root, "truncation", "request");
        if (truncation != null && !truncation.equals("disabled")) {
            report.loss(LossKey.REQUEST_TRUNCATION, "truncation");
        }
        Long top = F.optLong(root, "top_logprobs", "request");
        if (top != null && top > 0) {
            report.loss(LossKey.REQUEST_TOP_LOGPROBS, "top_logprobs");
        }
    }

    private static Reasoning reasoning(JsonNode r, ConversionReport report) {
        if (!present(r)) {
            return new Reasoning.Unspecified();
        }
        F.object(r, "reasoning");
        F.only(r, "reasoning", REASONING);
        if (present(r.get("summary")) || present(r.get("generate_summary"))) {
            F.optString(r, "summary", "reasoning");
            report.loss(LossKey.REASONING_SUMMARY, "reasoning.summary");
        }
        String effort = F.optString(r, "effort", "reasoning");
        return effort == null ? new Reasoning.Unspecified() : new Reasoning.Effort(effort);
    }

    private static OutputFormat format(JsonNode text, ConversionReport report) {
        if (!present(text)) {
            return new OutputFormat.Text();
        }
        F.object(text, "text");
        F.only(text, "text", TEXT);
        if (present(text.get("verbosity"))) {
            F.optString(text, "verbosity", "text");
            report.loss(LossKey.RESPONSES_CONTROLS, "text.verbosity");
        }
        JsonNode f = text.get("format");
        if (!present(f)) {
            return new OutputFormat.Text();
        }
        F.object(f, "text.format");
        String type = F.string(f, "type", "text.format");
        return switch (type) {
            case "text" -> {
                F.only(f, "text.format", Set.of("type"));
                yield new OutputFormat.Text();
            }
            case "json_object" -> {
                F.only(f, "text.format", Set.of("type"));
                yield new OutputFormat.JsonObject();
            }
            case "json_schema" -> {
                F.only(f, "text.format", FORMAT_SCHEMA);
                yield new OutputFormat.JsonSchema(F.string(f, "name", "text.format"), F.optString(f, "description", "text.format"),
                        F.object(f.get("schema"), "text.format.schema"), F.optBoolean(f, "strict", "text.format"));
            }
            default -> throw F.fail("text.format.type: unknown format type \"" + type + "\"");
        };
    }

    static boolean present(JsonNode n) {
        return n != null && !n.isNull();
    }
}
