package shaper.cluster;

import java.util.List;

/**
 * What {@link LeaseScripts#ENQUEUE} answered, decoded once: a slot at once, none free (a
 * {@code try}), the queue at its depth bound, or a place in the cluster-wide queue.
 */
sealed interface EnqueueReply {
    /** A free slot: the permit is in Redis under the caller's id. */
    record Granted() implements EnqueueReply {
    }

    /** {@code try} mode and no slot free (or someone waits): nothing was queued. */
    record NoneFree() implements EnqueueReply {
    }

    /** {@code waiters} already queued cluster-wide reached the depth bound: nothing was queued. */
    record QueueFull(int waiters) implements EnqueueReply {
    }

    /** Queued under the caller's id; {@code nextEventMs} until an expiry may free a slot (-1: none due). */
    record Queued(long nextEventMs) implements EnqueueReply {
    }

    /** The script's reply codes (its Javadoc): {@code {1}}, {@code {0}}, {@code {2, waiters}}, {@code {3, nextEventMs}}. */
    static EnqueueReply decode(Object raw) {
        List<?> r = (List<?>) raw;
        long code = LeaseCalls.number(r.get(0));
        if (code == 1) {
            return new Granted();
        }
        if (code == 0) {
            return new NoneFree();
        }
        if (code == 2) {
            return new QueueFull(Math.toIntExact(LeaseCalls.number(r.get(1))));
        }
        if (code == 3) {
            return new Queued(LeaseCalls.number(r.get(1)));
        }
        throw new IllegalStateException("ENQUEUE answered an unknown code " + code + " (expected: 0..3)");
    }
}
