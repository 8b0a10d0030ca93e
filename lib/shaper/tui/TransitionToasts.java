package shaper.tui;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import shaper.breaker.BreakerTransition;
import shaper.breaker.CircuitBreaker;
import shaper.cluster.LinkSnapshot;
import shaper.cluster.RedisFallback;

/**
 * Turns the state changes since the last frame into toasts: a provider's circuit breaker moving
 * (closed, open, half-open) and its cluster limiter's Redis link going down (onto its fallback) or
 * coming back. Breaker changes come from the breaker's own numbered record of its transitions, so
 * a circuit that opened, probed and closed between two frames shows all three; a link that went
 * down and came back between two frames is seen by its transition count. Both are immutable values
 * read from the running proxy; nothing here changes a breaker or a link. Confined to the frame
 * feeder's thread.
 */
final class TransitionToasts {
    private final Toasts toasts;
    /** Per provider, the breaker last read and the number of its last transition seen. */
    private final Map<String, Seen> breakers = new HashMap<>();
    private final Map<String, Long> links = new HashMap<>();

    /**
     * The last transition seen of one breaker. The breaker is kept only to know it again: a reload
     * that changes the breaker's settings puts a new one in place, whose numbers start over.
     */
    private record Seen(CircuitBreaker breaker, long sequence) {
    }

    TransitionToasts(Toasts toasts) {
        this.toasts = toasts;
    }

    /**
     * Posts each transition {@code provider}'s breaker made since the last frame, oldest first. The
     * first sight of a provider posts nothing (what happened before the dashboard is old news); a
     * breaker a reload put in place of another is new, so all its transitions are news.
     */
    void breaker(String provider, CircuitBreaker breaker) {
        Seen before = breakers.get(provider);
        boolean same = before != null && before.breaker() == breaker;
        List<BreakerTransition> news = breaker.transitionsSince(same ? before.sequence() : 0);
        long last = news.isEmpty() ? (same ? before.sequence() : 0) : news.getLast().sequence();
        breakers.put(provider, new Seen(breaker, last));
        if (before == null) {
            return;
        }
        for (BreakerTransition t : news) {
            switch (t.to()) {
                case OPEN -> toasts.post(Toasts.Kind.ERROR, provider + ": circuit breaker open (" + t.after().consecutiveFailures()
                        + " consecutive failures)");
                case HALF_OPEN -> toasts.post(Toasts.Kind.WARN, provider + ": circuit breaker half-open, probing");
                case CLOSED -> toasts.post(Toasts.Kind.OK, provider + ": circuit breaker closed");
            }
        }
    }

    /** Compares {@code provider}'s Redis link with the last frame's (by its transition count). */
    void link(String provider, Optional<LinkSnapshot> snapshot) {
        if (snapshot.isEmpty()) {
            return;
        }
        LinkSnapshot l = snapshot.get();
        Long before = links.put(provider, l.transitions());
        if (before == null || before == l.transitions()) {
            return;
        }
        if (l.up()) {
            toasts.post(Toasts.Kind.OK, provider + ": redis reachable again, cluster-wide limits");
        } else if (l.fallback() == RedisFallback.LOCAL) {
            toasts.post(Toasts.Kind.WARN, provider + ": redis unreachable, fallback to local limits");
        } else {
            toasts.post(Toasts.Kind.ERROR, provider + ": redis unreachable, fallback closed (503)");
        }
    }
}
