package shaper.transcode.messages;

import java.io.IOException;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.LossKey;
import shaper.transcode.ReasoningDisposition;
import shaper.transcode.TranscodeException;
import shaper.transcode.ir.Completion;
import shaper.transcode.ir.Part;

/**
 * A {@link Completion} as an Anthropic Messages response object, with the client's own model name
 * echoed. Provider reasoning becomes a thinking block signed with the marker
 * {@value MessagesRequestDecoder#SYNTHETIC_SIGNATURE}, text, or nothing, per the disposition.
 */
public final class MessagesResponseRenderer {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private MessagesResponseRenderer() {
    }

    public static byte[] render(Completion c, String clientModel, ReasoningDisposition reasoning, ConversionReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("id", MessagesUsage.messageId(c.id())).put("type", "message").put("role", "assistant").put("model", clientModel);
        ArrayNode content = root.putArray("content");
        for (Part p : c.content()) {
            switch (p) {
                case Part.Text t -> content.addObject().put("type", "text").put("text", t.text());
                case Part.Thinking t -> {
                    switch (reasoning) {
                        case THINKING -> content.addObject().put("type", "thinking").put("thinking", t.text())
                                .put("signature", MessagesRequestDecoder.SYNTHETIC_SIGNATURE);
                        case TEXT -> content.addObject().put("type", "text").put("text", t.text());
                        case DROP -> report.loss(LossKey.PROVIDER_REASONING_TEXT, "choices[0].message.reasoning_content");
                    }
                }
                case Part.ToolCall call -> {
                    ObjectNode block = content.addObject().put("type", "tool_use").put("id", call.id()).put("name", call.name());
                    try {
                        block.set("input", MAPPER.readTree(call.arguments()));
                    } catch (IOException e) {
                        throw new TranscodeException.Unrepresentable("model-generated tool arguments are not valid JSON");
                    }
                }
                case Part.Image i -> throw new IllegalStateException("image in an answer");
                case Part.ToolResult r -> throw new IllegalStateException("tool result in an answer");
            }
        }
        root.put("stop_reason", MessagesUsage.stopReason(c.stop()));
        if (c.stopSequence() != null) {
            root.put("stop_sequence", c.stopSequence());
        } else {
            root.putNull("stop_sequence");
        }
        MessagesUsage.write(root.putObject("usage"), c.usage(), report);
        return root.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
