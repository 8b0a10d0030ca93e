package shaper.transcode.pipeline;

import shaper.transcode.EventSink;
import shaper.transcode.TranscodeException;

/**
 * One upstream stream being converted: bytes in as they are read, client events out through the
 * {@link EventSink} as soon as they are produced. Exactly one terminal reaches the client: the
 * dialect's success terminal, or one error event. Not thread-safe.
 */
public interface StreamConversion {
    /**
     * Feeds bytes read from upstream and flushes what they produced.
     *
     * @throws TranscodeException when the stream breaks the contract or cannot be converted
     */
    void feed(byte[] bytes, int off, int len);

    /**
     * The upstream stream ended cleanly (EOF).
     *
     * @throws TranscodeException.UpstreamWire when it ended before a finish reason
     */
    void end();

    /** Ends the client stream with one error event, if it has no terminal yet. */
    void fail(String type, String message);

    /** Whether any client event has been written (the response is then committed). */
    boolean started();
}
