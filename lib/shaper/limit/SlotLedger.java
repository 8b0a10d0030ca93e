package shaper.limit;

/**
 * Where each slot of one {@link FifoLimiter} is. Invariant:
 * {@code idle + inUse + cooling + withheld + retired == limit}; {@code held <= inUse}. Not
 * thread-safe: guarded by the limiter's lock, and the limiter decides who gets a slot that comes back
 * ({@link #keepsReturn()} false).
 */
final class SlotLedger {
    private int limit;
    int idle;
    /** Granted and not yet back, holds included. */
    int inUse;
    /** Of {@code inUse}: released, held on by a failure hold, phantom penalty or cancel cooldown. */
    int held;
    int cooling;
    /** Adaptive headroom's slot, out of the pool for its window. */
    int withheld;
    /** Headroom found no idle slot: the next slot that comes back is withheld. */
    boolean absorbNextReturn;
    /**
     * Out of circulation because the adaptive limit is below the configured one; below zero while a
     * lowered configured limit ({@link #resize}) still has that many slots out, each of them owed.
     */
    int retired;
    /** In use, to be retired when they come back (the adaptive limit fell below what was in use). */
    int owed;
    /** Numbers headroom windows: only the latest window's end gives its slot back. */
    private long headroomEpoch;

    SlotLedger(int limit) {
        this.limit = limit;
        this.idle = limit;
    }

    /**
     * The configured limit becomes {@code newLimit} (a reload) while the limit in force stays as it
     * was; the caller then moves it with {@link #retarget}. Nothing in use is revoked.
     */
    void resize(int newLimit) {
        retired += newLimit - limit;
        limit = newLimit;
    }

    /** The limit in force before headroom: the adaptive limit, or the configured one. */
    int current() {
        return limit - retired - owed;
    }

    /** The limit in force, headroom included. */
    int effective() {
        return current() - withheld - (absorbNextReturn ? 1 : 0);
    }

    boolean takeIdle() {
        if (idle == 0) {
            return false;
        }
        idle--;
        inUse++;
        return true;
    }

    /** A slot came back: {@code true} when headroom or a lowered limit keeps it, else the caller hands it on. */
    boolean keepsReturn() {
        if (absorbNextReturn) {
            absorbNextReturn = false;
            withheld++;
            return true;
        }
        if (owed > 0) {
            owed--;
            retired++;
            return true;
        }
        return false;
    }

    /**
     * Headroom takes one slot (it keeps the one it holds already): an idle one, else the next to come
     * back. A window starts, replacing any running one.
     *
     * @return the new window's number, for {@link #endHeadroom}
     */
    long withholdOne() {
        if (withheld == 0 && !absorbNextReturn) {
            if (idle > 0) {
                idle--;
                withheld = 1;
            } else {
                absorbNextReturn = true;
            }
        }
        return ++headroomEpoch;
    }

    /** The window {@code epoch} passed: {@code true} when it was the latest and its slot re-enters the pool. */
    boolean endHeadroom(long epoch) {
        return epoch == headroomEpoch && restoreWithheld();
    }

    /** Headroom stops early, ending its window: {@code true} when its slot re-enters the pool. */
    boolean dropHeadroom() {
        if (withheld == 0 && !absorbNextReturn) {
            return false;
        }
        headroomEpoch++;
        return restoreWithheld();
    }

    private boolean restoreWithheld() {
        absorbNextReturn = false;
        if (withheld > 0) {
            withheld--;
            return true;
        }
        return false;
    }

    /**
     * Moves the limit in force to {@code target} (1..limit): a lower one retires idle slots at once and
     * the rest as they come back (nothing in use is revoked); a higher one first cancels pending
     * retirements.
     *
     * @return how many retired slots re-enter the pool (the caller hands each on)
     */
    int retarget(int target) {
        int now = current();
        if (target < now) {
            int fromIdle = Math.min(idle, now - target);
            idle -= fromIdle;
            retired += fromIdle;
            owed += now - target - fromIdle;
            return 0;
        }
        int back = 0;
        for (int up = target - now; up > 0; up--) {
            if (owed > 0) {
                owed--;
            } else {
                retired--;
                back++;
            }
        }
        return back;
    }
}
