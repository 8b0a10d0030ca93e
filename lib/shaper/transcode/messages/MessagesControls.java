package shaper.transcode.messages;

import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.ir.OutputFormat;
import shaper.transcode.ir.Reasoning;

/**
 * The envelope controls of a Messages request, each known by shape: what maps (thinking and
 * {@code output_config.effort} to a reasoning request, {@code output_config.format} to an answer
 * format) and what is dropped under its loss key ({@code safeguards}, context-management edits,
 * metadata, ...). Anthropic's effort levels are low, medium, high, xhigh and max; a
 * {@code role: "system"} entry of {@code messages} may carry its own {@code output_config.effort},
 * which applies from that turn on, so the latest one wins. Stateless and thread-safe.
 */
final class MessagesControls {
    /** Dropped under {@code anthropic_controls} whatever their content. */
    private static final Set<String> DROPPED = Set.of("metadata", "service_tier", "container");
    private static final Set<String> EFFORTS = Set.of("low", "medium", "high", "xhigh", "max");
    private static final Set<String> DISPLAYS = Set.of("summarized", "omitted", "updates");
    private static final Set<String> OUTPUT_CONFIG = Set.of("effort", "format", "task_budget");
    private static final Set<String> FORMAT = Set.of("type", "schema");
    /** The name a target requires of an answer schema; Anthropic's has none. */
    static final String FORMAT_NAME = "output";
    private static final JsonFields F = JsonFields.CLIENT;

    private MessagesControls() {
    }

    /** Decides the controls that map to nothing: metadata, service tier, container, context edits, safeguards, top_k, MCP servers. */
    static void envelope(JsonNode root, ConversionReport report) {
        for (String control : DROPPED) {
            if (root.has(control)) {
                report.loss(LossKey.ANTHROPIC_CONTROLS, control);
            }
        }
        contextManagement(root.get("context_management"), report);
        safeguards(root.get("safeguards"), report);
        if (root.has("mcp_servers")) {
            report.loss(LossKey.ANTHROPIC_SERVER_TOOLS, "mcp_servers");
        }
        if (F.optLong(root, "top_k", "request") != null) {
            report.loss(LossKey.TOP_K, "top_k");
        }
    }

    /** Server-side context edits (clear_thinking, clear_tool_uses, compact): the upstream sees the history the client sent. */
    private static void contextManagement(JsonNode node, ConversionReport report) {
        if (node == null || node.isNull()) {
            return;
        }
        F.object(node, "context_management");
        F.only(node, "context_management", Set.of("edits"));
        JsonNode edits = node.get("edits");
        if (edits == null || edits.isNull() || (edits.isArray() && edits.isEmpty())) {
            report.loss(LossKey.ANTHROPIC_CONTROLS, "context_management");
            return;
        }
        dropEach(edits, "context_management.edits", LossKey.ANTHROPIC_CONTROLS, report);
    }

    /** Safeguards Anthropic evaluates beside the completion; their classifier context is the client's own business. */
    private static void safeguards(JsonNode node, ConversionReport report) {
        if (node != null && !node.isNull()) {
            dropEach(node, "safeguards", LossKey.ANTHROPIC_SAFEGUARDS, report);
        }
    }

    /** An array of objects typed by a string {@code type}, each dropped under {@code key}. */
    private static void dropEach(JsonNode array, String path, LossKey key, ConversionReport report) {
        F.array(array, path);
        for (int i = 0; i < array.size(); i++) {
            String p = path + "[" + i + "]";
            F.string(F.object(array.get(i), p), "type", p);
            report.loss(key, p);
        }
    }

    /**
     * The top-level {@code output_config}: its effort word (mapped, or null), with the answer format
     * read by {@link #format} and a task budget dropped.
     */
    static Effort outputConfig(JsonNode node, ConversionReport report) {
        if (node == null || node.isNull()) {
            return null;
        }
        F.object(node, "output_config");
        F.only(node, "output_config", OUTPUT_CONFIG);
        if (node.has("task_budget") && !node.get("task_budget").isNull()) {
            F.object(node.get("task_budget"), "output_config.task_budget");
            report.loss(LossKey.ANTHROPIC_CONTROLS, "output_config.task_budget");
        }
        return effort(node, "output_config", report);
    }

    /** A system entry's {@code output_config}: only effort applies per turn. */
    static Effort turnOutputConfig(JsonNode node, String path, ConversionReport report) {
        F.object(node, path);
        F.only(node, path, Set.of("effort"));
        return effort(node, path, report);
    }

    /** An effort word and the field it came from. */
    record Effort(String word, String path) {
    }

    private static Effort effort(JsonNode config, String path, ConversionReport report) {
        String word = F.optString(config, "effort", path);
        if (word == null) {
            return null;
        }
        if (!EFFORTS.contains(word)) {
            throw F.fail(path + ".effort: \"" + word + "\" (expected: low, medium, high, xhigh or max)");
        }
        if (word.equals("xhigh") || word.equals("max")) {
            report.note(LossKey.EFFORT_MAPPED, path + ".effort");
            word = "high";
        }
        return new Effort(word, path + ".effort");
    }

    /** The answer format of {@code output_config.format}, or free text. */
    static OutputFormat format(JsonNode config) {
        JsonNode format = config == null ? null : config.get("format");
        if (format == null || format.isNull()) {
            return new OutputFormat.Text();
        }
        String path = "output_config.format";
        F.object(format, path);
        F.only(format, path, FORMAT);
        String type = F.string(format, "type", path);
        if (!type.equals("json_schema")) {
            throw F.fail(path + ".type: \"" + type + "\" (expected: json_schema)");
        }
        return new OutputFormat.JsonSchema(FORMAT_NAME, null, F.object(format.get("schema"), path + ".schema"), null);
    }

    /**
     * The reasoning request: disabled thinking stays disabled; otherwise an effort wins over a
     * thinking budget (it is the newer, explicit word); adaptive thinking alone leaves the choice to the model.
     */
    static Reasoning reasoning(JsonNode thinking, Effort effort, ConversionReport report) {
        Reasoning base = thinking(thinking, report);
        if (base instanceof Reasoning.Disabled || effort == null) {
            return base;
        }
        return new Reasoning.Effort(effort.word(), effort.path());
    }

    private static Reasoning thinking(JsonNode node, ConversionReport report) {
        if (node == null || node.isNull()) {
            return new Reasoning.Unspecified();
        }
        F.object(node, "thinking");
        String type = F.string(node, "type", "thinking");
        return switch (type) {
            case "enabled" -> {
                F.only(node, "thinking", Set.of("type", "budget_tokens", "display"));
                display(node, report);
                Long budget = F.optLong(node, "budget_tokens", "thinking");
                if (budget == null || budget < 0) {
                    throw F.fail("thinking.budget_tokens: required with type enabled (expected: integer >= 0)");
                }
                yield new Reasoning.Budget((int) Math.min(budget, Integer.MAX_VALUE));
            }
            case "disabled" -> {
                F.only(node, "thinking", Set.of("type"));
                yield new Reasoning.Disabled();
            }
            case "adaptive" -> {
                F.only(node, "thinking", Set.of("type", "display"));
                display(node, report);
                yield new Reasoning.Adaptive();
            }
            default -> throw F.fail("thinking.type: \"" + type + "\" (expected: enabled, disabled or adaptive)");
        };
    }

    private static void display(JsonNode node, ConversionReport report) {
        String display = F.optString(node, "display", "thinking");
        if (display == null) {
            return;
        }
        if (!DISPLAYS.contains(display)) {
            throw F.fail("thinking.display: \"" + display + "\" (expected: summarized, omitted or updates)");
        }
        report.note(LossKey.THINKING_DISPLAY, "thinking.display");
    }
}
