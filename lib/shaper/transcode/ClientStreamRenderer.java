package shaper.transcode;

import shaper.transcode.ir.StreamEvent;

/**
 * Writes the client dialect's event lifecycle for a stream of IR events: it owns the invariant that
 * exactly one terminal event (success or error) ends the stream.
 */
public interface ClientStreamRenderer {
    void accept(StreamEvent e);

    /** The upstream's bytes ran dry: flush what was produced so each event reaches the client at once. */
    void flushed();

    /** The upstream stream ended: finish with the terminal event, or an error when it ended too early. */
    void endOfStream();

    /** Ends the stream with one error event in the client's dialect, unless it already ended. */
    void fail(String type, String message);

    /** Whether anything was written to the client yet. */
    boolean started();

    /** Whether the terminal event was written. */
    boolean terminated();
}
