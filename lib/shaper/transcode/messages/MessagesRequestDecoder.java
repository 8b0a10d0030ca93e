package shaper.transcode.messages;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.TranscodeException;
import shaper.transcode.ir.Conversation;
import shaper.transcode.ir.Part;
import shaper.transcode.ir.Reasoning;
import shaper.transcode.ir.Role;
import shaper.transcode.ir.ToolChoice;
import shaper.transcode.ir.ToolSpec;
import shaper.transcode.ir.Turn;

/**
 * Strict decoding of an Anthropic Messages request into a {@link Conversation}. Losses that exist
 * whatever the target (envelope controls, signed thinking, server tools, documents, top_k) are
 * decided here; target-specific ones by the renderer. Stateless and thread-safe.
 */
public final class MessagesRequestDecoder {
    /** The signature of thinking blocks the proxy synthesized from provider reasoning. */
    public static final String SYNTHETIC_SIGNATURE = "shaper-synth-thinking-1";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFields F = JsonFields.CLIENT;
    private static final Set<String> TOP = Set.of("model", "messages", "max_tokens", "system", "metadata", "stop_sequences", "stream",
            "temperature", "top_p", "top_k", "tools", "tool_choice", "thinking", "service_tier", "context_management", "output_config",
            "container", "mcp_servers");
    private static final Set<String> CONTROLS = Set.of("metadata", "service_tier", "context_management", "output_config", "container");
    private static final Set<String> MESSAGE = Set.of("role", "content");
    private static final Set<String> TEXT = Set.of("type", "text", "cache_control", "citations");
    private static final Set<String> IMAGE = Set.of("type", "source", "cache_control");
    private static final Set<String> TOOL_USE = Set.of("type", "id", "name", "input", "cache_control");
    private static final Set<String> TOOL_RESULT = Set.of("type", "tool_use_id", "content", "is_error", "cache_control");
    private static final Set<String> THINKING = Set.of("type", "thinking", "signature");
    private static final Set<String> REDACTED = Set.of("type", "data");
    private static final Set<String> SERVER_BLOCKS = Set.of("server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
            "code_execution_tool_result", "bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
            "mcp_tool_use", "mcp_tool_result", "container_upload", "search_result");
    private static final Set<String> TOOL = Set.of("name", "description", "input_schema", "cache_control", "type");
    private static final Set<String> TOOL_CHOICE = Set.of("type", "name", "disable_parallel_tool_use");

    private MessagesRequestDecoder() {
    }

    /** @throws TranscodeException.Invalid for malformed input, {@link TranscodeException.Unsupported} for a rejected loss */
    public static Conversation decode(byte[] body, ConversionReport report) {
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (IOException e) {
            throw new TranscodeException.Invalid("request body is not valid JSON");
        }
        F.object(root, "request");
        F.only(root, "request", TOP);
        String model = F.string(root, "model", "request");
        for (String control : CONTROLS) {
            if (root.has(control)) {
                report.loss(LossKey.ANTHROPIC_CONTROLS, control);
            }
        }
        if (root.has("mcp_servers")) {
            report.loss(LossKey.ANTHROPIC_SERVER_TOOLS, "mcp_servers");
        }
        if (F.optLong(root, "top_k", "request") != null) {
            report.loss(LossKey.TOP_K, "top_k");
        }
        List<Turn> turns = new ArrayList<>();
        system(root.get("system"), turns, report);
        JsonNode messages = F.array(root.get("messages"), "messages");
        for (int i = 0; i < messages.size(); i++) {
            turns.add(message(messages.get(i), "messages[" + i + "]", report));
        }
        List<ToolSpec> tools = tools(root.get("tools"), report);
        Boolean[] parallel = new Boolean[1];
        ToolChoice choice = toolChoice(root.get("tool_choice"), parallel);
        Long maxTokens = F.optLong(root, "max_tokens", "request");
        Boolean stream = F.optBoolean(root, "stream", "request");
        return new Conversation(model, turns, tools, choice, parallel[0],
                maxTokens == null ? null : Math.toIntExact(Math.min(maxTokens, Integer.MAX_VALUE)),
                F.optDouble(root, "temperature", "request"), F.optDouble(root, "top_p", "request"),
                strings(root.get("stop_sequences"), "stop_sequences"), thinking(root.get("thinking")), Boolean.TRUE.equals(stream));
    }

    private static void system(JsonNode system, List<Turn> turns, ConversionReport report) {
        if (system == null || system.isNull()) {
            return;
        }
        if (system.isTextual()) {
            turns.add(new Turn(Role.SYSTEM, List.of(new Part.Text(system.asText())), "system"));
            return;
        }
        F.array(system, "system");
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < system.size(); i++) {
            String path = "system[" + i + "]";
            JsonNode block = F.object(system.get(i), path);
            String type = F.string(block, "type", path);
            if (!type.equals("text")) {
                if (KNOWN_BLOCKS.contains(type)) {
                    report.loss(LossKey.SYSTEM_NON_TEXT_CONTENT, path);
                    continue;
                }
                throw F.fail(path + ".type: unknown content block type \"" + type + "\"");
            }
            parts.add(text(block, path, report));
        }
        turns.add(new Turn(Role.SYSTEM, parts, "system"));
    }

    private static final Set<String> KNOWN_BLOCKS = Set.of("text", "image", "document", "tool_use", "tool_result", "thinking",
            "redacted_thinking");

    private static Turn message(JsonNode node, String path, ConversionReport report) {
        F.object(node, path);
        F.only(node, path, MESSAGE);
        String roleName = F.string(node, "role", path);
        Role role = switch (roleName) {
            case "user" -> Role.USER;
            case "assistant" -> Role.ASSISTANT;
            // Claude Code sends inline system turns; they join the system channel.
            case "system" -> Role.SYSTEM;
            default -> throw F.fail(path + ".role: \"" + roleName + "\" (expected: user, assistant or system)");
        };
        JsonNode content = node.get("content");
        List<Part> parts = new ArrayList<>();
        if (content != null && content.isTextual()) {
            parts.add(new Part.Text(content.asText()));
        } else if (role == Role.SYSTEM) {
            F.array(content, path + ".content");
            for (int i = 0; i < content.size(); i++) {
                String p = path + ".content[" + i + "]";
                JsonNode block = F.object(content.get(i), p);
                String type = F.string(block, "type", p);
                if (!type.equals("text")) {
                    if (!KNOWN_BLOCKS.contains(type)) {
                        throw F.fail(p + ".type: unknown content block type \"" + type + "\"");
                    }
                    report.loss(LossKey.SYSTEM_NON_TEXT_CONTENT, p);
                    continue;
                }
                parts.add(text(block, p, report));
            }
        } else {
            F.array(content, path + ".content");
            for (int i = 0; i < content.size(); i++) {
                block(content.get(i), path + ".content[" + i + "]", role, parts, report);
            }
        }
        return new Turn(role, parts, path);
    }

    private static void block(JsonNode block, String path, Role role, List<Part> parts, ConversionReport report) {
        F.object(block, path);
        String type = F.string(block, "type", path);
        if (SERVER_BLOCKS.contains(type)) {
            report.loss(LossKey.ANTHROPIC_SERVER_TOOLS, path);
            return;
        }
        switch (type) {
            case "text" -> parts.add(text(block, path, report));
            case "image" -> parts.add(image(block, path));
            case "document" -> report.loss(LossKey.DOCUMENT_INPUT, path);
            case "tool_use" -> {
                requireRole(role, Role.ASSISTANT, path, type);
                F.only(block, path, TOOL_USE);
                cacheControl(block, path, report);
                JsonNode input = block.get("input");
                F.object(input, path + ".input");
                try {
                    parts.add(new Part.ToolCall(F.string(block, "id", path), F.string(block, "name", path), MAPPER.writeValueAsString(input)));
                } catch (IOException | IllegalArgumentException e) {
                    throw F.fail(path + ": " + e.getMessage());
                }
            }
            case "tool_result" -> {
                requireRole(role, Role.USER, path, type);
                F.only(block, path, TOOL_RESULT);
                cacheControl(block, path, report);
                parts.add(toolResult(block, path, report));
            }
            case "thinking" -> {
                requireRole(role, Role.ASSISTANT, path, type);
                F.only(block, path, THINKING);
                F.string(block, "thinking", path);
                String signature = F.optString(block, "signature", path);
                if (SYNTHETIC_SIGNATURE.equals(signature)) {
                    report.note(LossKey.SYNTHETIC_THINKING_SCRUBBED, path);
                } else {
                    report.loss(LossKey.AUTHENTICATED_THINKING, path);
                }
            }
            case "redacted_thinking" -> {
                requireRole(role, Role.ASSISTANT, path, type);
                F.only(block, path, REDACTED);
                report.loss(LossKey.AUTHENTICATED_THINKING, path);
            }
            default -> throw F.fail(path + ".type: unknown content block type \"" + type + "\"");
        }
    }

    private static Part.ToolResult toolResult(JsonNode block, String path, ConversionReport report) {
        String id = F.string(block, "tool_use_id", path);
        boolean isError = Boolean.TRUE.equals(F.optBoolean(block, "is_error", path));
        JsonNode content = block.get("content");
        List<Part> parts = new ArrayList<>();
        if (content == null || content.isNull()) {
            // an empty result
        } else if (content.isTextual()) {
            parts.add(new Part.Text(content.asText()));
        } else {
            F.array(content, path + ".content");
            for (int i = 0; i < content.size(); i++) {
                String p = path + ".content[" + i + "]";
                JsonNode b = F.object(content.get(i), p);
                String type = F.string(b, "type", p);
                switch (type) {
                    case "text" -> parts.add(text(b, p, report));
                    case "image" -> parts.add(image(b, p));
                    case "document", "search_result" -> report.loss(LossKey.TOOL_RESULT_MULTIMODAL_CONTENT, p);
                    default -> throw F.fail(p + ".type: unknown content block type \"" + type + "\"");
                }
            }
        }
        return new Part.ToolResult(id, parts, isError);
    }

    private static Part.Text text(JsonNode block, String path, ConversionReport report) {
        F.only(block, path, TEXT);
        cacheControl(block, path, report);
        JsonNode citations = block.get("citations");
        if (citations != null && !citations.isNull() && !(citations.isArray() && citations.isEmpty())) {
            report.loss(LossKey.REQUEST_CITATIONS, path + ".citations");
        }
        return new Part.Text(F.string(block, "text", path));
    }

    private static Part.Image image(JsonNode block, String path) {
        F.only(block, path, IMAGE);
        JsonNode source = F.object(block.get("source"), path + ".source");
        String type = F.string(source, "type", path + ".source");
        return switch (type) {
            case "base64" -> {
                F.only(source, path + ".source", Set.of("type", "media_type", "data"));
                yield new Part.Image(F.string(source, "media_type", path + ".source"), F.string(source, "data", path + ".source"), null, null);
            }
            case "url" -> {
                F.only(source, path + ".source", Set.of("type", "url"));
                yield new Part.Image(null, null, F.string(source, "url", path + ".source"), null);
            }
            default -> throw F.fail(path + ".source.type: \"" + type + "\" (expected: base64 or url)");
        };
    }

    private static void cacheControl(JsonNode block, String path, ConversionReport report) {
        if (block.has("cache_control")) {
            report.loss(LossKey.ANTHROPIC_CONTROLS, path + ".cache_control");
        }
    }

    private static void requireRole(Role actual, Role expected, String path, String type) {
        if (actual != expected) {
            throw F.fail(path + ": " + type + " block in a " + actual.name().toLowerCase(java.util.Locale.ROOT) + " message");
        }
    }

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
            cacheControl(t, path, report);
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

    private static Reasoning thinking(JsonNode node) {
        if (node == null || node.isNull()) {
            return new Reasoning.Unspecified();
        }
        F.object(node, "thinking");
        String type = F.string(node, "type", "thinking");
        return switch (type) {
            case "enabled" -> {
                F.only(node, "thinking", Set.of("type", "budget_tokens"));
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
                F.optString(node, "display", "thinking");
                yield new Reasoning.Adaptive();
            }
            default -> throw F.fail("thinking.type: \"" + type + "\" (expected: enabled, disabled or adaptive)");
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
