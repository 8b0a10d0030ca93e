package shaper.transcode.pipeline;

import shaper.sse.SseFrame;
import shaper.sse.SseFrameParser;
import shaper.transcode.ClientStreamRenderer;
import shaper.transcode.EventSink;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.UpstreamStreamDecoder;
import shaper.transcode.ir.StreamEvent;

/**
 * One streamed exchange of any direction: upstream SSE bytes through the frame parser, the
 * upstream dialect's decoder and the client dialect's renderer. Memory is bounded: a frame still
 * incomplete past {@link TranscodeLimits#sseFrameBytes()} is an upstream wire failure.
 */
final class SseConversion implements StreamConversion {
    private final SseFrameParser parser = new SseFrameParser();
    private final UpstreamStreamDecoder decoder;
    private final ClientStreamRenderer renderer;
    private final EventSink sink;
    private final long frameLimit;

    SseConversion(EventSink sink, UpstreamStreamDecoder decoder, ClientStreamRenderer renderer, TranscodeLimits limits) {
        this.sink = sink;
        this.decoder = decoder;
        this.renderer = renderer;
        this.frameLimit = limits.sseFrameBytes();
    }

    @Override
    public void feed(byte[] bytes, int off, int len) {
        for (SseFrame frame : parser.feed(bytes, off, len)) {
            for (StreamEvent e : decoder.decode(frame)) {
                renderer.accept(e);
            }
        }
        if (parser.consumedBytes() - parser.completedBytes() > frameLimit) {
            throw new TranscodeException.UpstreamWire("upstream SSE frame exceeds " + frameLimit + " bytes");
        }
        renderer.flushed();
    }

    @Override
    public void end() {
        parser.finish().ifPresent(frame -> decoder.decode(frame).forEach(renderer::accept));
        renderer.endOfStream();
        sink.flush();
    }

    @Override
    public void fail(String type, String message) {
        renderer.fail(type, message);
    }

    @Override
    public boolean started() {
        return renderer.started() || renderer.terminated();
    }
}
