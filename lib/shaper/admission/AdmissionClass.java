package shaper.admission;

import java.util.List;

import shaper.limit.Limiter;

/**
 * Which limiters a request must pass, in order: its route or default-pool limiter, then the global
 * limiter. An empty chain is unbounded passthrough.
 *
 * @param chain   limiters to acquire in order (route/default first, global last)
 * @param limited true when the request holds a route or default-pool slot (counts as "proxied"),
 *                false for passthrough and {@code :unlimited} traffic
 * @param route   the matched pattern's limiter key for metrics, or empty for passthrough
 * @param unlimited the request matched a {@code :unlimited} route (an empty chain by rule, not
 *                  because no limiter applies)
 */
public record AdmissionClass(List<Limiter> chain, boolean limited, String route, boolean unlimited) {
    public AdmissionClass {
        chain = List.copyOf(chain);
    }

    /** A class that did not match a {@code :unlimited} route. */
    public AdmissionClass(List<Limiter> chain, boolean limited, String route) {
        this(chain, limited, route, false);
    }

    /** This class with {@code limiter} passed last (a token budget's view, after the slots). */
    public AdmissionClass then(Limiter limiter) {
        List<Limiter> more = new java.util.ArrayList<>(chain);
        more.add(limiter);
        return new AdmissionClass(more, limited, route, unlimited);
    }

    /** The limiter that owns the request's slot for adaptive headroom: the first in the chain. */
    public Limiter owner() {
        return chain.isEmpty() ? null : chain.getFirst();
    }
}
