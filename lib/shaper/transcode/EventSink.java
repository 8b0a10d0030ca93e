package shaper.transcode;

/**
 * Where a stream renderer writes the client's events. {@link #event} writes one complete frame;
 * {@link #flush} pushes everything written so far to the client. Implementations enforce the
 * generated-frame bound and surface write failures as runtime exceptions.
 */
public interface EventSink {
    /** Writes {@code event: name} and {@code data: json} as one frame. */
    void event(String name, String json);

    void flush();
}
