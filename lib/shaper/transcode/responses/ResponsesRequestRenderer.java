package shaper.transcode.responses;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.LossKey;
import shaper.transcode.SamplingFields;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.chat.ChatRequestRenderer;
import shaper.transcode.ir.Conversation;
import shaper.transcode.ir.OutputFormat;
import shaper.transcode.ir.Part;
import shaper.transcode.ir.Reasoning;
import shaper.transcode.ir.Role;
import shaper.transcode.ir.ToolChoice;
import shaper.transcode.ir.ToolSpec;
import shaper.transcode.ir.Turn;

/**
 * Renders a {@link Conversation} as a Responses create request (the Messages → Responses direction).
 * The first leading system turn becomes {@code instructions}; every other system turn keeps its
 * place as a {@code role: system} input message (Responses accepts them anywhere), so nothing of
 * its position is lost. Tool calls and results
 * become {@code function_call} / {@code function_call_output} items with their ids. Messages tools
 * have no strictness, so every function tool is sent {@code strict: false} under the
 * {@code tool_schema_strictness} approval the mapping needs at startup. An answer format
 * ({@code output_config.format}) becomes {@code text.format}. Requests are stateless:
 * {@code store: false}. Stateless and thread-safe.
 */
public final class ResponsesRequestRenderer {
    private static final JsonNodeFactory N = JsonNodeFactory.instance;

    private ResponsesRequestRenderer() {
    }

    public static byte[] render(Conversation c, TranscodeMapping m, ConversionReport report) {
        ObjectNode out = N.objectNode().put("model", m.upstreamModel(c));
        ArrayNode input = N.arrayNode();
        boolean leading = true;
        for (Turn t : c.turns()) {
            if (!t.role().systemChannel()) {
                leading = false;
                turn(t, input, report);
            } else if (leading && !out.has("instructions")) {
                out.put("instructions", Part.joinText(t.parts()));
            } else {
                // Responses takes system and developer messages anywhere in input: the turn keeps its place
                input.addObject().put("type", "message").put("role", t.role() == Role.DEVELOPER ? "developer" : "system")
                        .putArray("content").addObject().put("type", "input_text").put("text", Part.joinText(t.parts()));
            }
        }
        out.set("input", input);
        SamplingFields.put(c, out, "max_output_tokens");
        if (!c.stop().isEmpty()) {
            report.loss(LossKey.STOP_SEQUENCES, "stop_sequences"); // Responses has no stop sequences
        }
        tools(c, out, report);
        switch (c.reasoning()) {
            case Reasoning.Unspecified u -> {
            }
            case Reasoning.Adaptive a -> {
            }
            case Reasoning.Disabled d -> {
            }
            case Reasoning.Budget b -> report.loss(LossKey.REQUEST_REASONING, "thinking");
            case Reasoning.Effort e -> out.putObject("reasoning").put("effort", e.effort());
        }
        format(c.format(), out);
        out.put("store", false);
        if (c.stream()) {
            out.put("stream", true);
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A Messages output_config.format is native here: Responses {@code text.format}. */
    private static void format(OutputFormat f, ObjectNode out) {
        switch (f) {
            case OutputFormat.Text t -> {
            }
            case OutputFormat.JsonObject j -> out.putObject("text").putObject("format").put("type", "json_object");
            case OutputFormat.JsonSchema s -> {
                ObjectNode format = out.putObject("text").putObject("format").put("type", "json_schema").put("name", s.name());
                if (s.description() != null) {
                    format.put("description", s.description());
                }
                format.set("schema", s.schema());
                if (s.strict() != null) {
                    format.put("strict", s.strict());
                }
            }
        }
    }

    private static void turn(Turn t, ArrayNode input, ConversionReport report) {
        List<Part> content = new ArrayList<>();
        for (int i = 0; i < t.parts().size(); i++) {
            Part p = t.parts().get(i);
            String path = t.path() + ".content[" + i + "]";
            switch (p) {
                case Part.ToolCall call -> {
                    message(t.role(), content, input, report);
                    input.addObject().put("type", "function_call").put("call_id", call.id()).put("name", call.name())
                            .put("arguments", call.arguments());
                }
                case Part.ToolResult r -> {
                    message(t.role(), content, input, report);
                    input.addObject().put("type", "function_call_output").put("call_id", r.callId()).put("output", result(r, path, report));
                }
                case Part.Thinking th -> {
                    // replayed thinking was decided by the Messages decoder (signed: authenticated_thinking; ours: scrubbed)
                }
                case Part.Text x -> content.add(x);
                case Part.Image img -> content.add(img);
            }
        }
        message(t.role(), content, input, report);
    }

    /** Flushes pending text and images as one message item. */
    private static void message(Role role, List<Part> content, ArrayNode input, ConversionReport report) {
        if (content.isEmpty()) {
            return;
        }
        boolean assistant = role == Role.ASSISTANT;
        ArrayNode parts = input.addObject().put("type", "message").put("role", assistant ? "assistant" : "user").putArray("content");
        for (Part p : content) {
            switch (p) {
                case Part.Text x -> parts.addObject().put("type", assistant ? "output_text" : "input_text").put("text", x.text());
                case Part.Image img -> parts.addObject().put("type", "input_image").put("image_url", img.asUrl())
                        .put("detail", detail(img, report));
                case Part.ToolCall c -> throw new IllegalStateException("flushed separately");
                case Part.ToolResult r -> throw new IllegalStateException("flushed separately");
                case Part.Thinking t -> throw new IllegalStateException("not content");
            }
        }
        content.clear();
    }

    /** An Anthropic image has no detail; Responses wants one, so {@code auto} is chosen (a note). */
    private static String detail(Part.Image img, ConversionReport report) {
        if (img.detail() != null) {
            return img.detail();
        }
        report.note(LossKey.IMAGE_DETAIL_INVENTED, "image");
        return "auto";
    }

    /**
     * A tool result as output text: text parts joined with {@code \n} (a note when several), or,
     * when it holds an image, the deterministic JSON envelope {@code {"transcode_version":1,"content":[...]}}
     * under {@code tool_result_json_envelope}.
     */
    private static String result(Part.ToolResult r, String path, ConversionReport report) {
        String text;
        if (r.content().stream().anyMatch(p -> p instanceof Part.Image)) {
            report.loss(LossKey.TOOL_RESULT_JSON_ENVELOPE, path);
            ObjectNode envelope = N.objectNode().put("transcode_version", 1);
            ArrayNode content = envelope.putArray("content");
            for (Part p : r.content()) {
                if (p instanceof Part.Text x) {
                    content.addObject().put("type", "text").put("text", x.text());
                } else if (p instanceof Part.Image img) {
                    content.addObject().put("type", "image").put("url", img.asUrl());
                }
            }
            text = envelope.toString();
        } else {
            List<String> texts = new ArrayList<>();
            r.content().forEach(p -> texts.add(((Part.Text) p).text()));
            if (texts.size() > 1) {
                report.note(LossKey.TOOL_RESULT_TEXT_JOIN, path);
            }
            text = String.join("\n", texts);
        }
        if (r.isError()) {
            report.loss(LossKey.TOOL_RESULT_ERROR_STATUS, path + ".is_error");
            text = ChatRequestRenderer.TOOL_ERROR_PREFIX + text;
        }
        return text;
    }

    private static void tools(Conversation c, ObjectNode out, ConversionReport report) {
        if (!c.tools().isEmpty()) {
            report.loss(LossKey.TOOL_SCHEMA_STRICTNESS, "tools");
            ArrayNode tools = out.putArray("tools");
            for (ToolSpec t : c.tools()) {
                ObjectNode fn = tools.addObject().put("type", "function").put("name", t.name());
                if (t.description() != null) {
                    fn.put("description", t.description());
                }
                fn.set("parameters", t.parameters());
                fn.put("strict", t.strict() != null && t.strict());
            }
        }
        if (c.toolChoice() != null) {
            switch (c.toolChoice()) {
                case ToolChoice.Auto a -> out.put("tool_choice", "auto");
                case ToolChoice.None n -> out.put("tool_choice", "none");
                case ToolChoice.Required r -> out.put("tool_choice", "required");
                case ToolChoice.Named n -> out.putObject("tool_choice").put("type", "function").put("name", n.name());
            }
        }
        if (c.parallelTools() != null && !c.tools().isEmpty()) {
            out.put("parallel_tool_calls", c.parallelTools());
        }
    }
}
