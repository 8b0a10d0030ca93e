package shaper.transcode.pipeline;

import shaper.transcode.ConversionReport;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.UpstreamStreamDecoder;
import shaper.transcode.chat.ChatRequestRenderer;
import shaper.transcode.chat.ChatResponseDecoder;
import shaper.transcode.chat.ChatStreamDecoder;
import shaper.transcode.ir.Completion;
import shaper.transcode.ir.Conversation;
import shaper.transcode.responses.ResponsesRequestRenderer;
import shaper.transcode.responses.ResponsesResponseDecoder;
import shaper.transcode.responses.ResponsesStreamDecoder;

/**
 * The upstream dialect's half of a conversion: the IR rendered as its request, its answer (JSON or
 * stream) decoded back to the IR. Whatever the client speaks, this half is the same.
 */
enum UpstreamSide {
    /** An OpenAI-compatible Chat Completions server. */
    CHAT,
    /** An OpenAI Responses server. */
    RESPONSES;

    byte[] render(Conversation c, TranscodeMapping m, ConversionReport r) {
        return switch (this) {
            case CHAT -> ChatRequestRenderer.render(c, m, r);
            case RESPONSES -> ResponsesRequestRenderer.render(c, m, r);
        };
    }

    Completion decode(byte[] body, Prepared p) {
        return switch (this) {
            case CHAT -> ChatResponseDecoder.decode(body, p.requestedStops(), p.report());
            case RESPONSES -> ResponsesResponseDecoder.decode(body, p.report());
        };
    }

    UpstreamStreamDecoder streamDecoder(Prepared p) {
        return switch (this) {
            case CHAT -> new ChatStreamDecoder(p.requestedStops(), p.report());
            case RESPONSES -> new ResponsesStreamDecoder(p.report());
        };
    }
}
