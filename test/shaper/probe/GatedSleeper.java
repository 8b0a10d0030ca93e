package shaper.probe;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Holds every waiting fixture until the test opens the gate, so the test sees requests mid-flight. */
final class GatedSleeper implements Sleeper {
    private static final long BOUND_SECONDS = 10;

    private final Semaphore entered = new Semaphore(0);
    private final CountDownLatch gate = new CountDownLatch(1);

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        entered.release();
        if (!gate.await(BOUND_SECONDS, TimeUnit.SECONDS)) {
            throw new InterruptedException("test never opened the gate");
        }
    }

    /** Waits (bounded) until {@code n} more waits have started. */
    void awaitWaiting(int n) throws InterruptedException {
        if (!entered.tryAcquire(n, BOUND_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("fewer than " + n + " fixtures started waiting within " + BOUND_SECONDS + "s");
        }
    }

    void open() {
        gate.countDown();
    }
}
