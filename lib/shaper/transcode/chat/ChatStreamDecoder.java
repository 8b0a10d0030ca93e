package shaper.transcode.chat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.sse.SseFrame;
import shaper.transcode.ConversionReport;
import shaper.transcode.ErrorText;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.TranscodeException;
import shaper.transcode.ir.StreamEvent;

/**
 * One chat SSE stream's frames to {@link StreamEvent}s, tolerant of provider extensions
 * ({@code reasoning_content}, {@code matched_stop}, {@code stop_reason}, usage extensions, billing
 * fields) and strict about the shapes it reads. A data-only {@code {"error":...}} frame or a frame
 * that is not JSON is an upstream failure. Comment frames are ignored. One instance per stream;
 * not thread-safe.
 */
public final class ChatStreamDecoder implements shaper.transcode.UpstreamStreamDecoder {
    private static final JsonFields F = JsonFields.UPSTREAM;

    private final List<String> requestedStops;
    private final ConversionReport report;
    private boolean started;
    private String id = "chatcmpl-stream";
    private boolean legacyNoted;

    public ChatStreamDecoder(List<String> requestedStops, ConversionReport report) {
        this.requestedStops = List.copyOf(requestedStops);
        this.report = report;
    }

    public List<StreamEvent> decode(SseFrame frame) {
        List<StreamEvent> out = new ArrayList<>(2);
        if (frame.data() == null) {
            return out;
        }
        String data = frame.data().trim();
        if (data.equals("[DONE]")) {
            out.add(new StreamEvent.Done());
            return out;
        }
        JsonNode chunk = F.parseFrame(data, "chunk");
        JsonNode error = chunk.get("error");
        if (error != null && !error.isNull()) {
            String message = error.isTextual() ? error.asText() : error.path("message").asText("upstream stream error");
            throw new TranscodeException.UpstreamWire("upstream stream error: " + ErrorText.bound(message));
        }
        if (!started) {
            started = true;
            String chunkId = F.optString(chunk, "id", "chunk");
            if (chunkId != null && !chunkId.isEmpty()) {
                id = chunkId;
            }
            out.add(new StreamEvent.Started(id));
        }
        JsonNode choices = chunk.get("choices");
        if (choices != null && !choices.isNull()) {
            F.array(choices, "chunk.choices");
            for (JsonNode choice : choices) {
                F.object(choice, "chunk.choices[]");
                JsonNode index = choice.get("index");
                if (index != null && index.isIntegralNumber() && index.asInt() != 0) {
                    continue; // only the first choice is requested (no n > 1)
                }
                delta(choice, out);
            }
        }
        JsonNode usage = chunk.get("usage");
        if (usage != null && !usage.isNull()) {
            out.add(new StreamEvent.UsageReport(ChatUsage.decode(usage, report)));
        }
        return out;
    }

    private void delta(JsonNode choice, List<StreamEvent> out) {
        JsonNode delta = choice.get("delta");
        if (delta != null && !delta.isNull()) {
            F.object(delta, "chunk.choices[].delta");
            String reasoning = ChatResponseDecoder.reasoning(delta, "delta");
            if (reasoning != null && !reasoning.isEmpty()) {
                out.add(new StreamEvent.ReasoningDelta(reasoning));
            }
            String text = ChatResponseDecoder.text(delta.get("content"), "delta.content");
            if (text != null && !text.isEmpty()) {
                out.add(new StreamEvent.TextDelta(text));
            }
            JsonNode calls = delta.get("tool_calls");
            if (calls != null && !calls.isNull()) {
                F.array(calls, "delta.tool_calls");
                for (int i = 0; i < calls.size(); i++) {
                    out.add(toolCall(F.object(calls.get(i), "delta.tool_calls[" + i + "]"), i));
                }
            }
            JsonNode legacy = delta.get("function_call");
            if (legacy != null && !legacy.isNull()) {
                F.object(legacy, "delta.function_call");
                if (!legacyNoted) {
                    legacyNoted = true;
                    report.note(LossKey.LEGACY_FUNCTION_CALL, "delta.function_call");
                }
                String name = F.optString(legacy, "name", "delta.function_call");
                String args = F.optString(legacy, "arguments", "delta.function_call");
                out.add(new StreamEvent.ToolCallDelta(0, name == null ? null : "call_" + id, name, args == null ? "" : args));
            }
        }
        ChatFinish finish = ChatFinish.of(choice, requestedStops);
        if (finish != null) {
            out.add(new StreamEvent.Finished(finish.reason(), finish.sequence()));
        }
    }

    private static StreamEvent.ToolCallDelta toolCall(JsonNode call, int position) {
        Long index = F.optLong(call, "index", "delta.tool_calls[]");
        JsonNode fn = call.get("function");
        String name = null;
        String args = "";
        if (fn != null && !fn.isNull()) {
            F.object(fn, "delta.tool_calls[].function");
            name = F.optString(fn, "name", "delta.tool_calls[].function");
            String a = F.optString(fn, "arguments", "delta.tool_calls[].function");
            args = a == null ? "" : a;
        }
        String id = F.optString(call, "id", "delta.tool_calls[]");
        return new StreamEvent.ToolCallDelta(index == null ? position : (int) Math.max(0, Math.min(index, 1 << 16)),
                id == null || id.isEmpty() ? null : id, name == null || name.isEmpty() ? null : name, args);
    }
}
