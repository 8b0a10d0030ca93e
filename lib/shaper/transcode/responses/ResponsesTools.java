package shaper.transcode.responses;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import shaper.transcode.ConversionReport;
import shaper.transcode.FlatToolNames;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.TranscodeException;
import shaper.transcode.ir.ToolChoice;
import shaper.transcode.ir.ToolSpec;

/**
 * Responses {@code tools} and {@code tool_choice}. Function tools become {@link ToolSpec}s; Codex's
 * namespace tools ({@code {"type":"namespace","name":"mcp__docs","tools":[...]}}) are flattened into
 * plain function tools: a child keeps its bare name unless another tool has it, then it becomes
 * {@code namespace__child}; the per-exchange {@link FlatToolNames} maps calls back. Built-in tools
 * (web search, file search, computer use, ...) have no Chat form and are dropped under
 * {@code builtin_tools}; a {@code tool_choice} that then points at nothing is an error unless it is
 * {@code auto}.
 */
final class ResponsesTools {
    /** The tools of one request. */
    record Decoded(List<ToolSpec> specs, FlatToolNames names, boolean builtinDropped, Set<String> builtinTypes) {
    }

    /** Hosted tools the Responses API runs itself; a Chat upstream has none of them. */
    static final Set<String> BUILTIN = Set.of("web_search", "web_search_preview", "web_search_preview_2025_03_11",
            "web_search_2025_08_26", "file_search", "computer_use_preview", "computer_use", "code_interpreter", "image_generation",
            "local_shell", "shell", "apply_patch", "mcp", "tool_search", "custom");

    private static final JsonFields F = JsonFields.CLIENT;
    private static final Set<String> FUNCTION = Set.of("type", "name", "description", "parameters", "strict");
    private static final Set<String> NAMESPACE = Set.of("type", "name", "description", "tools");

    private ResponsesTools() {
    }

    static Decoded decode(JsonNode tools, ConversionReport report) {
        if (!ResponsesRequestDecoder.present(tools)) {
            return new Decoded(List.of(), FlatToolNames.NONE, false, Set.of());
        }
        F.array(tools, "tools");
        Set<String> topNames = new HashSet<>();
        Map<String, Integer> childCounts = new HashMap<>();
        for (int i = 0; i < tools.size(); i++) {
            JsonNode t = F.object(tools.get(i), "tools[" + i + "]");
            String type = F.string(t, "type", "tools[" + i + "]");
            if (type.equals("function")) {
                topNames.add(F.string(t, "name", "tools[" + i + "]"));
            } else if (type.equals("namespace")) {
                JsonNode children = F.array(t.get("tools"), "tools[" + i + "].tools");
                for (int j = 0; j < children.size(); j++) {
                    JsonNode child = F.object(children.get(j), "tools[" + i + "].tools[" + j + "]");
                    childCounts.merge(F.string(child, "name", "tools[" + i + "].tools[" + j + "]"), 1, Integer::sum);
                }
            }
        }
        List<ToolSpec> specs = new ArrayList<>();
        Map<String, FlatToolNames.Origin> origins = new LinkedHashMap<>();
        Set<String> used = new HashSet<>(topNames);
        Set<String> builtins = new HashSet<>();
        for (int i = 0; i < tools.size(); i++) {
            String path = "tools[" + i + "]";
            JsonNode t = tools.get(i);
            String type = t.get("type").asText();
            switch (type) {
                case "function" -> specs.add(function(t, path, t.get("name").asText()));
                case "namespace" -> {
                    F.only(t, path, NAMESPACE);
                    String ns = F.string(t, "name", path);
                    JsonNode children = t.get("tools");
                    for (int j = 0; j < children.size(); j++) {
                        String cpath = path + ".tools[" + j + "]";
                        JsonNode child = children.get(j);
                        String childType = F.string(child, "type", cpath);
                        if (!childType.equals("function")) {
                            throw F.fail(cpath + ".type: \"" + childType + "\" (expected: function)");
                        }
                        String name = child.get("name").asText();
                        String flat = topNames.contains(name) || childCounts.get(name) > 1 ? ns + "__" + name : name;
                        if (!flat.equals(name) && used.contains(flat)) {
                            throw F.fail(cpath + ".name: \"" + flat + "\" collides with another tool after flattening");
                        }
                        used.add(flat);
                        origins.put(flat, new FlatToolNames.Origin(ns, name));
                        specs.add(function(child, cpath, flat));
                    }
                }
                default -> {
                    if (!BUILTIN.contains(type)) {
                        throw F.fail(path + ".type: unknown tool type \"" + type + "\"");
                    }
                    report.loss(LossKey.BUILTIN_TOOLS, path);
                    builtins.add(type);
                }
            }
        }
        return new Decoded(specs, new FlatToolNames(origins), !builtins.isEmpty(), builtins);
    }

    private static ToolSpec function(JsonNode t, String path, String flatName) {
        F.only(t, path, FUNCTION);
        JsonNode params = t.get("parameters");
        if (!ResponsesRequestDecoder.present(params)) {
            params = JsonNodeFactory.instance.objectNode().put("type", "object").set("properties", JsonNodeFactory.instance.objectNode());
        }
        F.object(params, path + ".parameters");
        return new ToolSpec(flatName, F.optString(t, "description", path), params, F.optBoolean(t, "strict", path));
    }

    /** The client's {@code tool_choice}, its names flattened like the tools. */
    static ToolChoice choice(JsonNode choice, Decoded tools, ConversionReport report) {
        if (!ResponsesRequestDecoder.present(choice)) {
            return null;
        }
        boolean dangling = tools.specs().isEmpty() && tools.builtinDropped();
        if (choice.isTextual()) {
            return switch (choice.asText()) {
                case "auto" -> {
                    if (dangling) {
                        report.note(LossKey.BUILTIN_TOOLS, "tool_choice");
                        yield null;
                    }
                    yield new ToolChoice.Auto();
                }
                case "none" -> new ToolChoice.None();
                case "required" -> {
                    if (dangling) {
                        throw new TranscodeException.Unsupported("tool_choice", LossKey.BUILTIN_TOOLS);
                    }
                    yield new ToolChoice.Required();
                }
                default -> throw F.fail("tool_choice: unknown value \"" + choice.asText() + "\"");
            };
        }
        F.object(choice, "tool_choice");
        String type = F.string(choice, "type", "tool_choice");
        if (type.equals("function")) {
            F.only(choice, "tool_choice", Set.of("type", "name", "namespace"));
            String name = F.string(choice, "name", "tool_choice");
            String ns = F.optString(choice, "namespace", "tool_choice");
            for (ToolSpec s : tools.specs()) {
                FlatToolNames.Origin o = tools.names().origin(s.name());
                boolean match = o == null ? ns == null && s.name().equals(name) : o.name().equals(name) && (ns == null || o.namespace().equals(ns));
                if (match) {
                    return new ToolChoice.Named(s.name());
                }
            }
            throw F.fail("tool_choice.name: \"" + name + "\" is not one of the request's function tools");
        }
        if (BUILTIN.contains(type)) {
            throw new TranscodeException.Unsupported("tool_choice", LossKey.BUILTIN_TOOLS);
        }
        throw F.fail("tool_choice.type: \"" + type + "\" cannot be transcoded (expected: function, or auto, none, required)");
    }
}
