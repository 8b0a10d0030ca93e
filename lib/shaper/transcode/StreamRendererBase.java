package shaper.transcode;

import shaper.transcode.ir.StopReason;
import shaper.transcode.ir.StreamEvent;
import shaper.transcode.ir.Usage;

/**
 * The part of a client-dialect stream renderer that does not depend on the dialect: dispatching IR
 * events, the started/terminated flags, the first finish reason, merged usage, the reasoning
 * disposition (text, dropped with one loss record, or the dialect's thinking form), the bounded
 * held state, and the end-of-stream rule (after a finish reason: a note and the terminal; before
 * one: an upstream failure). It exists so the Messages and Responses renderers keep only their
 * own event shapes instead of each carrying a copy of this. One instance per stream; not thread-safe.
 */
public abstract class StreamRendererBase implements ClientStreamRenderer {
    protected final EventSink sink;
    protected final String clientModel;
    protected final ConversionReport report;
    private final ReasoningDisposition reasoning;
    private final int partBytes;
    /** How the dialect's upstream end marker reads in an error: {@code [DONE]}. */
    private final String endMarker;

    protected boolean started;
    protected boolean terminated;
    protected StopReason stop;
    protected Usage usage = Usage.UNKNOWN;
    private boolean reasoningLossRecorded;

    protected StreamRendererBase(EventSink sink, String clientModel, ReasoningDisposition reasoning, ConversionReport report,
                                 TranscodeLimits limits, String endMarker) {
        this.endMarker = endMarker;
        this.sink = sink;
        this.clientModel = clientModel;
        this.reasoning = reasoning;
        this.report = report;
        this.partBytes = limits.partBytes();
    }

    /** Whether the stream has reached its one terminal (success or error). */
    public final boolean terminated() {
        return terminated;
    }

    /** Whether any event has been written. */
    public final boolean started() {
        return started;
    }

    public final void accept(StreamEvent e) {
        if (terminated) {
            return;
        }
        switch (e) {
            case StreamEvent.Started s -> started(s.id());
            case StreamEvent.TextDelta t -> text(t.text());
            case StreamEvent.ReasoningDelta r -> reasoning(r.text());
            case StreamEvent.ToolCallDelta d -> tool(d);
            case StreamEvent.Finished f -> finish(f);
            case StreamEvent.UsageReport u -> usage = usage.refinedBy(u.usage());
            case StreamEvent.Done d -> {
                if (stop == null) {
                    throw new TranscodeException.UpstreamWire("upstream stream sent " + endMarker + " before a finish reason");
                }
                terminal();
            }
        }
    }

    /** The end of one upstream frame: what it produced goes to the client now. */
    public final void flushed() {
        sink.flush();
    }

    /**
     * The upstream stream ended. After a finish reason without its end marker the held terminal is
     * released (a note); before any finish reason the stream was cut: an upstream failure.
     */
    public final void endOfStream() {
        if (terminated) {
            return;
        }
        if (stop == null) {
            throw new TranscodeException.UpstreamWire("upstream stream ended before a finish reason");
        }
        report.note(LossKey.MISSING_STREAM_SENTINEL, "stream");
        terminal();
    }

    /** Ends the stream with one error event in the client's dialect, unless it already ended. */
    public final void fail(String type, String message) {
        if (terminated) {
            return;
        }
        terminated = true;
        failure(type, message);
        sink.flush();
    }

    private void reasoning(String text) {
        if (stop != null) {
            return;
        }
        switch (reasoning) {
            case TEXT -> text(text);
            case DROP -> {
                if (!reasoningLossRecorded) {
                    reasoningLossRecorded = true;
                    report.loss(LossKey.PROVIDER_REASONING_TEXT, "delta.reasoning_content");
                }
            }
            case THINKING -> thinking(text);
        }
    }

    /** Appends to held state, failing the stream when one part outgrows {@link TranscodeLimits#partBytes()}. */
    protected final void hold(StringBuilder buffer, String text) {
        if ((long) buffer.length() + text.length() > partBytes) {
            throw new TranscodeException.UpstreamWire("upstream streamed part exceeds " + partBytes + " bytes of held state");
        }
        buffer.append(text);
    }

    /** The upstream stream's id arrived: open the client's stream. */
    protected abstract void started(String upstreamId);

    protected abstract void text(String text);

    /** Reasoning text rendered in the dialect's own thinking form (the THINKING disposition). */
    protected abstract void thinking(String text);

    protected abstract void tool(StreamEvent.ToolCallDelta d);

    protected abstract void finish(StreamEvent.Finished f);

    /** Writes the success terminal and marks the stream terminated. */
    protected abstract void terminal();

    /** Writes the dialect's error terminal, with whatever must come before it. */
    protected abstract void failure(String type, String message);
}
