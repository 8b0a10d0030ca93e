package shaper.observe;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * When the stages of one exchange happened, as nanosecond offsets from its arrival; {@link #UNSET}
 * ({@code -1}) for a stage the exchange never reached. An aborted exchange leaves {@code lastByte}
 * unset, as the spec asks ("response-complete timing unset").
 *
 * <pre>
 * arrived ─queue─▶ queueEnd ─▶ upstreamSent ─(attempts, backoff)─▶ upstreamHeaders ─▶ firstByte ─▶ lastByte
 * </pre>
 *
 * @param arrivedAt       wall-clock arrival, for display
 * @param queueEnd        the wait for slots ended: admitted, or refused (queue timeout, queue full,
 *                        client gone); unset when the request asked no limiter for a slot (circuit
 *                        open, an unbounded passthrough or {@code :unlimited} route, an upgrade)
 * @param upstreamSent    the first attempt was handed to the upstream client
 * @param upstreamHeaders the last attempt's response headers arrived
 * @param firstByte       the client's response headers were committed
 * @param lastByte        the client's response completed
 * @param ended           the handler finished (always set)
 */
public record Timings(Instant arrivedAt, long queueEnd, long upstreamSent, long upstreamHeaders, long firstByte,
                      long lastByte, long ended) {
    public static final long UNSET = -1;

    public Timings {
        Objects.requireNonNull(arrivedAt, "arrivedAt");
        if (ended < 0) {
            throw new IllegalArgumentException("ended: " + ended + " (expected: >= 0)");
        }
    }

    /** Time spent waiting for slots (classification included); zero when it never asked for one. */
    public Duration queueWait() {
        return Duration.ofNanos(queueEnd > 0 ? queueEnd : 0);
    }

    /** Arrival to the end of the handler: the exchange's duration. */
    public Duration duration() {
        return Duration.ofNanos(ended);
    }

    /** The end of the queue wait to the last attempt's response headers (the spec's TTFB: QueueEnd to headers). */
    public Optional<Duration> ttfb() {
        return upstreamHeaders < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(upstreamHeaders - Math.max(0, queueEnd)));
    }

    /** Client headers to the last byte; empty for an exchange that did not complete. */
    public Optional<Duration> download() {
        return firstByte < 0 || lastByte < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(lastByte - firstByte));
    }

    /**
     * What the proxy itself added, queue excluded: arrival to the first upstream send minus the
     * queue wait, plus the last upstream headers to the client's headers. Empty unless both
     * spans were seen (a local answer or an unreachable upstream has none).
     */
    public Optional<Duration> proxyAdded() {
        if (upstreamSent < 0 || upstreamHeaders < 0 || firstByte < 0) {
            return Optional.empty();
        }
        long before = upstreamSent - Math.max(0, queueEnd);
        long after = Math.max(0, firstByte - upstreamHeaders);
        return Optional.of(Duration.ofNanos(Math.max(0, before) + after));
    }

    /** The offset as a duration, empty when unset. */
    public static Optional<Duration> at(long offset) {
        return offset < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(offset));
    }
}
