package shaper.transcode.pipeline;

import java.time.Clock;

import shaper.transcode.ConversionReport;
import shaper.transcode.EventSink;
import shaper.transcode.FlatToolNames;
import shaper.transcode.ReasoningDisposition;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.UpstreamError;
import shaper.transcode.messages.MessagesErrors;

/**
 * One direction's conversion, as the request path uses it: the client request to the upstream
 * request, the upstream answer (JSON or stream) to the client's, and errors in the client dialect.
 * A direction is a {@link ClientSide} paired with an {@link UpstreamSide}; neither half knows the
 * other. Stateless apart from its {@link TranscodeMapping} and shared by request threads;
 * per-exchange state lives in {@link Prepared} and {@link StreamConversion}.
 *
 * <p>A Messages client on a Responses upstream needs the {@code tool_schema_strictness} approval
 * (checked at startup): Messages tools cannot say how strict they are.
 */
public final class Transcoder {
    private final TranscodeMapping mapping;
    private final ClientSide client;
    private final UpstreamSide upstream;
    private final ReasoningDisposition reasoning;
    /** Stamps a Responses answer's {@code created_at}. */
    private final Clock clock;

    private Transcoder(TranscodeMapping mapping, ClientSide client, UpstreamSide upstream, Clock clock) {
        this.mapping = mapping;
        this.client = client;
        this.upstream = upstream;
        this.reasoning = ReasoningDisposition.of(mapping);
        this.clock = clock;
    }

    /** The transcoder for a mapping. */
    public static Transcoder of(TranscodeMapping m) {
        return switch (m.route().direction()) {
            case MESSAGES_CHAT -> new Transcoder(m, ClientSide.MESSAGES, UpstreamSide.CHAT, Clock.systemUTC());
            case RESPONSES_CHAT -> new Transcoder(m, ClientSide.RESPONSES, UpstreamSide.CHAT, Clock.systemUTC());
            case MESSAGES_RESPONSES -> new Transcoder(m, ClientSide.MESSAGES, UpstreamSide.RESPONSES, Clock.systemUTC());
        };
    }

    public TranscodeMapping mapping() {
        return mapping;
    }

    /**
     * Converts the client request.
     *
     * @param rawQuery the client's raw query, or null
     * @throws TranscodeException (local) for a malformed request, a rejected loss or a query parameter not allowed
     */
    public Prepared prepare(byte[] clientBody, String rawQuery) {
        Intake in = Intake.of(mapping, clientBody, rawQuery);
        ClientSide.Request r = client.decode(clientBody, in.report());
        byte[] body = upstream.render(r.conversation(), mapping, in.report());
        return new Prepared(body, mapping.route().upstreamPath(), in.query(), r.conversation().stream(), r.conversation().model(),
                r.conversation().stop(), in.report(), r.toolNames());
    }

    /**
     * Converts a client request whose body may carry content codings: undone first (bounded by
     * {@code -transcode-max-request-mb}), then {@link #prepare(byte[], String)}.
     *
     * @param codings the request's {@code Content-Encoding}
     * @throws TranscodeException (local) as above, and for a body that cannot be decoded (413, 400, 415)
     */
    public Prepared prepare(byte[] clientBody, shaper.codec.ContentCodings codings, String rawQuery) {
        return prepare(Intake.decoded(mapping, clientBody, codings), rawQuery);
    }

    /** Converts a successful non-streaming upstream body. */
    public byte[] answer(byte[] upstreamBody, Prepared p) {
        return client.answer(upstream.decode(upstreamBody, p), p, reasoning, createdAt());
    }

    /** Starts converting an upstream stream into {@code sink}. */
    public StreamConversion stream(EventSink sink, Prepared p) {
        return new SseConversion(sink, upstream.streamDecoder(p),
                client.renderer(sink, p.clientModel(), reasoning, createdAt(), p.toolNames(), p.report(), mapping.limits()),
                mapping.limits());
    }

    /** The client-dialect body for an upstream error (status kept by the caller). */
    public byte[] error(UpstreamError e) {
        return client.error(e);
    }

    /** The client-dialect body for a local or wire failure. */
    public byte[] error(TranscodeException e) {
        return client.error(e);
    }

    /** The client-dialect error type for a status. */
    public String errorType(int status) {
        return client.errorType(status);
    }

    /**
     * Ends a client stream that was committed before any conversion started (queue or retry
     * keepalives) with the dialect's one error event: Anthropic {@code error}; for a Responses client
     * {@code response.created}, then one {@code response.failed}.
     */
    public void earlyError(EventSink sink, String type, String message) {
        switch (client) {
            case MESSAGES -> sink.event("error", MessagesErrors.event(type, message));
            case RESPONSES -> client.renderer(sink, "unknown", reasoning, createdAt(), FlatToolNames.NONE,
                    new ConversionReport(mapping.policy()), mapping.limits()).fail(type, message);
        }
    }

    private long createdAt() {
        return clock.instant().getEpochSecond();
    }
}
