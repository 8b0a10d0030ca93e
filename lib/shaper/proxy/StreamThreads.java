package shaper.proxy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * The platform threads that relay event streams ({@code text/event-stream} answers) while the
 * request's virtual thread waits for them.
 *
 * <p>Why: a virtual thread blocked on a socket read is woken in steps: the kernel wakes the JDK's
 * poller, which unparks the virtual thread, which then waits for a carrier thread to be woken. An
 * SSE event arrives after the machine went idle, so every step is a cold wake-up, once per event.
 * A platform thread blocked in {@code read} is woken by the kernel itself. On this project's test
 * machines that took about 230 µs off an event's median delay through the proxy (BENCHMARKS.md, "SSE:
 * per-event delay"). A bulk body or a small JSON answer gains nothing and stays on its virtual thread.
 *
 * <p>At most {@code limit} streams at once run here (each holds a platform thread for its whole
 * length); beyond that a stream is relayed on its own virtual thread, as before.
 *
 * <p>Cuts keep their meaning: an interrupt of the waiting request thread (the call's deadline, the
 * stop's cut) is passed on to the relay thread, whose blocked channel read or write is then closed
 * exactly as the virtual thread's would be; the request thread waits for the relay to end with
 * that failure, gets its interrupt status back, and goes on as if it had relayed itself.
 */
public final class StreamThreads implements AutoCloseable {
    /** Streams relayed on platform threads at once, at most. */
    public static final int LIMIT = 256;

    private final int limit;
    private final Semaphore slots;
    private final ExecutorService pool;

    public StreamThreads(int limit) {
        this(limit, Thread.ofPlatform().daemon().name("shaper-stream-", 0).factory());
    }

    StreamThreads(int limit, ThreadFactory threads) {
        this.limit = limit;
        this.slots = new Semaphore(limit);
        this.pool = Executors.newCachedThreadPool(threads);
    }

    /**
     * Runs {@code relay} on a stream thread and waits for it; runs it on the calling thread when
     * that is already a platform thread or every stream thread is busy.
     */
    public <T> T relay(Supplier<T> relay) {
        if (!Thread.currentThread().isVirtual() || !slots.tryAcquire()) {
            return relay.get();
        }
        Handoff<T> handoff = new Handoff<>(relay);
        try {
            pool.execute(handoff);
        } catch (RejectedExecutionException | OutOfMemoryError noThread) {
            // closing, or the machine cannot start another thread: the slot goes back and the stream stays here
            slots.release();
            return relay.get();
        }
        return handoff.join();
    }

    /** Streams being relayed on platform threads now. */
    public int active() {
        return limit - slots.availablePermits();
    }

    @Override
    public void close() {
        pool.shutdown();
    }

    /** One relay handed to a stream thread; interrupts reach that thread only while it runs this relay. */
    private final class Handoff<T> implements Runnable {
        private final Supplier<T> relay;
        private final CountDownLatch done = new CountDownLatch(1);
        /** The stream thread while it runs this relay; null before and after. */
        private Thread runner;
        private boolean interrupted;
        private T value;
        private Throwable failure;

        Handoff(Supplier<T> relay) {
            this.relay = relay;
        }

        @Override
        public void run() {
            synchronized (this) {
                runner = Thread.currentThread();
                if (interrupted) {
                    runner.interrupt(); // cut before the relay began: its first read or write fails, as it would have
                }
            }
            try {
                value = relay.get();
            } catch (RuntimeException | Error e) {
                failure = e;
            } finally {
                synchronized (this) {
                    runner = null;
                }
                Thread.interrupted(); // an interrupt meant for this relay must not reach the next one
                slots.release();
                done.countDown();
            }
        }

        private synchronized void interrupt() {
            interrupted = true;
            if (runner != null) {
                runner.interrupt();
            }
        }

        T join() {
            boolean cut = false;
            while (true) {
                try {
                    done.await();
                    break;
                } catch (InterruptedException e) {
                    cut = true;
                    interrupt();
                }
            }
            if (cut) {
                Thread.currentThread().interrupt();
            }
            if (failure instanceof RuntimeException r) {
                throw r;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            return value;
        }
    }
}
