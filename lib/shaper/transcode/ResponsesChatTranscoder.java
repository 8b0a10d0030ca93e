package shaper.transcode;

import java.time.Clock;

import shaper.transcode.chat.ChatRequestRenderer;
import shaper.transcode.chat.ChatResponseDecoder;
import shaper.transcode.chat.ChatStreamDecoder;
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
        Intake in = Intake.of(mapping, clientBody, rawQuery);
        ResponsesRequestDecoder.Decoded d = ResponsesRequestDecoder.decode(clientBody, in.report());
        byte[] body = ChatRequestRenderer.render(d.conversation(), mapping, in.report());
        return new Prepared(body, mapping.route().upstreamPath(), in.query(), d.conversation().stream(), d.conversation().model(),
                d.conversation().stop(), in.report(), d.toolNames());
    }

    @Override
    public byte[] answer(byte[] upstreamBody, Prepared p) {
        return ResponsesResponseRenderer.render(ChatResponseDecoder.decode(upstreamBody, p.requestedStops(), p.report()),
                p.clientModel(), clock.instant().getEpochSecond(), reasoning, p.toolNames(), p.report());
    }

    @Override
    public StreamConversion stream(EventSink sink, Prepared p) {
        return new SseConversion(sink, new ChatStreamDecoder(p.requestedStops(), p.report()),
                new ResponsesStreamRenderer(sink, p.clientModel(), clock.instant().getEpochSecond(), reasoning, p.toolNames(),
                        p.report(), mapping.limits()), mapping.limits());
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
}
