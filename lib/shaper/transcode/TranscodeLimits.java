package shaper.transcode;

/**
 * Byte bounds of one transcoded exchange, fixed at startup.
 *
 * @param requestBytes        the client request body ({@code -transcode-max-request-mb}); over it: 413
 * @param responseBytes       a successful non-streaming upstream body ({@code -transcode-max-response-mb})
 * @param errorBodyBytes      an upstream error body read to build the client's error
 * @param sseFrameBytes       one upstream SSE line or frame
 * @param partBytes           state accumulated for one streamed part (tool arguments, held text)
 * @param generatedFrameBytes one generated SSE frame or terminal batch; must hold the largest terminal or error frame
 */
public record TranscodeLimits(long requestBytes, long responseBytes, int errorBodyBytes, int sseFrameBytes, int partBytes,
                              int generatedFrameBytes) {
    private static final int MIB = 1024 * 1024;

    /** Escaping can grow a string six-fold in JSON ({@code \u0000}); frames are budgeted for it. */
    public static final int ESCAPE_FACTOR = 6;

    /** The largest terminal or error frame the renderers emit: a bounded message, fully escaped, plus its envelope. */
    public static final int MIN_TERMINAL_FRAME_BYTES = ErrorText.MAX_CHARS * ESCAPE_FACTOR + 4 * ESCAPE_FACTOR + 512;

    /** Streamed tool arguments held back are released in pieces of at most this many characters. */
    public static final int RELEASE_PIECE_CHARS = 16 * 1024;

    public TranscodeLimits {
        positive("requestBytes", requestBytes);
        positive("responseBytes", responseBytes);
        positive("errorBodyBytes", errorBodyBytes);
        positive("sseFrameBytes", sseFrameBytes);
        positive("partBytes", partBytes);
        int pieceFrame = RELEASE_PIECE_CHARS * ESCAPE_FACTOR + 512;
        if (generatedFrameBytes < Math.max(MIN_TERMINAL_FRAME_BYTES, pieceFrame)) {
            throw new IllegalArgumentException("generatedFrameBytes: " + generatedFrameBytes + " (expected: >= "
                    + Math.max(MIN_TERMINAL_FRAME_BYTES, pieceFrame) + ", the largest terminal or error frame)");
        }
    }

    /** The CLI defaults: 10 MiB request and response, package defaults for the rest. */
    public static TranscodeLimits defaults() {
        return ofMebibytes(10, 10);
    }

    /** The given {@code -transcode-max-*-mb} values with the package defaults for the rest. */
    public static TranscodeLimits ofMebibytes(long requestMb, long responseMb) {
        return new TranscodeLimits(Math.multiplyExact(requestMb, MIB), Math.multiplyExact(responseMb, MIB), MIB, MIB, MIB,
                MIB * ESCAPE_FACTOR + 4096);
    }

    private static void positive(String name, long v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + ": " + v + " (expected: > 0)");
        }
    }
}
