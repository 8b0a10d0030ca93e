package shaper.transcode.chat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ChatCapability;
import shaper.transcode.ConversionReport;
import shaper.transcode.LossKey;
import shaper.transcode.SamplingFields;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.ir.Conversation;
import shaper.transcode.ir.Part;
import shaper.transcode.ir.Role;
import shaper.transcode.ir.Turn;

/**
 * Renders a {@link Conversation} as a Chat Completions request. Without {@code system_anywhere}
 * the request carries exactly one system message, at index 0 (open-weights chat templates reject
 * any other placement). A user turn's tool results become {@code role: tool} messages ahead of the
 * turn's remaining content. Stateless and thread-safe.
 */
public final class ChatRequestRenderer {
    /** Visible encoding of a failed tool result under the default {@code tool_result_error_status} approval. */
    public static final String TOOL_ERROR_PREFIX = "[tool_result_error] ";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory N = JsonNodeFactory.instance;

    private ChatRequestRenderer() {
    }

    public static byte[] render(Conversation c, TranscodeMapping m, ConversionReport report) {
        ObjectNode out = N.objectNode();
        out.put("model", m.upstreamModel(c));
        out.set("messages", messages(c, m, report));
        SamplingFields.put(c, out, "max_tokens");
        if (!c.stop().isEmpty()) {
            if (m.has(ChatCapability.STOP_SEQUENCES)) {
                ArrayNode stop = out.putArray("stop");
                c.stop().forEach(stop::add);
            } else {
                report.loss(LossKey.STOP_SEQUENCES, "stop_sequences");
            }
        }
        ChatRequestControls.tools(c, m, out, report);
        ChatRequestControls.reasoning(c.reasoning(), m, out, report);
        ChatRequestControls.format(c.format(), m, out, report);
        if (c.stream()) {
            out.put("stream", true);
            out.putObject("stream_options").put("include_usage", true);
        }
        try {
            return MAPPER.writeValueAsBytes(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("rendering a tree cannot fail", e);
        }
    }

    private static ArrayNode messages(Conversation c, TranscodeMapping m, ConversionReport report) {
        ArrayNode messages = N.arrayNode();
        boolean positional = m.has(ChatCapability.SYSTEM_ANYWHERE);
        List<String> system = new ArrayList<>();
        boolean dialogSeen = false;
        for (Turn t : c.turns()) {
            if (t.role().systemChannel()) {
                boolean developer = t.role() == Role.DEVELOPER && m.has(ChatCapability.DEVELOPER_ROLE);
                if (t.role() == Role.DEVELOPER && !developer) {
                    report.loss(LossKey.DEVELOPER_ROLE, t.path());
                }
                if (positional || developer) {
                    messages.addObject().put("role", developer ? "developer" : "system").put("content", Part.joinText(t.parts()));
                    continue;
                }
                if (dialogSeen) {
                    report.loss(LossKey.MID_CONVERSATION_SYSTEM, t.path());
                } else if (!system.isEmpty() || t.parts().size() > 1) {
                    report.note(LossKey.MID_CONVERSATION_SYSTEM, t.path());
                }
                system.add(Part.joinText(t.parts()));
                continue;
            }
            dialogSeen = true;
            switch (t.role()) {
                case USER -> user(t, m, messages, report);
                case ASSISTANT -> assistant(t, messages);
                case SYSTEM, DEVELOPER -> throw new IllegalStateException("handled above");
            }
        }
        if (!system.isEmpty()) {
            messages.insertObject(0).put("role", "system").put("content", String.join("\n", system));
        }
        return messages;
    }

    private static void user(Turn t, TranscodeMapping m, ArrayNode messages, ConversionReport report) {
        List<Part> rest = new ArrayList<>();
        for (int i = 0; i < t.parts().size(); i++) {
            Part p = t.parts().get(i);
            if (p instanceof Part.ToolResult r) {
                messages.addObject().put("role", "tool").put("tool_call_id", r.callId())
                        .put("content", toolResultText(r, t.path() + ".content[" + i + "]", report));
            } else {
                rest.add(p);
            }
        }
        if (!rest.isEmpty() || t.parts().isEmpty()) {
            ObjectNode msg = messages.addObject().put("role", "user");
            content(msg, rest, m, t.path(), report);
        }
    }

    private static void assistant(Turn t, ArrayNode messages) {
        ObjectNode msg = messages.addObject().put("role", "assistant");
        List<Part> text = new ArrayList<>();
        ArrayNode calls = null;
        for (Part p : t.parts()) {
            switch (p) {
                case Part.Text x -> text.add(x);
                case Part.ToolCall call -> {
                    if (calls == null) {
                        calls = N.arrayNode();
                    }
                    ObjectNode fn = calls.addObject().put("id", call.id()).put("type", "function").putObject("function");
                    fn.put("name", call.name()).put("arguments", call.arguments());
                }
                case Part.Thinking thinking -> {
                    // decoders keep no replayable thinking for chat; nothing to render
                }
                case Part.Image image -> throw new IllegalStateException("assistant image");
                case Part.ToolResult result -> throw new IllegalStateException("assistant tool result");
            }
        }
        if (text.isEmpty()) {
            msg.putNull("content");
        } else if (text.size() == 1) {
            msg.put("content", ((Part.Text) text.get(0)).text());
        } else {
            ArrayNode parts = msg.putArray("content");
            text.forEach(x -> parts.addObject().put("type", "text").put("text", ((Part.Text) x).text()));
        }
        if (calls != null) {
            msg.set("tool_calls", calls);
        }
    }

    /** A single text part as a string; anything else as content parts. */
    private static void content(ObjectNode msg, List<Part> parts, TranscodeMapping m, String path, ConversionReport report) {
        if (parts.size() == 1 && parts.get(0) instanceof Part.Text x) {
            msg.put("content", x.text());
            return;
        }
        if (parts.isEmpty()) {
            msg.put("content", "");
            return;
        }
        ArrayNode out = msg.putArray("content");
        for (int i = 0; i < parts.size(); i++) {
            switch (parts.get(i)) {
                case Part.Text x -> out.addObject().put("type", "text").put("text", x.text());
                case Part.Image img -> {
                    if (m.has(ChatCapability.IMAGE_INPUT)) {
                        out.addObject().put("type", "image_url").putObject("image_url").put("url", img.asUrl());
                    } else {
                        report.loss(LossKey.IMAGE_INPUT, path + ".content[" + i + "]");
                    }
                }
                case Part.ToolCall call -> throw new IllegalStateException("user tool call");
                case Part.ToolResult r -> throw new IllegalStateException("handled by user()");
                case Part.Thinking t -> throw new IllegalStateException("user thinking");
            }
        }
    }

    private static String toolResultText(Part.ToolResult r, String path, ConversionReport report) {
        List<String> texts = new ArrayList<>();
        for (Part p : r.content()) {
            switch (p) {
                case Part.Text x -> texts.add(x.text());
                case Part.Image img -> report.loss(LossKey.TOOL_RESULT_MULTIMODAL_CONTENT, path);
                case Part.ToolCall call -> throw new IllegalStateException("tool call in a tool result");
                case Part.ToolResult nested -> throw new IllegalStateException("nested tool result");
                case Part.Thinking t -> throw new IllegalStateException("thinking in a tool result");
            }
        }
        if (texts.size() > 1) {
            report.note(LossKey.TOOL_RESULT_TEXT_JOIN, path);
        }
        String text = String.join("\n", texts);
        if (r.isError()) {
            report.loss(LossKey.TOOL_RESULT_ERROR_STATUS, path + ".is_error");
            text = TOOL_ERROR_PREFIX + text;
        }
        return text;
    }
}
