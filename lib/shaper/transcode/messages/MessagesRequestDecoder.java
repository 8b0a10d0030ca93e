package shaper.transcode.messages;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.TranscodeException;
import shaper.transcode.ir.Conversation;
import shaper.transcode.ir.Part;
import shaper.transcode.ir.OutputFormat;
import shaper.transcode.ir.Role;
import shaper.transcode.ir.ToolChoice;
import shaper.transcode.ir.ToolSpec;
import shaper.transcode.ir.Turn;

/**
 * Strict decoding of an Anthropic Messages request into a {@link Conversation}: every member of the
 * surface today's Claude Code sends is known by shape, and an unknown one is a 400. Losses that
 * exist whatever the target (envelope controls, safeguards, signed thinking, server tools,
 * documents, top_k) are decided here ({@link MessagesControls}, {@link MessagesBlocks});
 * target-specific ones by the renderer. {@code role: "system"} entries of {@code messages} join the
 * system channel like the envelope's {@code system}; their {@code output_config.effort} applies from
 * that turn on. Stateless and thread-safe.
 */
public final class MessagesRequestDecoder {
    /** The signature of thinking blocks the proxy synthesized from provider reasoning. */
    public static final String SYNTHETIC_SIGNATURE = "shaper-synth-thinking-1";

    private static final JsonFields F = JsonFields.CLIENT;
    private static final Set<String> TOP = Set.of("model", "messages", "max_tokens", "system", "metadata", "stop_sequences", "stream",
            "temperature", "top_p", "top_k", "tools", "tool_choice", "thinking", "service_tier", "context_management", "output_config",
            "container", "mcp_servers", "safeguards");
    private static final Set<String> MESSAGE = Set.of("role", "content");
    private static final Set<String> SYSTEM_MESSAGE = Set.of("role", "content", "output_config");
    private static final Set<String> TOOL = Set.of("name", "description", "input_schema", "cache_control", "type", "defer_loading");
    private static final Set<String> TOOL_CHOICE = Set.of("type", "name", "disable_parallel_tool_use");

    private MessagesRequestDecoder() {
    }

    /** @throws TranscodeException.Invalid for malformed input, {@link TranscodeException.Unsupported} for a rejected loss */
    public static Conversation decode(byte[] body, ConversionReport report) {
        JsonNode root = F.parseObject(body, "request");
        F.only(root, "request", TOP);
        String model = F.string(root, "model", "request");
        MessagesControls.envelope(root, report);
        MessagesControls.Effort effort = MessagesControls.outputConfig(root.get("output_config"), report);
        OutputFormat format = MessagesControls.format(root.get("output_config"));
        List<Turn> turns = new ArrayList<>();
        system(root.get("system"), turns, report);
        JsonNode messages = F.array(root.get("messages"), "messages");
        for (int i = 0; i < messages.size(); i++) {
            String path = "messages[" + i + "]";
            JsonNode node = F.object(messages.get(i), path);
            if ("system".equals(node.path("role").asText(null))) {
                MessagesControls.Effort turnEffort = systemMessage(node, path, turns, report);
                effort = turnEffort != null ? turnEffort : effort;
            } else {
                turns.add(message(node, path, report));
            }
        }
        List<ToolSpec> tools = tools(root.get("tools"), report);
        Boolean[] parallel = new Boolean[1];
        ToolChoice choice = toolChoice(root.get("tool_choice"), parallel);
        Long maxTokens = F.optLong(root, "max_tokens", "request");
        Boolean stream = F.optBoolean(root, "stream", "request");
        return new Conversation(model, turns, tools, choice, parallel[0],
                maxTokens == null ? null : Math.toIntExact(Math.min(maxTokens, Integer.MAX_VALUE)),
                F.optDouble(root, "temperature", "request"), F.optDouble(root, "top_p", "request"),
                strings(root.get("stop_sequences"), "stop_sequences"), MessagesControls.reasoning(root.get("thinking"), effort, report),
                Boolean.TRUE.equals(stream), format);
    }

    private static void system(JsonNode system, List<Turn> turns, ConversionReport report) {
        if (system == null || system.isNull()) {
            return;
        }
        turns.add(new Turn(Role.SYSTEM, systemParts(system, "system", report), "system"));
    }

    /** A string or text blocks; other known blocks are {@code system_non_text_content}. */
    private static List<Part> systemParts(JsonNode content, String path, ConversionReport report) {
        List<Part> parts = new ArrayList<>();
        if (content.isTextual()) {
            parts.add(new Part.Text(content.asText()));
            return parts;
        }
        F.array(content, path);
        for (int i = 0; i < content.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode block = F.object(content.get(i), p);
            String type = F.string(block, "type", p);
            if (type.equals("text")) {
                parts.add(MessagesBlocks.text(block, p, report));
            } else if (MessagesBlocks.KNOWN.contains(type)) {
                report.loss(LossKey.SYSTEM_NON_TEXT_CONTENT, p);
            } else {
                throw F.fail(p + ".type: unknown content block type \"" + type + "\"");
            }
        }
        return parts;
    }

    /**
     * A {@code role: "system"} entry (Claude Code sends its environment this way): its text joins the
     * system channel where it stands; its {@code output_config} may carry the effort from here on.
     * An entry with only an {@code output_config} adds no turn.
     */
    private static MessagesControls.Effort systemMessage(JsonNode node, String path, List<Turn> turns, ConversionReport report) {
        F.only(node, path, SYSTEM_MESSAGE);
        JsonNode config = node.get("output_config");
        boolean hasConfig = config != null && !config.isNull();
        JsonNode content = node.get("content");
        if (content == null || content.isNull()) {
            if (!hasConfig) {
                throw F.fail(path + ".content: missing (expected: string or array; only an entry with output_config may omit it)");
            }
        } else {
            turns.add(new Turn(Role.SYSTEM, systemParts(content, path + ".content", report), path));
        }
        return hasConfig ? MessagesControls.turnOutputConfig(config, path + ".output_config", report) : null;
    }

    private static Turn message(JsonNode node, String path, ConversionReport report) {
        F.only(node, path, MESSAGE);
        String roleName = F.string(node, "role", path);
        Role role = switch (roleName) {
            case "user" -> Role.USER;
            case "assistant" -> Role.ASSISTANT;
            default -> throw F.fail(path + ".role: \"" + roleName + "\" (expected: user, assistant or system)");
        };
        JsonNode content = node.get("content");
        List<Part> parts = new ArrayList<>();
        if (content != null && content.isTextual()) {
            parts.add(new Part.Text(content.asText()));
        } else {
            F.array(content, path + ".content");
            for (int i = 0; i < content.size(); i++) {
                MessagesBlocks.block(content.get(i), path + ".content[" + i + "]", role, parts, report);
            }
        }
        return new Turn(role, parts, path);
    }

    /** Custom tools; a deferred one ({@code defer_loading}) is sent in full, since no target has Anthropic's tool search. */
    private static List<ToolSpec> tools(JsonNode tools, ConversionReport report) {
        List<ToolSpec> out = new ArrayList<>();
        if (tools == null || tools.isNull()) {
            return out;
        }
        F.array(tools, "tools");
        for (int i = 0; i < tools.size(); i++) {
            String path = "tools[" + i + "]";
            JsonNode t = F.object(tools.get(i), path);
            String type = F.optString(t, "type", path);
            if (type != null && !type.equals("custom")) {
                report.loss(LossKey.ANTHROPIC_SERVER_TOOLS, path);
                continue;
            }
            F.only(t, path, TOOL);
            MessagesBlocks.cacheControl(t, path, report);
            if (Boolean.TRUE.equals(F.optBoolean(t, "defer_loading", path))) {
                report.note(LossKey.DEFERRED_TOOL_LOADING, path + ".defer_loading");
            }
            JsonNode schema = F.object(t.get("input_schema"), path + ".input_schema");
            out.add(new ToolSpec(F.string(t, "name", path), F.optString(t, "description", path), schema, null));
        }
        return out;
    }

    private static ToolChoice toolChoice(JsonNode node, Boolean[] parallel) {
        if (node == null || node.isNull()) {
            return null;
        }
        F.object(node, "tool_choice");
        F.only(node, "tool_choice", TOOL_CHOICE);
        Boolean disable = F.optBoolean(node, "disable_parallel_tool_use", "tool_choice");
        if (disable != null) {
            parallel[0] = !disable;
        }
        String type = F.string(node, "type", "tool_choice");
        if (!type.equals("tool") && node.has("name")) {
            throw F.fail("tool_choice.name: only with type tool");
        }
        return switch (type) {
            case "auto" -> new ToolChoice.Auto();
            case "any" -> new ToolChoice.Required();
            case "none" -> new ToolChoice.None();
            case "tool" -> new ToolChoice.Named(F.string(node, "name", "tool_choice"));
            default -> throw F.fail("tool_choice.type: \"" + type + "\" (expected: auto, any, tool or none)");
        };
    }

    private static List<String> strings(JsonNode node, String path) {
        List<String> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        F.array(node, path);
        for (int i = 0; i < node.size(); i++) {
            if (!node.get(i).isTextual()) {
                throw F.fail(path + "[" + i + "]: expected string");
            }
            out.add(node.get(i).asText());
        }
        return out;
    }
}
