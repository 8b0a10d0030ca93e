package shaper.proxy.watch;

import java.time.Duration;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

import shaper.idle.Ticker;

/**
 * Watches every upstream call in flight from one thread: it ends a call that outlives its
 * {@code -upstream-timeout} (the spec's bound "for each upstream call, including its body"), and
 * it ends a call whose client left while the upstream was still working on the answer.
 *
 * <pre>
 * request thread                         watch thread (every TICK)
 * begin ─▶ SENDING (body streams from the client)
 *        ─▶ AWAITING (body sent)           older than ARM_AFTER: arm the client's end-of-stream watch
 *                                          client gone: cut(CLIENT_GONE) ─┐
 *        ─▶ RELAYING (head arrived)        past the deadline: cut(DEADLINE) ┤ interrupt the request thread
 * close  ─▶ DONE (interrupt status cleared if cut)                          ┘
 * </pre>
 *
 * A cut interrupts the request thread; a virtual thread blocked on a socket is woken and that
 * socket is closed (the upstream's while it waits for the upstream, the client's while it writes a
 * slow client's body), so the call ends at once and its exception path runs; the caller asks
 * {@link Call#cut()} which reason it was. Cuts happen only between {@link #begin} and
 * {@link Call#close()}, under the call's lock, so an interrupt never reaches code outside the call.
 * The client watch is armed only once the upstream has been silent for {@link #ARM_AFTER}: a fast
 * answer never touches the selector. Thread-safety: phases change under the call's monitor.
 */
public final class CallWatch implements AutoCloseable {
    static final Duration TICK = Duration.ofMillis(100);
    static final Duration ARM_AFTER = Duration.ofMillis(200);

    /** Why a call was ended from outside. */
    public enum Cut { NONE, DEADLINE, CLIENT_GONE }

    private enum Phase { SENDING, AWAITING, RELAYING, DONE }

    /** Calls begun and not yet seen done by the watch thread: a request only appends (one CAS); the watch thread unlinks the done ones as it passes. */
    private final Queue<Call> active = new ConcurrentLinkedQueue<>();
    /** Ticks while calls are in flight; sleeps while there are none (see {@link Ticker}). */
    private final Ticker ticker = new Ticker(TICK, 1);
    private final Thread thread;
    private volatile boolean running = true;

    public CallWatch() {
        this.thread = Thread.ofPlatform().daemon().name("shaper-call-watch").start(this::loop);
    }

    /**
     * Starts watching a call made by the current thread.
     *
     * @param client  the client connection (watched while the upstream works), or null
     * @param timeout the whole call's bound
     * @param sending true while the body still streams from the client (its channel is in use)
     */
    public Call begin(ClientConnection client, Duration timeout, boolean sending) {
        Call c = new Call(Thread.currentThread(), client, System.nanoTime() + saturatedNanos(timeout), sending);
        active.add(c);
        ticker.wake();
        return c;
    }

    /** One upstream call. */
    public final class Call implements AutoCloseable {
        private final Thread owner;
        private final ClientConnection client;
        private final long deadline;
        /** Written under this call's monitor; volatile so the watch thread can pass a relaying call without taking it. */
        private volatile Phase phase;
        private long phaseSince;
        private SelectorWatch.Handle watch;
        private volatile Cut cut = Cut.NONE;

        private Call(Thread owner, ClientConnection client, long deadline, boolean sending) {
            this.owner = owner;
            this.client = client;
            this.deadline = deadline;
            this.phase = sending ? Phase.SENDING : Phase.AWAITING;
            this.phaseSince = System.nanoTime();
        }

        /** The body has been sent; the client connection is idle until the answer comes. */
        public void awaiting() {
            enter(Phase.AWAITING);
        }

        /** The answer's head arrived; from now on the client connection is written. */
        public void relaying() {
            enter(Phase.RELAYING);
        }

        /** Why the call was ended from outside, or {@link Cut#NONE}. */
        public Cut cut() {
            return cut;
        }

        /** Ends the watch of this call; clears the interrupt a cut left. Idempotent. */
        @Override
        public void close() {
            enter(Phase.DONE);
            if (cut != Cut.NONE) {
                Thread.interrupted();
            }
        }

        private void enter(Phase next) {
            SelectorWatch.Handle stop;
            synchronized (this) {
                if (phase == Phase.DONE) {
                    return;
                }
                phase = next;
                phaseSince = System.nanoTime();
                stop = watch;
                watch = null;
            }
            if (stop != null) {
                stop.stop(); // the channel is blocking again before anyone writes to it
            }
        }

        private boolean done() {
            return phase == Phase.DONE;
        }

        /** Called by the watch thread, ten times a second for every call in flight. */
        private void inspect(long now) {
            if (phase == Phase.RELAYING && now - deadline <= 0) {
                return; // a relaying call only has its deadline to watch: thousands of long streams cost no lock per tick
            }
            synchronized (this) {
                inspectHeld(now);
            }
        }

        private void inspectHeld(long now) {
            if (phase == Phase.DONE || cut != Cut.NONE) {
                return;
            }
            if (now - deadline > 0) {
                cutWith(Cut.DEADLINE);
            } else if (phase == Phase.AWAITING && client != null) {
                if (watch == null && now - phaseSince > ARM_AFTER.toNanos()) {
                    watch = client.openWatch();
                } else if (watch != null && watch.gone()) {
                    cutWith(Cut.CLIENT_GONE);
                }
            }
        }

        private void cutWith(Cut reason) {
            cut = reason;
            owner.interrupt();
        }
    }

    private void loop() {
        boolean watching = false;
        while (running) {
            ticker.pause(watching, active::isEmpty);
            long now = System.nanoTime();
            for (Iterator<Call> it = active.iterator(); it.hasNext(); ) {
                Call c = it.next();
                if (c.done()) {
                    it.remove();
                    continue;
                }
                try {
                    c.inspect(now);
                } catch (RuntimeException e) {
                    // one call's trouble must not stop the watch of the others
                }
            }
            watching = !active.isEmpty();
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4;
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
    }
}
