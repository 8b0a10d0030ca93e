package shaper.transcode.chat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.TranscodeException;
import shaper.transcode.ir.Completion;
import shaper.transcode.ir.Part;
import shaper.transcode.ir.StopReason;
import shaper.transcode.ir.Usage;

/**
 * Tolerant decoding of a non-streaming chat completion: the first choice's message, its finish
 * reason and the usage; unknown members anywhere in the envelope are skipped. Provider reasoning
 * ({@code reasoning_content} or {@code reasoning}) becomes a {@link Part.Thinking} without a
 * signature, for the client renderer to dispose of. Stateless and thread-safe.
 */
public final class ChatResponseDecoder {
    private static final JsonFields F = JsonFields.UPSTREAM;

    private ChatResponseDecoder() {
    }

    /** @throws TranscodeException.UpstreamWire when the body breaks the wire contract */
    public static Completion decode(byte[] body, List<String> requestedStops, ConversionReport report) {
        JsonNode root = F.parseObject(body, "response");
        String id = F.optString(root, "id", "response");
        if (id == null || id.isEmpty()) {
            id = "chatcmpl-unknown";
        }
        JsonNode choices = F.array(root.get("choices"), "choices");
        if (choices.isEmpty()) {
            throw F.fail("choices: empty (expected: at least one choice)");
        }
        JsonNode choice = F.object(choices.get(0), "choices[0]");
        JsonNode message = F.object(choice.get("message"), "choices[0].message");
        List<Part> content = new ArrayList<>();
        String reasoning = reasoning(message, "choices[0].message");
        if (reasoning != null && !reasoning.isEmpty()) {
            content.add(new Part.Thinking(reasoning, null));
        }
        String text = text(message.get("content"), "choices[0].message.content");
        if (text != null && !text.isEmpty()) {
            content.add(new Part.Text(text));
        }
        String refusal = F.optString(message, "refusal", "choices[0].message");
        if (refusal != null && !refusal.isEmpty()) {
            content.add(new Part.Text(refusal));
        }
        JsonNode calls = message.get("tool_calls");
        if (calls != null && !calls.isNull()) {
            F.array(calls, "choices[0].message.tool_calls");
            for (int i = 0; i < calls.size(); i++) {
                content.add(toolCall(calls.get(i), "choices[0].message.tool_calls[" + i + "]"));
            }
        }
        JsonNode legacy = message.get("function_call");
        if (legacy != null && !legacy.isNull() && (calls == null || calls.isNull() || calls.isEmpty())) {
            report.note(LossKey.LEGACY_FUNCTION_CALL, "choices[0].message.function_call");
            F.object(legacy, "choices[0].message.function_call");
            content.add(call("call_" + id, F.string(legacy, "name", "choices[0].message.function_call"),
                    F.string(legacy, "arguments", "choices[0].message.function_call")));
        }
        ChatFinish finish = ChatFinish.of(choice, requestedStops);
        StopReason stop = finish == null ? StopReason.END_TURN : finish.reason();
        if (stop == StopReason.END_TURN && content.stream().anyMatch(p -> p instanceof Part.ToolCall)) {
            stop = StopReason.TOOL_USE;
        }
        Usage usage = ChatUsage.decode(root.get("usage"), report);
        return new Completion(id, content, stop, finish == null ? null : finish.sequence(), usage);
    }

    /** {@code reasoning_content} (DeepSeek/Qwen) or {@code reasoning} (OpenRouter), as a string, or null. */
    static String reasoning(JsonNode node, String path) {
        String r = F.optString(node, "reasoning_content", path);
        if (r == null || r.isEmpty()) {
            JsonNode alt = node.get("reasoning");
            if (alt != null && alt.isTextual()) {
                r = alt.asText();
            }
        }
        return r;
    }

    /** Message content: a string, null, or an array of text parts (joined). */
    static String text(JsonNode content, String path) {
        if (content == null || content.isNull()) {
            return null;
        }
        if (content.isTextual()) {
            return content.asText();
        }
        F.array(content, path);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < content.size(); i++) {
            JsonNode part = F.object(content.get(i), path + "[" + i + "]");
            String type = F.string(part, "type", path + "[" + i + "]");
            if (!type.equals("text")) {
                throw F.fail(path + "[" + i + "].type: \"" + type + "\" (expected: text)");
            }
            sb.append(F.string(part, "text", path + "[" + i + "]"));
        }
        return sb.toString();
    }

    private static Part.ToolCall toolCall(JsonNode call, String path) {
        F.object(call, path);
        String type = F.optString(call, "type", path);
        if (type != null && !type.equals("function")) {
            throw F.fail(path + ".type: \"" + type + "\" (expected: function)");
        }
        JsonNode fn = F.object(call.get("function"), path + ".function");
        return call(F.string(call, "id", path), F.string(fn, "name", path + ".function"), F.string(fn, "arguments", path + ".function"));
    }

    private static Part.ToolCall call(String id, String name, String arguments) {
        String args = ToolArguments.normalize(arguments);
        try {
            return new Part.ToolCall(id, name, args);
        } catch (IllegalArgumentException e) {
            throw F.fail("tool call: " + e.getMessage());
        }
    }
}
