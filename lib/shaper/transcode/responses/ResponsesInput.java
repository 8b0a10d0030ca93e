package shaper.transcode.responses;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.FlatToolNames;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.ir.Part;
import shaper.transcode.ir.Role;
import shaper.transcode.ir.Turn;

/**
 * The Responses {@code input}: a string (one user message) or items. Messages keep their role;
 * {@code function_call} items join the assistant turn before them and {@code function_call_output}
 * items form one user turn of tool results, which the Chat renderer turns into {@code role: tool}
 * messages. Reasoning items cannot be replayed to another provider (dropped under
 * {@code reasoning_summary}); {@code item_reference} needs server state ({@code previous_response_id});
 * replayed built-in tool calls are dropped under {@code builtin_tools}.
 */
final class ResponsesInput {
    private static final JsonFields F = JsonFields.CLIENT;
    /**
     * {@code internal_chat_message_metadata_passthrough}: what Codex signed in with ChatGPT attaches
     * to its messages for OpenAI's own backend; no other upstream reads it.
     */
    private static final String CODEX_METADATA = "internal_chat_message_metadata_passthrough";
    private static final Set<String> MESSAGE = Set.of("type", "role", "content", "id", "status", "phase", CODEX_METADATA);
    /** {@code parsed_arguments} and {@code parsed}: the OpenAI SDK's parse helpers add them to output items a client replays. */
    private static final Set<String> CALL = Set.of("type", "id", "call_id", "name", "namespace", "arguments", "status", "parsed_arguments");
    private static final Set<String> OUTPUT = Set.of("type", "id", "call_id", "output", "status", "name", "namespace");
    private static final Set<String> REASONING = Set.of("type", "id", "summary", "content", "encrypted_content", "status", "format");
    private static final Set<String> TEXT_PART = Set.of("type", "text", "annotations", "logprobs", "parsed");
    private static final Set<String> IMAGE_PART = Set.of("type", "image_url", "file_id", "detail");
    private static final Set<String> BUILTIN_ITEMS = Set.of("web_search_call", "file_search_call", "computer_call", "computer_call_output",
            "code_interpreter_call", "image_generation_call", "local_shell_call", "local_shell_call_output", "shell_call", "shell_call_output",
            "apply_patch_call", "apply_patch_call_output", "mcp_call", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response",
            "custom_tool_call", "custom_tool_call_output", "tool_search_call", "tool_search_output");
    private static final Map<String, Role> ROLES = Map.of("user", Role.USER, "assistant", Role.ASSISTANT, "system", Role.SYSTEM,
            "developer", Role.DEVELOPER);

    private ResponsesInput() {
    }

    static void decode(JsonNode input, FlatToolNames names, List<Turn> turns, ConversionReport report) {
        if (input == null || input.isNull()) {
            throw F.fail("request.input: missing (expected: string or array)");
        }
        if (input.isTextual()) {
            turns.add(new Turn(Role.USER, List.of(new Part.Text(input.asText())), "input"));
            return;
        }
        F.array(input, "input");
        Pending pending = new Pending(turns);
        for (int i = 0; i < input.size(); i++) {
            String path = "input[" + i + "]";
            JsonNode item = F.object(input.get(i), path);
            String type = item.has("type") ? F.string(item, "type", path) : "message";
            switch (type) {
                case "message" -> pending.message(message(item, path, report));
                case "function_call" -> pending.call(call(item, path, names), path);
                case "function_call_output" -> pending.output(output(item, path, report), path);
                case "reasoning" -> {
                    F.only(item, path, REASONING);
                    report.loss(LossKey.REASONING_SUMMARY, path);
                }
                case "item_reference" -> report.loss(LossKey.PREVIOUS_RESPONSE_ID, path);
                default -> {
                    if (!BUILTIN_ITEMS.contains(type)) {
                        throw F.fail(path + ".type: unknown input item type \"" + type + "\"");
                    }
                    report.loss(LossKey.BUILTIN_TOOLS, path);
                }
            }
        }
        pending.flush();
    }

    private static Turn message(JsonNode item, String path, ConversionReport report) {
        F.only(item, path, MESSAGE);
        String roleName = F.string(item, "role", path);
        Role role = ROLES.get(roleName);
        if (role == null) {
            throw F.fail(path + ".role: unknown role \"" + roleName + "\"");
        }
        if (ResponsesRequestDecoder.present(item.get("phase"))) {
            report.loss(LossKey.OUTPUT_PHASE, path + ".phase");
        }
        if (ResponsesRequestDecoder.present(item.get(CODEX_METADATA))) {
            report.loss(LossKey.RESPONSES_CONTROLS, path + "." + CODEX_METADATA);
        }
        F.optString(item, "status", path);
        JsonNode content = item.get("content");
        if (content != null && content.isTextual()) {
            return new Turn(role, List.of(new Part.Text(content.asText())), path);
        }
        F.array(content, path + ".content");
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < content.size(); i++) {
            Part p = part(content.get(i), path + ".content[" + i + "]", role, report);
            if (p != null) {
                parts.add(p);
            }
        }
        return new Turn(role, parts, path);
    }

    /** One content part; null when it was dropped under an approved loss. */
    static Part part(JsonNode node, String path, Role role, ConversionReport report) {
        JsonNode part = F.object(node, path);
        String type = F.string(part, "type", path);
        switch (type) {
            case "input_text", "output_text" -> {
                F.only(part, path, TEXT_PART);
                return new Part.Text(F.string(part, "text", path));
            }
            case "refusal" -> {
                F.only(part, path, Set.of("type", "refusal"));
                return new Part.Text(F.string(part, "refusal", path));
            }
            case "input_image" -> {
                F.only(part, path, IMAGE_PART);
                if (role.systemChannel()) {
                    report.loss(LossKey.SYSTEM_NON_TEXT_CONTENT, path);
                    return null;
                }
                String url = F.optString(part, "image_url", path);
                if (url == null) {
                    F.string(part, "file_id", path);
                    report.loss(LossKey.IMAGE_INPUT, path); // a file id needs the Responses file store
                    return null;
                }
                String detail = F.optString(part, "detail", path);
                if ("original".equals(detail)) {
                    report.loss(LossKey.IMAGE_DETAIL_ORIGINAL, path + ".detail");
                    detail = "high";
                }
                return new Part.Image(null, null, url, detail);
            }
            case "input_file" -> {
                report.loss(LossKey.DOCUMENT_INPUT, path);
                return null;
            }
            default -> throw F.fail(path + ".type: unknown content part type \"" + type + "\"");
        }
    }

    private static Part.ToolCall call(JsonNode item, String path, FlatToolNames names) {
        F.only(item, path, CALL);
        String name = F.string(item, "name", path);
        String ns = F.optString(item, "namespace", path);
        String flat = ns == null ? name : flatName(names, ns, name);
        String args = F.string(item, "arguments", path);
        return new Part.ToolCall(F.string(item, "call_id", path), flat, args.isBlank() ? "{}" : args);
    }

    /** The flat name a namespaced call was offered under, or {@code namespace__name} for a tool no longer offered. */
    private static String flatName(FlatToolNames names, String ns, String name) {
        for (Map.Entry<String, FlatToolNames.Origin> e : names.origins().entrySet()) {
            if (e.getValue().namespace().equals(ns) && e.getValue().name().equals(name)) {
                return e.getKey();
            }
        }
        return ns + "__" + name;
    }

    private static Part.ToolResult output(JsonNode item, String path, ConversionReport report) {
        F.only(item, path, OUTPUT);
        String callId = F.string(item, "call_id", path);
        JsonNode out = item.get("output");
        if (out != null && out.isTextual()) {
            return new Part.ToolResult(callId, List.of(new Part.Text(out.asText())), false);
        }
        F.array(out, path + ".output");
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            Part p = part(out.get(i), path + ".output[" + i + "]", Role.USER, report);
            if (p != null) {
                parts.add(p);
            }
        }
        return new Part.ToolResult(callId, parts, false);
    }

    /** Groups calls into the assistant turn before them and consecutive outputs into one user turn. */
    private static final class Pending {
        private final List<Turn> turns;
        private Role role;
        private final List<Part> parts = new ArrayList<>();
        private String path;

        Pending(List<Turn> turns) {
            this.turns = turns;
        }

        void message(Turn t) {
            flush();
            if (t.role() == Role.ASSISTANT) {
                role = Role.ASSISTANT;
                parts.addAll(t.parts());
                path = t.path();
            } else {
                turns.add(t);
            }
        }

        void call(Part.ToolCall c, String at) {
            join(Role.ASSISTANT, c, at);
        }

        void output(Part.ToolResult r, String at) {
            join(Role.USER, r, at);
        }

        private void join(Role r, Part p, String at) {
            if (role != r || (r == Role.USER && !parts.isEmpty() && !(parts.get(0) instanceof Part.ToolResult))) {
                flush();
                role = r;
                path = at;
            }
            parts.add(p);
        }

        void flush() {
            if (role != null) {
                turns.add(new Turn(role, parts, path));
            }
            role = null;
            parts.clear();
        }
    }
}
