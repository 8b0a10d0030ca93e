package shaper.transcode;

import java.time.Clock;

import shaper.sse.SseFrame;
import shaper.sse.SseFrameParser;
import shaper.transcode.chat.ChatRequestRenderer;
import shaper.transcode.chat.ChatResponseDecoder;
import shaper.transcode.chat.ChatStreamDecoder;
import shaper.transcode.ir.StreamEvent;
import shaper.transcode.responses.ResponsesErrors;
import shaper.transcode.responses.ResponsesRequestDecoder;
import shaper.transcode.responses.ResponsesResponseRenderer;
import shaper.transcode.responses.ResponsesStreamRenderer;

/**
 * OpenAI Responses clients (Codex, the OpenAI SDKs) on a Chat Completions upstream. The clock
 * stamps {@code created_at}; tests inject a fixed one.
 */
final class ResponsesChatTranscoder implements Transcoder {
    private final TranscodeMapping mapping;
    private final ReasoningDisposition reasoning;
    private final Clock clock;

    ResponsesChatTranscoder(TranscodeMapping mapping, Clock clock) {
        this.mapping = mapping;
        this.reasoning = ReasoningDisposition.of(mapping);
        this.clock = clock;
    }

    @Override
    public TranscodeMapping mapping() {
        return mapping;
    }

    @Override
    public Prepared prepare(byte[] clientBody, String rawQuery) {
        if (clientBody.length > mapping.limits().requestBytes()) {
            throw new TranscodeException.TooLarge();
        }
        String query = ClientQuery.filter(rawQuery, mapping.allowedQuery());
        ConversionReport report = new ConversionReport(mapping.policy());
        ResponsesRequestDecoder.Decoded d = ResponsesRequestDecoder.decode(clientBody, report);
        byte[] body = ChatRequestRenderer.render(d.conversation(), mapping, report);
        return new Prepared(body, mapping.route().upstreamPath(), query, d.conversation().stream(), d.conversation().model(),
                d.conversation().stop(), report, d.toolNames());
    }

    @Override
    public byte[] answer(byte[] upstreamBody, Prepared p) {
        return ResponsesResponseRenderer.render(ChatResponseDecoder.decode(upstreamBody, p.requestedStops(), p.report()),
                p.clientModel(), clock.instant().getEpochSecond(), reasoning, p.toolNames(), p.report());
    }

    @Override
    public StreamConversion stream(EventSink sink, Prepared p) {
        return new Session(sink, p);
    }

    @Override
    public byte[] error(UpstreamError e) {
        return ResponsesErrors.body(e);
    }

    @Override
    public byte[] error(TranscodeException e) {
        return ResponsesErrors.body(e);
    }

    @Override
    public String errorType(int status) {
        return ResponsesErrors.typeFor(status);
    }

    /** A Responses stream that failed before it began: {@code response.created}, then one {@code response.failed}. */
    @Override
    public void earlyError(EventSink sink, String type, String message) {
        new ResponsesStreamRenderer(sink, "unknown", clock.instant().getEpochSecond(), reasoning, FlatToolNames.NONE,
                new ConversionReport(mapping.policy()), mapping.limits()).fail(type, message);
    }

    /** Chat SSE bytes through the frame parser, the chunk decoder and the Responses lifecycle. */
    private final class Session implements StreamConversion {
        private final SseFrameParser parser = new SseFrameParser();
        private final ChatStreamDecoder decoder;
        private final ResponsesStreamRenderer renderer;
        private final EventSink sink;

        Session(EventSink sink, Prepared p) {
            this.sink = sink;
            this.decoder = new ChatStreamDecoder(p.requestedStops(), p.report());
            this.renderer = new ResponsesStreamRenderer(sink, p.clientModel(), clock.instant().getEpochSecond(), reasoning, p.toolNames(),
                    p.report(), mapping.limits());
        }

        @Override
        public void feed(byte[] bytes, int off, int len) {
            for (SseFrame frame : parser.feed(bytes, off, len)) {
                for (StreamEvent e : decoder.decode(frame)) {
                    renderer.accept(e);
                }
            }
            if (parser.consumedBytes() - parser.completedBytes() > mapping.limits().sseFrameBytes()) {
                throw new TranscodeException.UpstreamWire("upstream SSE frame exceeds " + mapping.limits().sseFrameBytes() + " bytes");
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
}
