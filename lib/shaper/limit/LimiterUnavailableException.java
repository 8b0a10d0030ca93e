package shaper.limit;

/**
 * The limiter cannot admit anyone right now: a cluster-wide limiter lost its shared store and is
 * configured to fail closed. Answered {@code 503} in the client's dialect; nothing was queued and
 * no slot is held.
 */
public final class LimiterUnavailableException extends AdmissionException {
    /** @param reason why, without secrets; shown to the client */
    public LimiterUnavailableException(String limiter, String reason) {
        super(limiter, reason);
    }
}
