package shaper.transcode;

import shaper.transcode.chat.ChatRequestRenderer;
import shaper.transcode.chat.ChatResponseDecoder;
import shaper.transcode.chat.ChatStreamDecoder;
import shaper.transcode.ir.Conversation;
import shaper.transcode.messages.MessagesErrors;
import shaper.transcode.messages.MessagesRequestDecoder;
import shaper.transcode.messages.MessagesResponseRenderer;
import shaper.transcode.messages.MessagesStreamRenderer;

/** Anthropic Messages clients on an OpenAI-compatible Chat Completions upstream. */
final class MessagesChatTranscoder implements Transcoder {
    private final TranscodeMapping mapping;
    private final ReasoningDisposition reasoning;

    MessagesChatTranscoder(TranscodeMapping mapping) {
        this.mapping = mapping;
        this.reasoning = ReasoningDisposition.of(mapping);
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
        Conversation c = MessagesRequestDecoder.decode(clientBody, report);
        byte[] body = ChatRequestRenderer.render(c, mapping, report);
        return new Prepared(body, mapping.route().upstreamPath(), query, c.stream(), c.model(), c.stop(), report);
    }

    @Override
    public byte[] answer(byte[] upstreamBody, Prepared p) {
        return MessagesResponseRenderer.render(ChatResponseDecoder.decode(upstreamBody, p.requestedStops(), p.report()),
                p.clientModel(), reasoning, p.report());
    }

    @Override
    public StreamConversion stream(EventSink sink, Prepared p) {
        return new SseConversion(sink, new ChatStreamDecoder(p.requestedStops(), p.report()),
                new MessagesStreamRenderer(sink, p.clientModel(), reasoning, p.report(), mapping.limits()), mapping.limits());
    }

    @Override
    public byte[] error(UpstreamError e) {
        return MessagesErrors.body(e);
    }

    @Override
    public byte[] error(TranscodeException e) {
        return MessagesErrors.body(e);
    }

    @Override
    public String errorType(int status) {
        return MessagesErrors.typeFor(status);
    }
}
