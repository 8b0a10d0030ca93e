package shaper.admission;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import shaper.idle.Ticker;

/**
 * Finds queued requests whose client has gone and cancels their wait. One virtual thread scans
 * every registration each {@link #PERIOD}, so ten thousand waiters cost one periodic scan instead
 * of ten thousand periodic wake-ups; with no registration it sleeps until one comes ({@link Ticker}).
 */
public final class DisconnectWatcher implements AutoCloseable {
    static final Duration PERIOD = Duration.ofMillis(100);

    private final Map<Long, Watch> watches = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final Ticker ticker = new Ticker(PERIOD, 1);
    private final Thread scanner;
    private volatile boolean running = true;

    private record Watch(BooleanSupplier gone, Runnable onGone) {
    }

    /** A registration; closing it stops the watch. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    public DisconnectWatcher() {
        scanner = Thread.ofVirtual().name("shaper-disconnect-watcher").start(this::scan);
    }

    /** Runs {@code onGone} once, soon after {@code gone} turns true, unless closed first. */
    public Registration watch(BooleanSupplier gone, Runnable onGone) {
        long id = ids.incrementAndGet();
        watches.put(id, new Watch(gone, onGone));
        ticker.wake();
        return () -> watches.remove(id);
    }

    private void scan() {
        boolean watching = false;
        while (running) {
            ticker.pause(watching, watches::isEmpty);
            if (!running || Thread.currentThread().isInterrupted()) {
                return;
            }
            for (Map.Entry<Long, Watch> e : watches.entrySet()) {
                if (e.getValue().gone().getAsBoolean() && watches.remove(e.getKey()) != null) {
                    e.getValue().onGone().run();
                }
            }
            watching = !watches.isEmpty();
        }
    }

    @Override
    public void close() {
        running = false;
        scanner.interrupt();
    }
}
