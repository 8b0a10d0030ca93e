package shaper.transcode.pipeline;

import shaper.transcode.ClientStreamRenderer;
import shaper.transcode.ConversionReport;
import shaper.transcode.EventSink;
import shaper.transcode.FlatToolNames;
import shaper.transcode.ReasoningDisposition;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.UpstreamError;
import shaper.transcode.ir.Completion;
import shaper.transcode.ir.Conversation;
import shaper.transcode.messages.MessagesErrors;
import shaper.transcode.messages.MessagesRequestDecoder;
import shaper.transcode.messages.MessagesResponseRenderer;
import shaper.transcode.messages.MessagesStreamRenderer;
import shaper.transcode.responses.ResponsesErrors;
import shaper.transcode.responses.ResponsesRequestDecoder;
import shaper.transcode.responses.ResponsesResponseRenderer;
import shaper.transcode.responses.ResponsesStreamRenderer;

/**
 * The client dialect's half of a conversion: its request decoded to the IR, the IR's answer (JSON
 * or stream) rendered back, and errors in its envelope. Whatever the upstream speaks, this half is
 * the same. A Responses answer carries {@code created_at}, so its renderers take that time.
 */
enum ClientSide {
    /** Anthropic Messages clients (Claude Code). */
    MESSAGES,
    /** OpenAI Responses clients (Codex, the OpenAI SDKs). */
    RESPONSES;

    /**
     * A decoded client request.
     *
     * @param toolNames flat tool names to map back to the client's namespaces ({@link FlatToolNames#NONE} for Messages)
     */
    record Request(Conversation conversation, FlatToolNames toolNames) {
    }

    Request decode(byte[] body, ConversionReport r) {
        return switch (this) {
            case MESSAGES -> new Request(MessagesRequestDecoder.decode(body, r), FlatToolNames.NONE);
            case RESPONSES -> {
                ResponsesRequestDecoder.Decoded d = ResponsesRequestDecoder.decode(body, r);
                yield new Request(d.conversation(), d.toolNames());
            }
        };
    }

    byte[] answer(Completion c, Prepared p, ReasoningDisposition reasoning, long createdAt) {
        return switch (this) {
            case MESSAGES -> MessagesResponseRenderer.render(c, p.clientModel(), reasoning, p.report());
            case RESPONSES -> ResponsesResponseRenderer.render(c, p.clientModel(), createdAt, reasoning, p.toolNames(), p.report());
        };
    }

    ClientStreamRenderer renderer(EventSink sink, String clientModel, ReasoningDisposition reasoning, long createdAt,
                                  FlatToolNames toolNames, ConversionReport report, TranscodeLimits limits) {
        return switch (this) {
            case MESSAGES -> new MessagesStreamRenderer(sink, clientModel, reasoning, report, limits);
            case RESPONSES -> new ResponsesStreamRenderer(sink, clientModel, createdAt, reasoning, toolNames, report, limits);
        };
    }

    byte[] error(UpstreamError e) {
        return switch (this) {
            case MESSAGES -> MessagesErrors.body(e);
            case RESPONSES -> ResponsesErrors.body(e);
        };
    }

    byte[] error(TranscodeException e) {
        return switch (this) {
            case MESSAGES -> MessagesErrors.body(e);
            case RESPONSES -> ResponsesErrors.body(e);
        };
    }

    String errorType(int status) {
        return switch (this) {
            case MESSAGES -> MessagesErrors.typeFor(status);
            case RESPONSES -> ResponsesErrors.typeFor(status);
        };
    }
}
