package shaper.limit;

import java.util.Objects;

/**
 * What one exchange tells an adaptive limit about the upstream's load, reported on its
 * {@link Permit} before the slot is released.
 *
 * @param kind         how the upstream answered
 * @param cause        for {@link Kind#OVERLOADED}, a short reason for the log ({@code "429"},
 *                     {@code "early SSE error"}); empty otherwise; not null
 * @param ttfbNanos    upstream time to first byte of the last attempt, in nanoseconds; -1 when unknown
 *                     (no response head arrived). Queue wait is never part of it.
 * @param requestBytes the request body's length, -1 when unknown: the latency floor is kept per size
 *                     class, because a long prompt takes longer to its first byte on an idle upstream too
 */
public record LoadSample(Kind kind, String cause, long ttfbNanos, long requestBytes) {

    /** How an exchange bears on the upstream's capacity. */
    public enum Kind {
        /** The upstream answered without an overload signal (any status but the ones below, a 4xx included). */
        SERVED,
        /** A rate-limit or overload answer: 429, 529, 503, rate-limit wording in the body, an early SSE error. */
        OVERLOADED,
        /** Says nothing about capacity: a local error, a client that left first, a transport failure. */
        UNJUDGED
    }

    /** A sample that changes nothing. */
    public static final LoadSample UNJUDGED = new LoadSample(Kind.UNJUDGED, "", -1, -1);

    public LoadSample {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(cause, "cause");
    }

    /** A served answer whose first byte came after {@code ttfbNanos}. */
    public static LoadSample served(long ttfbNanos, long requestBytes) {
        return new LoadSample(Kind.SERVED, "", ttfbNanos, requestBytes);
    }

    /** An overload answer, for {@code cause}. */
    public static LoadSample overloaded(String cause, long ttfbNanos, long requestBytes) {
        return new LoadSample(Kind.OVERLOADED, cause, ttfbNanos, requestBytes);
    }
}
