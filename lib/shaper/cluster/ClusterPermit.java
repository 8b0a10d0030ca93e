package shaper.cluster;

import java.time.Duration;
import java.util.Objects;

import shaper.limit.LoadSample;
import shaper.limit.Permit;

/**
 * A slot of a {@link ClusterLimiter}: a unique id in the limiter's Redis permit set, renewed by the
 * limiter while the exchange lives, and, when it was granted during a fallback (or Redis went down
 * while it ran), also a slot of the limiter's {@link LocalFallback} so that instance's own limit
 * counts it. Release is idempotent; a hold is kept in Redis as the permit's expiry, so it survives
 * a crash of this instance.
 */
final class ClusterPermit implements Permit {
    private final ClusterLimiter limiter;
    private final String id;
    // Guarded by this.
    private Permit local;
    private volatile boolean released;
    private volatile Duration hold = Duration.ZERO;
    /** What the exchange said about the upstream's load, sent with the release to a shared adaptive limit. */
    private volatile SharedSample sample = SharedSample.NONE;

    ClusterPermit(ClusterLimiter limiter, String id, Permit local) {
        this.limiter = limiter;
        this.id = Objects.requireNonNull(id, "id");
        this.local = local;
    }

    String id() {
        return id;
    }

    /**
     * Judged now (a slow first byte against this instance's floor), sent with the release; a fallback
     * slot's own limiter learns from it too.
     */
    @Override
    public void report(LoadSample s) {
        Permit l;
        synchronized (this) {
            l = local;
        }
        if (l != null) {
            l.report(s);
        }
        sample = limiter.judge(s);
    }

    /** The sample to send with the release; {@link SharedSample#NONE} before {@link #report}. */
    SharedSample sample() {
        return sample;
    }

    @Override
    public void release() {
        releaseAfter(Duration.ZERO);
    }

    @Override
    public void releaseAfter(Duration hold) {
        Objects.requireNonNull(hold, "hold");
        if (hold.isNegative()) {
            throw new IllegalArgumentException("hold: " + hold + " (expected: >= 0)");
        }
        Permit l;
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
            this.hold = hold;
            l = local;
            local = null;
        }
        if (l != null && !limiter.handOverLocalSlot(l)) {
            l.releaseAfter(hold);
        }
        limiter.released(this, hold);
    }

    @Override
    public boolean released() {
        return released;
    }

    /** The hold given at release (zero before). */
    Duration hold() {
        return hold;
    }

    /** Whether a slot of the fallback limiter counts this permit. */
    synchronized boolean counted() {
        return local != null;
    }

    /**
     * Lets {@code slot} of the fallback limiter count this running permit. {@code false}: it was
     * released or is counted already, and the caller keeps the slot.
     */
    synchronized boolean countWith(Permit slot) {
        if (released || local != null) {
            return false;
        }
        local = slot;
        return true;
    }
}
