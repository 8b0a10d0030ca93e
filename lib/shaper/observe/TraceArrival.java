package shaper.observe;

import java.time.InstantSource;
import java.util.function.LongSupplier;

/**
 * What a trace starts from: the request line (method, raw path, raw query; null or empty for none)
 * and the two clocks it reads, the wall clock for the arrival and the monotonic one that times the stages.
 */
record TraceArrival(String method, String path, String query) {
    /** The two clocks a trace reads. */
    record Clock(InstantSource wall, LongSupplier nanoTime) {
    }
}
