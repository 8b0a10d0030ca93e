package shaper.transcode.responses;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.FlatToolNames;
import shaper.transcode.LossKey;
import shaper.transcode.ReasoningDisposition;
import shaper.transcode.ir.Completion;
import shaper.transcode.ir.Part;

/**
 * A {@link Completion} as the Responses JSON object of a non-streaming reply, the client's model
 * echoed. Consecutive text parts form one assistant message item; each tool call is a
 * {@code function_call} item (namespaced calls mapped back); provider reasoning becomes a
 * {@code reasoning} item, text, or nothing, per the disposition. Stateless.
 */
public final class ResponsesResponseRenderer {
    private ResponsesResponseRenderer() {
    }

    public static byte[] render(Completion c, String clientModel, long createdAt, ReasoningDisposition reasoning, FlatToolNames names,
                                ConversionReport report) {
        String id = ResponsesShapes.responseId(c.id());
        ObjectNode root = ResponsesShapes.response(id, createdAt, clientModel, "completed");
        ArrayNode output = root.withArray("output");
        StringBuilder text = null;
        for (Part p : c.content()) {
            String t = switch (p) {
                case Part.Text x -> x.text();
                case Part.Thinking th -> switch (reasoning) {
                    case TEXT -> th.text();
                    case THINKING -> {
                        text = flush(output, id, text);
                        output.add(ResponsesShapes.reasoning(ResponsesShapes.itemId("rs", id, output.size()), th.text()));
                        yield null;
                    }
                    case DROP -> {
                        report.loss(LossKey.PROVIDER_REASONING_TEXT, "choices[0].message.reasoning_content");
                        yield null;
                    }
                };
                case Part.ToolCall call -> {
                    text = flush(output, id, text);
                    output.add(ResponsesShapes.functionCall(ResponsesShapes.itemId("fc", id, output.size()), call.id(), call.name(), names,
                            call.arguments(), "completed"));
                    yield null;
                }
                case Part.Image i -> throw new IllegalStateException("image in an answer");
                case Part.ToolResult r -> throw new IllegalStateException("tool result in an answer");
            };
            if (t != null) {
                text = text == null ? new StringBuilder(t) : text.append(t);
            }
        }
        flush(output, id, text);
        ResponsesShapes.finish(root, c.stop());
        ResponsesUsage.write(root, c.usage(), report);
        return root.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static StringBuilder flush(ArrayNode output, String id, StringBuilder text) {
        if (text != null) {
            output.add(ResponsesShapes.message(ResponsesShapes.itemId("msg", id, output.size()), "completed", text.toString()));
        }
        return null;
    }
}
