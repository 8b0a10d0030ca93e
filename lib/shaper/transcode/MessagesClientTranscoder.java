package shaper.transcode;

import shaper.transcode.chat.ChatRequestRenderer;
import shaper.transcode.chat.ChatResponseDecoder;
import shaper.transcode.chat.ChatStreamDecoder;
import shaper.transcode.ir.Completion;
import shaper.transcode.ir.Conversation;
import shaper.transcode.messages.MessagesErrors;
import shaper.transcode.messages.MessagesRequestDecoder;
import shaper.transcode.messages.MessagesResponseRenderer;
import shaper.transcode.messages.MessagesStreamRenderer;
import shaper.transcode.responses.ResponsesRequestRenderer;
import shaper.transcode.responses.ResponsesResponseDecoder;
import shaper.transcode.responses.ResponsesStreamDecoder;

/**
 * Anthropic Messages clients (Claude Code) on an upstream of another dialect: an OpenAI-compatible
 * Chat Completions server, or an OpenAI Responses server. The client side (decoding, answers,
 * errors) is one; only the upstream's renderer and decoders differ. A Responses upstream needs the
 * {@code tool_schema_strictness} approval (checked at startup): Messages tools cannot say how strict they are.
 */
final class MessagesClientTranscoder implements Transcoder {
    /** The upstream dialect's side of a conversion. */
    enum Upstream {
        CHAT {
            @Override
            byte[] render(Conversation c, TranscodeMapping m, ConversionReport r) {
                return ChatRequestRenderer.render(c, m, r);
            }

            @Override
            Completion decode(byte[] body, Prepared p) {
                return ChatResponseDecoder.decode(body, p.requestedStops(), p.report());
            }

            @Override
            UpstreamStreamDecoder streamDecoder(Prepared p) {
                return new ChatStreamDecoder(p.requestedStops(), p.report());
            }
        },
        RESPONSES {
            @Override
            byte[] render(Conversation c, TranscodeMapping m, ConversionReport r) {
                return ResponsesRequestRenderer.render(c, m, r);
            }

            @Override
            Completion decode(byte[] body, Prepared p) {
                return ResponsesResponseDecoder.decode(body, p.report());
            }

            @Override
            UpstreamStreamDecoder streamDecoder(Prepared p) {
                return new ResponsesStreamDecoder(p.report());
            }
        };

        abstract byte[] render(Conversation c, TranscodeMapping m, ConversionReport r);

        abstract Completion decode(byte[] body, Prepared p);

        abstract UpstreamStreamDecoder streamDecoder(Prepared p);
    }

    private final TranscodeMapping mapping;
    private final Upstream upstream;
    private final ReasoningDisposition reasoning;

    MessagesClientTranscoder(TranscodeMapping mapping, Upstream upstream) {
        this.mapping = mapping;
        this.upstream = upstream;
        this.reasoning = ReasoningDisposition.of(mapping);
    }

    @Override
    public TranscodeMapping mapping() {
        return mapping;
    }

    @Override
    public Prepared prepare(byte[] clientBody, String rawQuery) {
        Intake in = Intake.of(mapping, clientBody, rawQuery);
        Conversation c = MessagesRequestDecoder.decode(clientBody, in.report());
        byte[] body = upstream.render(c, mapping, in.report());
        return new Prepared(body, mapping.route().upstreamPath(), in.query(), c.stream(), c.model(), c.stop(), in.report());
    }

    @Override
    public byte[] answer(byte[] upstreamBody, Prepared p) {
        return MessagesResponseRenderer.render(upstream.decode(upstreamBody, p), p.clientModel(), reasoning, p.report());
    }

    @Override
    public StreamConversion stream(EventSink sink, Prepared p) {
        return new SseConversion(sink, upstream.streamDecoder(p),
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
