package shaper.tui;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;

/**
 * The dashboard's toast stack: short notices that something changed (a reload applied or refused,
 * a circuit breaker opening or closing, a cluster limiter going to its fallback and back). At most
 * {@link #MAX} show at once, newest at the bottom, each for {@link #LASTS}; a fourth pushes out the
 * oldest. Without a dashboard nobody reads them, and the stack never holds more than {@link #MAX}.
 *
 * <p>Thread-safe: {@link #post} may be called from any thread (a reload, the frame feeder); the
 * render loop reads {@link #showing}.
 */
public final class Toasts {
    /** How many toasts show at once. */
    public static final int MAX = 3;
    /** How long each one shows. */
    public static final Duration LASTS = Duration.ofSeconds(5);

    /** What a toast tells: its colour. */
    public enum Kind {
        /** Something went right: a reload applied, a breaker closed, a cluster link back. */
        OK,
        /** Neutral news: counters reset. */
        INFO,
        /** Degraded but serving: a half-open breaker, a cluster limiter on its local fallback. */
        WARN,
        /** Something failed: a reload refused, a breaker open, a cluster limiter failing closed. */
        ERROR
    }

    /** One toast and when it stops showing. */
    public record Toast(Kind kind, String text, Instant until) {
        public Toast {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(until, "until");
        }
    }

    private final Clock clock;
    private final ArrayDeque<Toast> stack = new ArrayDeque<>(MAX + 1);

    /** @param clock when toasts are posted and expire */
    public Toasts(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Shows {@code text} for {@link #LASTS}, below the toasts already showing. */
    public void post(Kind kind, String text) {
        Toast t = new Toast(kind, text, clock.instant().plus(LASTS));
        synchronized (stack) {
            stack.addLast(t);
            while (stack.size() > MAX) {
                stack.removeFirst();
            }
        }
    }

    /** The toasts still showing at {@code now}, oldest first. */
    List<Toast> showing(Instant now) {
        synchronized (stack) {
            stack.removeIf(t -> !now.isBefore(t.until()));
            return List.copyOf(stack);
        }
    }
}
