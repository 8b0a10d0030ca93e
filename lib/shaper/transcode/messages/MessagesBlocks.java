package shaper.transcode.messages;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.ir.Part;
import shaper.transcode.ir.Role;

/**
 * Strict decoding of the content blocks of a Messages request (user and assistant turns, tool
 * results, text with its citations and cache hints). Losses a block carries whatever the target
 * (signed thinking, server tool blocks, documents) are decided here. Stateless and thread-safe.
 */
final class MessagesBlocks {
    /** Block types a system turn may name; anything but text is {@code system_non_text_content}. */
    static final Set<String> KNOWN = Set.of("text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking");
    /** What a {@code tool_reference} block (tool search) becomes in a tool result. */
    static final String TOOL_REFERENCE_PREFIX = "[tool_reference] ";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFields F = JsonFields.CLIENT;
    private static final Set<String> TEXT = Set.of("type", "text", "cache_control", "citations");
    private static final Set<String> IMAGE = Set.of("type", "source", "cache_control");
    private static final Set<String> TOOL_USE = Set.of("type", "id", "name", "input", "cache_control");
    private static final Set<String> TOOL_RESULT = Set.of("type", "tool_use_id", "content", "is_error", "cache_control");
    private static final Set<String> TOOL_REFERENCE = Set.of("type", "tool_name", "cache_control");
    private static final Set<String> THINKING = Set.of("type", "thinking", "signature");
    private static final Set<String> REDACTED = Set.of("type", "data");
    private static final Set<String> SERVER_BLOCKS = Set.of("server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
            "code_execution_tool_result", "bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
            "mcp_tool_use", "mcp_tool_result", "container_upload", "search_result");

    private MessagesBlocks() {
    }

    /** One block of a user or assistant turn, appended to {@code parts} unless it is a decided loss. */
    static void block(JsonNode block, String path, Role role, List<Part> parts, ConversionReport report) {
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
                if (MessagesRequestDecoder.SYNTHETIC_SIGNATURE.equals(signature)) {
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
        List<Part> parts = new java.util.ArrayList<>();
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
                    case "tool_reference" -> parts.add(toolReference(b, p, report));
                    case "document", "search_result" -> report.loss(LossKey.TOOL_RESULT_MULTIMODAL_CONTENT, p);
                    default -> throw F.fail(p + ".type: unknown content block type \"" + type + "\"");
                }
            }
        }
        return new Part.ToolResult(id, parts, isError);
    }

    /**
     * Claude Code's ToolSearch answers with references to deferred tools; Anthropic expands them
     * server-side. Elsewhere the tool arrives in full with the request's tools (defer_loading is
     * rendered as an ordinary tool), so the reference only needs to say which one was loaded.
     */
    private static Part.Text toolReference(JsonNode block, String path, ConversionReport report) {
        F.only(block, path, TOOL_REFERENCE);
        cacheControl(block, path, report);
        String name = F.string(block, "tool_name", path);
        report.note(LossKey.TOOL_REFERENCE_TEXT, path);
        return new Part.Text(TOOL_REFERENCE_PREFIX + name);
    }

    static Part.Text text(JsonNode block, String path, ConversionReport report) {
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

    static void cacheControl(JsonNode block, String path, ConversionReport report) {
        if (block.has("cache_control")) {
            report.loss(LossKey.ANTHROPIC_CONTROLS, path + ".cache_control");
        }
    }

    private static void requireRole(Role actual, Role expected, String path, String type) {
        if (actual != expected) {
            throw F.fail(path + ": " + type + " block in a " + actual.name().toLowerCase(Locale.ROOT) + " message");
        }
    }
}
