package shaper.admission;

import java.util.ArrayList;
import java.util.List;

import shaper.limit.Limiter;

/**
 * Which limiters a request must pass, one per kind, each null when it does not apply: its route or
 * default-pool limiter, the global limiter and the large-request gate. None at all is unbounded
 * passthrough. The {@link AdmissionChain}'s limiter links each take the one of their kind.
 *
 * @param pool      the matched route's limiter or the default pool; null for passthrough and {@code :unlimited}
 * @param global    the {@code -global-concurrency} limiter; null when off or for {@code :unlimited}
 * @param gate      the large-request gate, when the body is large enough; else null
 * @param limited   true when the request holds a route or default-pool slot (counts as "proxied"),
 *                  false for passthrough and {@code :unlimited} traffic
 * @param route     the matched pattern's limiter key for metrics, or empty for passthrough
 * @param unlimited the request matched a {@code :unlimited} route (no limiter by rule, not because none applies)
 * @param budget    the request's view of its provider's token budget; null until {@link #withBudget} sets it,
 *                  and for a provider without a budget
 */
public record AdmissionClass(Limiter pool, Limiter global, Limiter gate, boolean limited, String route, boolean unlimited,
                             Limiter budget) {
    /** A {@code :unlimited} match: no limiter at all, not even the global one. */
    public static final AdmissionClass UNLIMITED = new AdmissionClass(null, null, null, false, "", true, null);

    /**
     * This class with the request's view of its provider's token budget, asked after the slots
     * ({@code shaper.budget}); never for a {@code :unlimited} class.
     */
    public AdmissionClass withBudget(Limiter view) {
        return new AdmissionClass(pool, global, gate, limited, route, unlimited, view);
    }

    /** The limiters to acquire, in order: route or default pool, global, large-request gate, token budget. */
    public List<Limiter> chain() {
        List<Limiter> all = new ArrayList<>(4);
        for (Limiter l : new Limiter[] {pool, global, gate, budget}) {
            if (l != null) {
                all.add(l);
            }
        }
        return all;
    }

    /** True when any limiter applies, so the request may queue. */
    public boolean hasLimiters() {
        return pool != null || global != null || gate != null || budget != null;
    }

    /** The limiter that owns the request's slot for adaptive headroom: the first in the chain. */
    public Limiter owner() {
        return pool != null ? pool : global != null ? global : gate;
    }
}
