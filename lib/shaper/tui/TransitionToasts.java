package shaper.tui;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import shaper.breaker.BreakerSnapshot;
import shaper.breaker.BreakerState;
import shaper.cluster.LinkSnapshot;
import shaper.cluster.RedisFallback;

/**
 * Turns the state changes between two frames into toasts: a provider's circuit breaker moving
 * (closed, open, half-open) and its cluster limiter's Redis link going down (onto its fallback) or
 * coming back. The dashboard learns of both from the snapshots it copies every frame; a link that
 * went down and came back between two frames is seen by its transition count. Confined to the
 * frame feeder's thread.
 */
final class TransitionToasts {
    private final Toasts toasts;
    private final Map<String, BreakerState> breakers = new HashMap<>();
    private final Map<String, Long> links = new HashMap<>();

    TransitionToasts(Toasts toasts) {
        this.toasts = toasts;
    }

    /** Compares {@code provider}'s breaker with the last frame's; the first sight of a provider posts nothing. */
    void breaker(String provider, BreakerSnapshot b) {
        if (b == null) {
            return;
        }
        BreakerState before = breakers.put(provider, b.state());
        if (before == null || before == b.state()) {
            return;
        }
        switch (b.state()) {
            case OPEN -> toasts.post(Toasts.Kind.ERROR, provider + ": circuit breaker open (" + b.consecutiveFailures()
                    + " consecutive failures)");
            case HALF_OPEN -> toasts.post(Toasts.Kind.WARN, provider + ": circuit breaker half-open, probing");
            case CLOSED -> toasts.post(Toasts.Kind.OK, provider + ": circuit breaker closed");
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
