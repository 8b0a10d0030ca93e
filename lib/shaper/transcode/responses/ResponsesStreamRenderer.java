package shaper.transcode.responses;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.EventSink;
import shaper.transcode.FlatToolNames;
import shaper.transcode.ReasoningDisposition;
import shaper.transcode.StreamRendererBase;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.ir.StreamEvent;

/**
 * Canonical stream events to the Responses event lifecycle:
 *
 * <pre>
 * response.created, response.in_progress
 *   per item, opened in output-index order 0,1,2...:
 *     response.output_item.added
 *     message:   response.content_part.added, response.output_text.delta*     (reasoning: reasoning_text.*)
 *     call:      response.function_call_arguments.delta*
 *   at the finish reason, every open item in output-index order:
 *     message:   response.output_text.done, response.content_part.done      (call: function_call_arguments.done)
 *     response.output_item.done
 * response.completed | response.incomplete        held until [DONE] or end of stream; exactly once
 * response.failed                                 instead, when the stream fails; never after a terminal
 * </pre>
 *
 * Every event carries a {@code sequence_number} one above the previous, from 0. Items stay open
 * side by side (each event names its item and output index), so interleaved tool calls stream live
 * without holding; a reasoning item closes when any other item starts. What a done event repeats
 * (the full text or arguments) is held per item, bounded by {@link TranscodeLimits#partBytes()}.
 * One instance per stream; not thread-safe.
 */
public final class ResponsesStreamRenderer extends StreamRendererBase {
    private static final JsonNodeFactory N = JsonNodeFactory.instance;
    private static final int MAX_ITEMS = 256;

    private enum Kind { MESSAGE, CALL, REASONING }

    /** One output item and what its done events repeat. */
    private static final class Item {
        final Kind kind;
        final int index;
        final String id;
        final String callId;
        final String name;
        final StringBuilder text = new StringBuilder();
        boolean open = true;

        Item(Kind kind, int index, String id, String callId, String name) {
            this.kind = kind;
            this.index = index;
            this.id = id;
            this.callId = callId;
            this.name = name;
        }
    }

    private final long createdAt;
    private final FlatToolNames names;

    private int sequence;
    private String responseId = "resp_transcoded";
    private final List<Item> items = new ArrayList<>();
    private final Map<Integer, Item> calls = new HashMap<>();
    private Item message;
    private Item thinking;

    public ResponsesStreamRenderer(EventSink sink, String clientModel, long createdAt, ReasoningDisposition reasoning, FlatToolNames names,
                                   ConversionReport report, TranscodeLimits limits) {
        super(sink, clientModel, reasoning, report, limits, "its end");
        this.createdAt = createdAt;
        this.names = names;
    }

    @Override
    protected void started(String upstreamId) {
        responseId = ResponsesShapes.responseId(upstreamId);
        start();
    }

    /** One {@code response.failed} (after {@code response.created} if nothing was sent yet). */
    @Override
    protected void failure(String code, String message) {
        start();
        ObjectNode r = envelope("failed");
        r.set("error", ResponsesErrors.failure(code, message));
        emit("response.failed", N.objectNode().set("response", r));
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        emit("response.created", N.objectNode().set("response", envelope("in_progress")));
        emit("response.in_progress", N.objectNode().set("response", envelope("in_progress")));
    }

    @Override
    protected void text(String text) {
        if (stop != null) {
            return;
        }
        start();
        closeThinking();
        if (message == null) {
            message = open(Kind.MESSAGE, "msg", null, null);
            emit("response.content_part.added", itemRef(message).put("content_index", 0).set("part", ResponsesShapes.outputText("")));
        }
        hold(message, text);
        emit("response.output_text.delta", itemRef(message).put("content_index", 0).put("delta", text).set("logprobs", N.arrayNode()));
    }

    @Override
    protected void thinking(String text) {
        start();
        if (thinking == null) {
            thinking = open(Kind.REASONING, "rs", null, null);
            emit("response.content_part.added", itemRef(thinking).put("content_index", 0)
                    .set("part", N.objectNode().put("type", "reasoning_text").put("text", "")));
        }
        hold(thinking, text);
        emit("response.reasoning_text.delta", itemRef(thinking).put("content_index", 0).put("delta", text));
    }

    @Override
    protected void tool(StreamEvent.ToolCallDelta d) {
        if (stop != null) {
            return;
        }
        start();
        closeThinking();
        Item call = calls.get(d.index());
        if (call == null) {
            if (d.name() == null) {
                throw new TranscodeException.UpstreamWire("upstream tool call " + d.index() + " started without a function name");
            }
            String callId = d.id() != null ? d.id() : "call_" + responseId.substring("resp_".length()) + "_" + d.index();
            call = open(Kind.CALL, "fc", callId, d.name());
            calls.put(d.index(), call);
        }
        if (!d.arguments().isEmpty()) {
            hold(call, d.arguments());
            emit("response.function_call_arguments.delta", itemRef(call).put("delta", d.arguments()));
        }
    }

    @Override
    protected void finish(StreamEvent.Finished f) {
        if (stop != null) {
            return; // a repeated terminal chunk: the first finish reason counts
        }
        start();
        for (Item item : items) {
            close(item);
        }
        stop = f.reason();
    }

    @Override
    protected void terminal() {
        ObjectNode r = envelope("completed");
        ResponsesShapes.finish(r, stop);
        ResponsesUsage.write(r, usage, report);
        emit(ResponsesShapes.terminalEvent(stop), N.objectNode().set("response", r));
        terminated = true;
        sink.flush();
    }

    private Item open(Kind kind, String prefix, String callId, String name) {
        if (items.size() >= MAX_ITEMS) {
            throw new TranscodeException.UpstreamWire("upstream stream opened more than " + MAX_ITEMS + " output items");
        }
        int index = items.size();
        Item item = new Item(kind, index, ResponsesShapes.itemId(prefix, responseId, index), callId, name);
        items.add(item);
        emit("response.output_item.added", N.objectNode().put("output_index", index).set("item", shape(item, "in_progress")));
        return item;
    }

    private void closeThinking() {
        if (thinking != null) {
            close(thinking);
            thinking = null;
        }
    }

    private void close(Item item) {
        if (!item.open) {
            return;
        }
        item.open = false;
        String text = item.text.toString();
        switch (item.kind) {
            case MESSAGE -> {
                emit("response.output_text.done", itemRef(item).put("content_index", 0).put("text", text).set("logprobs", N.arrayNode()));
                emit("response.content_part.done", itemRef(item).put("content_index", 0).set("part", ResponsesShapes.outputText(text)));
            }
            case REASONING -> {
                emit("response.reasoning_text.done", itemRef(item).put("content_index", 0).put("text", text));
                emit("response.content_part.done", itemRef(item).put("content_index", 0)
                        .set("part", N.objectNode().put("type", "reasoning_text").put("text", text)));
            }
            case CALL -> emit("response.function_call_arguments.done", itemRef(item).put("arguments", arguments(item)));
        }
        emit("response.output_item.done", N.objectNode().put("output_index", item.index).set("item", shape(item, "completed")));
    }

    private ObjectNode shape(Item item, String status) {
        boolean done = status.equals("completed");
        return switch (item.kind) {
            case MESSAGE -> ResponsesShapes.message(item.id, status, done ? item.text.toString() : null);
            case REASONING -> ResponsesShapes.reasoning(item.id, done ? item.text.toString() : null);
            case CALL -> ResponsesShapes.functionCall(item.id, item.callId, item.name, names, done ? arguments(item) : "", status);
        };
    }

    private static String arguments(Item call) {
        return call.text.toString().isBlank() ? "{}" : call.text.toString();
    }

    private ObjectNode envelope(String status) {
        ObjectNode r = ResponsesShapes.response(responseId, createdAt, clientModel, status);
        if (!status.equals("in_progress")) {
            for (Item item : items) {
                r.withArray("output").add(shape(item, item.open ? "incomplete" : "completed"));
            }
        }
        return r;
    }

    private ObjectNode itemRef(Item item) {
        return N.objectNode().put("item_id", item.id).put("output_index", item.index);
    }

    private void hold(Item item, String text) {
        hold(item.text, text);
    }

    private void emit(String type, ObjectNode body) {
        ObjectNode e = N.objectNode().put("type", type);
        e.setAll(body);
        e.put("sequence_number", sequence++);
        sink.event(type, e.toString());
    }
}
