package shaper.transcode.responses;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.TranscodeException;
import shaper.transcode.chat.ToolArguments;
import shaper.transcode.ir.Completion;
import shaper.transcode.ir.Part;
import shaper.transcode.ir.Usage;

/**
 * Tolerant decoding of a non-streaming Responses body into a {@link Completion}: message items'
 * text, reasoning items as {@link Part.Thinking} without a signature (the client renderer decides
 * what becomes of them), function calls with their call ids, the status as the stop and the usage.
 * A {@code failed} status is an upstream failure. Unknown items and members are skipped.
 * Stateless and thread-safe.
 */
public final class ResponsesResponseDecoder {
    private static final JsonFields F = JsonFields.UPSTREAM;

    private ResponsesResponseDecoder() {
    }

    /** @throws TranscodeException.UpstreamWire when the body breaks the wire contract */
    public static Completion decode(byte[] body, ConversionReport report) {
        JsonNode root = F.parseObject(body, "response");
        String id = F.optString(root, "id", "response");
        JsonNode output = F.array(root.get("output"), "response.output");
        List<Part> content = new ArrayList<>();
        boolean calls = false;
        for (int i = 0; i < output.size(); i++) {
            String path = "output[" + i + "]";
            JsonNode item = F.object(output.get(i), path);
            String type = F.string(item, "type", path);
            switch (type) {
                case "message" -> {
                    JsonNode parts = F.array(item.get("content"), path + ".content");
                    for (int j = 0; j < parts.size(); j++) {
                        ResponsesOutput.logprobs(parts.get(j), path + ".content[" + j + "]", report);
                        String t = ResponsesOutput.text(parts.get(j), path + ".content[" + j + "]");
                        if (!t.isEmpty()) {
                            content.add(new Part.Text(t));
                        }
                    }
                }
                case "reasoning" -> {
                    String t = ResponsesOutput.reasoning(item, path);
                    if (!t.isEmpty()) {
                        content.add(new Part.Thinking(t, null));
                    }
                }
                case "function_call" -> {
                    calls = true;
                    content.add(new Part.ToolCall(F.string(item, "call_id", path), F.string(item, "name", path),
                            ToolArguments.normalize(F.string(item, "arguments", path))));
                }
                default -> report.loss(LossKey.OUTPUT_ITEM_BOUNDARIES, path); // hosted tool items (web_search_call, ...)
            }
        }
        ResponsesOutput.serviceTier(root, report);
        Usage usage = ResponsesUsage.decode(root.get("usage"), report);
        return new Completion(id == null || id.isEmpty() ? "resp_unknown" : id, content, ResponsesOutput.stop(root, calls), null, usage);
    }
}
