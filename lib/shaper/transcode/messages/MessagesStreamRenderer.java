package shaper.transcode.messages;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import shaper.transcode.ConversionReport;
import shaper.transcode.EventSink;
import shaper.transcode.ReasoningDisposition;
import shaper.transcode.StreamRendererBase;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.chat.ToolArguments;
import shaper.transcode.ir.StopReason;
import shaper.transcode.ir.StreamEvent;

/**
 * Canonical stream events to the Anthropic event lifecycle:
 *
 * <pre>
 * message_start
 *   (content_block_start, content_block_delta*, content_block_stop)*   one block open at a time, indexes 0,1,2...
 * message_delta {stop_reason, usage}                                    held until [DONE] or end of stream
 * message_stop                                                          exactly once
 * </pre>
 *
 * Text and thinking blocks close when another kind starts. A tool call streams live as
 * {@code input_json_delta}; fragments of a <em>different</em> tool call (or text) that arrive while
 * one is open are held (bounded per part) and released in order once the finish reason arrives, so
 * interleaved calls still reach the client whole and in order. A stream that ends without a finish
 * reason, or fails, ends in one {@code error} event and never {@code message_stop}. Every event is
 * written as soon as it is produced; {@link #flushed} marks the end of one upstream frame.
 * One instance per stream; not thread-safe.
 */
public final class MessagesStreamRenderer extends StreamRendererBase {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private enum Kind { TEXT, THINKING, TOOL }

    /** A block not yet sent, or the live one's accumulated arguments. */
    private static final class Held {
        final String id;
        final String name;
        final StringBuilder text = new StringBuilder();

        Held(String id, String name) {
            this.id = id;
            this.name = name;
        }
    }

    private String messageId = "msg_transcoded";
    private Kind live;
    private int liveToolIndex = -1;
    private StringBuilder liveArguments;
    private int nextBlock;
    private final Map<Integer, Held> heldTools = new LinkedHashMap<>();
    private final StringBuilder heldText = new StringBuilder();
    private final List<Integer> seenTools = new ArrayList<>();
    private String stopSequence;
    private String streamId = "stream";

    public MessagesStreamRenderer(EventSink sink, String clientModel, ReasoningDisposition reasoning, ConversionReport report,
                                  TranscodeLimits limits) {
        super(sink, clientModel, reasoning, report, limits, "[DONE]");
    }

    @Override
    protected void started(String upstreamId) {
        streamId = upstreamId;
        messageId = MessagesUsage.messageId(upstreamId);
        start();
    }

    /** One {@code error} event (never {@code message_stop}). */
    @Override
    protected void failure(String type, String message) {
        sink.event("error", MessagesErrors.event(type, message));
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        ObjectNode root = MAPPER.createObjectNode().put("type", "message_start");
        ObjectNode msg = root.putObject("message");
        msg.put("id", messageId).put("type", "message").put("role", "assistant").put("model", clientModel);
        msg.putArray("content");
        msg.putNull("stop_reason").putNull("stop_sequence");
        msg.putObject("usage").put("input_tokens", 0).put("output_tokens", 0)
                .putNull("cache_creation_input_tokens").putNull("cache_read_input_tokens");
        emit("message_start", root);
    }

    @Override
    protected void text(String text) {
        if (stop != null) {
            return;
        }
        start();
        if (live == Kind.TOOL) {
            hold(heldText, text);
            return;
        }
        if (live != Kind.TEXT) {
            closeLive();
            open(Kind.TEXT, MAPPER.createObjectNode().put("type", "text").put("text", ""));
        }
        delta(MAPPER.createObjectNode().put("type", "text_delta").put("text", text));
    }

    @Override
    protected void thinking(String text) {
        start();
        if (live == Kind.TOOL) {
            hold(heldText, text); // reasoning after a tool call has begun: kept as held text, in order
            return;
        }
        if (live != Kind.THINKING) {
            closeLive();
            open(Kind.THINKING, MAPPER.createObjectNode().put("type", "thinking").put("thinking", "").put("signature", ""));
        }
        delta(MAPPER.createObjectNode().put("type", "thinking_delta").put("thinking", text));
    }

    @Override
    protected void tool(StreamEvent.ToolCallDelta d) {
        if (stop != null) {
            return;
        }
        start();
        if (live == Kind.TOOL && d.index() == liveToolIndex) {
            if (!d.arguments().isEmpty()) {
                hold(liveArguments, d.arguments());
                delta(MAPPER.createObjectNode().put("type", "input_json_delta").put("partial_json", d.arguments()));
            }
            return;
        }
        if (seenTools.contains(d.index()) && !heldTools.containsKey(d.index())) {
            throw new TranscodeException.UpstreamWire("upstream tool call " + d.index() + " continued after it was closed");
        }
        if (live == Kind.TOOL) {
            Held h = heldTools.get(d.index());
            if (h == null) {
                if (heldTools.size() >= 256) {
                    throw new TranscodeException.UpstreamWire("upstream stream opened too many tool calls");
                }
                h = new Held(idOf(d), nameOf(d));
                heldTools.put(d.index(), h);
                seenTools.add(d.index());
            }
            hold(h.text, d.arguments());
            return;
        }
        closeLive();
        seenTools.add(d.index());
        openTool(d.index(), idOf(d), nameOf(d));
        if (!d.arguments().isEmpty()) {
            hold(liveArguments, d.arguments());
            delta(MAPPER.createObjectNode().put("type", "input_json_delta").put("partial_json", d.arguments()));
        }
    }

    @Override
    protected void finish(StreamEvent.Finished f) {
        if (stop != null) {
            return; // a repeated terminal chunk: the first finish reason counts
        }
        start();
        closeLive();
        if (heldText.length() > 0) {
            String text = heldText.toString();
            heldText.setLength(0);
            open(Kind.TEXT, MAPPER.createObjectNode().put("type", "text").put("text", ""));
            for (int i = 0; i < text.length(); i += TranscodeLimits.RELEASE_PIECE_CHARS) {
                delta(MAPPER.createObjectNode().put("type", "text_delta")
                        .put("text", text.substring(i, Math.min(text.length(), i + TranscodeLimits.RELEASE_PIECE_CHARS))));
            }
            closeLive();
        }
        for (Map.Entry<Integer, Held> e : heldTools.entrySet()) {
            Held h = e.getValue();
            openTool(e.getKey(), h.id, h.name);
            String args = h.text.toString();
            liveArguments.append(args);
            for (int i = 0; i < args.length(); i += TranscodeLimits.RELEASE_PIECE_CHARS) {
                delta(MAPPER.createObjectNode().put("type", "input_json_delta")
                        .put("partial_json", args.substring(i, Math.min(args.length(), i + TranscodeLimits.RELEASE_PIECE_CHARS))));
            }
            closeLive();
        }
        heldTools.clear();
        stop = f.reason();
        stopSequence = f.stopSequence();
        if (stop == StopReason.END_TURN && !seenTools.isEmpty()) {
            stop = StopReason.TOOL_USE;
        }
    }

    @Override
    protected void terminal() {
        ObjectNode delta = MAPPER.createObjectNode().put("type", "message_delta");
        ObjectNode d = delta.putObject("delta").put("stop_reason", MessagesUsage.stopReason(stop));
        if (stopSequence != null) {
            d.put("stop_sequence", stopSequence);
        } else {
            d.putNull("stop_sequence");
        }
        MessagesUsage.write(delta.putObject("usage"), usage, report);
        emit("message_delta", delta);
        emit("message_stop", MAPPER.createObjectNode().put("type", "message_stop"));
        terminated = true;
        sink.flush();
    }

    private void openTool(int chatIndex, String id, String name) {
        ObjectNode block = MAPPER.createObjectNode().put("type", "tool_use").put("id", id).put("name", name);
        block.putObject("input");
        open(Kind.TOOL, block);
        liveToolIndex = chatIndex;
        liveArguments = new StringBuilder();
    }

    private void open(Kind kind, ObjectNode block) {
        ObjectNode e = MAPPER.createObjectNode().put("type", "content_block_start").put("index", nextBlock);
        e.set("content_block", block);
        emit("content_block_start", e);
        live = kind;
    }

    private void delta(ObjectNode delta) {
        ObjectNode e = MAPPER.createObjectNode().put("type", "content_block_delta").put("index", nextBlock);
        e.set("delta", delta);
        emit("content_block_delta", e);
    }

    private void closeLive() {
        if (live == null) {
            return;
        }
        if (live == Kind.THINKING) {
            delta(MAPPER.createObjectNode().put("type", "signature_delta").put("signature", MessagesRequestDecoder.SYNTHETIC_SIGNATURE));
        }
        if (live == Kind.TOOL) {
            ToolArguments.normalize(liveArguments.toString());
            liveArguments = null;
            liveToolIndex = -1;
        }
        emit("content_block_stop", MAPPER.createObjectNode().put("type", "content_block_stop").put("index", nextBlock));
        nextBlock++;
        live = null;
    }

    private String idOf(StreamEvent.ToolCallDelta d) {
        return d.id() != null ? d.id() : "toolu_" + streamId.replaceAll("[^A-Za-z0-9_-]", "") + "_" + d.index();
    }

    private static String nameOf(StreamEvent.ToolCallDelta d) {
        if (d.name() == null) {
            throw new TranscodeException.UpstreamWire("upstream tool call " + d.index() + " started without a function name");
        }
        return d.name();
    }

    private void emit(String name, ObjectNode json) {
        sink.event(name, json.toString());
    }
}
