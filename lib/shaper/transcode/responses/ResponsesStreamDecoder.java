package shaper.transcode.responses;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.sse.SseFrame;
import shaper.transcode.ConversionReport;
import shaper.transcode.ErrorText;
import shaper.transcode.JsonFields;
import shaper.transcode.LossKey;
import shaper.transcode.TranscodeException;
import shaper.transcode.ir.StreamEvent;

/**
 * One upstream Responses SSE stream's frames to {@link StreamEvent}s (the Messages → Responses
 * direction). Frames are routed by their JSON {@code type}: a frame without an {@code event:} line
 * is accepted (a {@code missing_event_name} note, once), a present name that differs from the type
 * is corrupt wire. Text, refusal and reasoning deltas stream as they come; a function call starts
 * at its {@code output_item.added} and its argument deltas follow by output index. An item whose
 * content arrived only in its {@code .done} event (no deltas) is taken from there, so nothing is lost.
 * {@code response.completed} / {@code response.incomplete} yield the finish, the usage and the end;
 * anything after the first terminal (a repeated terminal chunk) is ignored. {@code response.failed}
 * and {@code error} are upstream failures. Unknown event types are skipped. One instance per stream.
 */
public final class ResponsesStreamDecoder implements shaper.transcode.UpstreamStreamDecoder {
    private static final JsonFields F = JsonFields.UPSTREAM;

    private final ConversionReport report;
    private boolean started;
    private boolean ended;
    private boolean missingNameNoted;
    private boolean logprobsNoted;
    /** Output index to what streamed for it: whether any delta came (so a done event repeats nothing new). */
    private final Map<Integer, Boolean> streamed = new HashMap<>();
    private final Map<Integer, Boolean> calls = new HashMap<>();

    public ResponsesStreamDecoder(ConversionReport report) {
        this.report = report;
    }

    public List<StreamEvent> decode(SseFrame frame) {
        List<StreamEvent> out = new ArrayList<>(2);
        if (frame.data() == null || ended) {
            return out;
        }
        String data = frame.data().trim();
        if (data.equals("[DONE]")) {
            return out;
        }
        JsonNode e = F.parseFrame(data, "event");
        String type = F.string(e, "type", "event");
        if (frame.event() == null) {
            if (!missingNameNoted) {
                missingNameNoted = true;
                report.note(LossKey.MISSING_EVENT_NAME, type);
            }
        } else if (!frame.event().equals(type)) {
            throw F.fail("event name \"" + ErrorText.bound(frame.event()) + "\" differs from its type \"" + ErrorText.bound(type) + "\"");
        }
        if (!started && !type.equals("error")) {
            started = true;
            JsonNode r = e.get("response");
            String id = r != null && r.isObject() ? F.optString(r, "id", "response") : null;
            out.add(new StreamEvent.Started(id == null || id.isEmpty() ? "resp_stream" : id));
        }
        switch (type) {
            case "response.output_text.delta", "response.refusal.delta" -> {
                streamed.put(index(e), true);
                if (!logprobsNoted) {
                    ResponsesOutput.logprobs(e, type, report);
                    logprobsNoted = report.has(LossKey.LOGPROBS);
                }
                out.add(new StreamEvent.TextDelta(F.string(e, "delta", type)));
            }
            case "response.reasoning_text.delta", "response.reasoning_summary_text.delta" -> {
                streamed.put(index(e), true);
                out.add(new StreamEvent.ReasoningDelta(F.string(e, "delta", type)));
            }
            case "response.output_item.added" -> added(e, out);
            case "response.function_call_arguments.delta" -> {
                int i = index(e);
                if (!calls.containsKey(i)) {
                    throw F.fail(type + ": output_index " + i + " is not a function call");
                }
                streamed.put(i, true);
                out.add(new StreamEvent.ToolCallDelta(i, null, null, F.string(e, "delta", type)));
            }
            case "response.output_item.done" -> itemDone(e, out);
            case "response.completed", "response.incomplete" -> {
                JsonNode r = F.object(e.get("response"), type + ".response");
                ResponsesOutput.serviceTier(r, report);
                out.add(new StreamEvent.Finished(ResponsesOutput.stop(r, !calls.isEmpty()), null));
                out.add(new StreamEvent.UsageReport(ResponsesUsage.decode(r.get("usage"), report)));
                out.add(new StreamEvent.Done());
                ended = true;
            }
            case "response.failed" -> throw F.fail("stream failed: " + ErrorText.bound(ResponsesOutput.failure(e.path("response"))));
            case "error" -> throw F.fail("stream error: " + ErrorText.bound(e.has("message") ? e.path("message").asText()
                    : ResponsesOutput.failure(e)));
            default -> {
                // lifecycle events the Messages stream does not need (created, in_progress, content_part.*, *.done)
            }
        }
        return out;
    }

    private void added(JsonNode e, List<StreamEvent> out) {
        JsonNode item = F.object(e.get("item"), "response.output_item.added.item");
        if (!"function_call".equals(item.path("type").asText())) {
            return;
        }
        int i = index(e);
        calls.put(i, true);
        String args = F.optString(item, "arguments", "item");
        if (args != null && !args.isEmpty()) {
            streamed.put(i, true);
        }
        String callId = F.optString(item, "call_id", "item");
        out.add(new StreamEvent.ToolCallDelta(i, callId == null || callId.isEmpty() ? null : callId, F.string(item, "name", "item"),
                args == null ? "" : args));
    }

    private void itemDone(JsonNode e, List<StreamEvent> out) {
        int i = index(e);
        if (streamed.containsKey(i)) {
            return;
        }
        JsonNode item = F.object(e.get("item"), "response.output_item.done.item");
        String type = item.path("type").asText();
        switch (type) {
            case "message" -> {
                JsonNode parts = item.get("content");
                if (parts != null && parts.isArray()) {
                    for (int j = 0; j < parts.size(); j++) {
                        String t = ResponsesOutput.text(parts.get(j), "item.content[" + j + "]");
                        if (!t.isEmpty()) {
                            out.add(new StreamEvent.TextDelta(t));
                        }
                    }
                }
            }
            case "reasoning" -> {
                String t = ResponsesOutput.reasoning(item, "item");
                if (!t.isEmpty()) {
                    out.add(new StreamEvent.ReasoningDelta(t));
                }
            }
            case "function_call" -> {
                if (!calls.containsKey(i)) {
                    calls.put(i, true);
                    out.add(new StreamEvent.ToolCallDelta(i, F.optString(item, "call_id", "item"), F.string(item, "name", "item"), ""));
                }
                out.add(new StreamEvent.ToolCallDelta(i, null, null, F.string(item, "arguments", "item")));
            }
            default -> report.loss(LossKey.OUTPUT_ITEM_BOUNDARIES, "output[" + i + "]"); // a hosted tool item
        }
        streamed.put(i, true);
    }

    private static int index(JsonNode e) {
        Long i = F.optLong(e, "output_index", "event");
        if (i == null) {
            return 0;
        }
        if (i < 0 || i > 1 << 16) {
            throw F.fail("event.output_index: " + i + " (expected: 0.." + (1 << 16) + ")");
        }
        return i.intValue();
    }
}
