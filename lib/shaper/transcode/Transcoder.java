package shaper.transcode;

/**
 * One direction's conversion, as the request path uses it: the client request to the upstream
 * request, the upstream answer (JSON or stream) to the client's, and errors in the client dialect.
 * Implementations are stateless apart from their {@link TranscodeMapping} and shared by request
 * threads; per-exchange state lives in {@link Prepared} and {@link StreamConversion}.
 */
public sealed interface Transcoder permits MessagesClientTranscoder, ResponsesChatTranscoder {
    /** The transcoder for a mapping. */
    static Transcoder of(TranscodeMapping m) {
        return switch (m.route().direction()) {
            case MESSAGES_CHAT -> new MessagesClientTranscoder(m, MessagesClientTranscoder.Upstream.CHAT);
            case RESPONSES_CHAT -> new ResponsesChatTranscoder(m, java.time.Clock.systemUTC());
            case MESSAGES_RESPONSES -> new MessagesClientTranscoder(m, MessagesClientTranscoder.Upstream.RESPONSES);
        };
    }

    TranscodeMapping mapping();

    /**
     * Converts the client request.
     *
     * @param rawQuery the client's raw query, or null
     * @throws TranscodeException (local) for a malformed request, a rejected loss or a query parameter not allowed
     */
    Prepared prepare(byte[] clientBody, String rawQuery);

    /**
     * Converts a client request whose body may carry content codings: undone first (bounded by
     * {@code -transcode-max-request-mb}), then {@link #prepare(byte[], String)}.
     *
     * @param codings the request's {@code Content-Encoding}
     * @throws TranscodeException (local) as above, and for a body that cannot be decoded (413, 400, 415)
     */
    default Prepared prepare(byte[] clientBody, shaper.codec.ContentCodings codings, String rawQuery) {
        return prepare(Intake.decoded(mapping(), clientBody, codings), rawQuery);
    }

    /** Converts a successful non-streaming upstream body. */
    byte[] answer(byte[] upstreamBody, Prepared p);

    /** Starts converting an upstream stream into {@code sink}. */
    StreamConversion stream(EventSink sink, Prepared p);

    /** The client-dialect body for an upstream error (status kept by the caller). */
    byte[] error(UpstreamError e);

    /** The client-dialect body for a local or wire failure. */
    byte[] error(TranscodeException e);

    /** The client-dialect error type for a status. */
    String errorType(int status);

    /**
     * Ends a client stream that was committed before any conversion started (queue or retry
     * keepalives) with the dialect's one error event: Anthropic {@code error} by default.
     */
    default void earlyError(EventSink sink, String type, String message) {
        sink.event("error", shaper.transcode.messages.MessagesErrors.event(type, message));
    }
}
