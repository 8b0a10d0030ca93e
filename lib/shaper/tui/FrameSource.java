package shaper.tui;

/**
 * Where the dashboard gets its pictures from. The production source is {@link ServerFrames}; the
 * render loop calls it from one thread only.
 */
public interface FrameSource {
    /** A fresh picture of every provider. */
    Frame take();

    /**
     * The dashboard's {@code c}: from now on counters, status buckets, route totals, the request
     * list and the logs start from zero. The proxy's own counters (and its metrics) are untouched.
     */
    void reset();
}
