package shaper.limit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.limit.LimiterTesting.eventually;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/**
 * Three classes against a small adaptive limit on the real timer, with a depth bound that displaces
 * waiters, timeouts, cancels, holds and overload reports: the bound holds, every ticket ends exactly
 * one way, and every slot comes back once the limit has climbed back.
 */
class ClassedLimiterStressTest {
    private static final int LIMIT = 4;
    private static final int REQUESTS = 600;
    private static final List<QueueClass> CLASSES = List.of(new QueueClass("hi", 4), new QueueClass("mid", 2), new QueueClass("lo", 1));

    @Test
    void displacementTimeoutsAndAnAdaptiveLimitNeverLeakOrExceedTheBound() throws Exception {
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger granted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        try (SystemTimeSource system = new SystemTimeSource("classed-stress-timer");
                LimiterTesting threads = LimiterTesting.virtualThreads()) {
            FifoLimiter limiter = new FifoLimiter("stress", LIMIT, Duration.ofMillis(1), Duration.ofMillis(5), system,
                    new AdaptiveConcurrency(1, change -> { }));
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                SplittableRandom random = new SplittableRandom(i);
                QueueClass cls = CLASSES.get(random.nextInt(CLASSES.size()));
                done.add(threads.run(() -> {
                    start.await();
                    try {
                        Ticket ticket = limiter.enqueue(random.nextInt(3) == 0 ? 8 : 0, cls);
                        if (random.nextInt(6) == 0) {
                            long delay = random.nextLong(2_000_000);
                            threads.run(() -> {
                                LockSupport.parkNanos(delay);
                                ticket.cancel();
                            });
                        }
                        Permit permit = ticket.await(random.nextInt(4) == 0 ? Duration.ofMillis(1 + random.nextInt(5)) : Duration.ZERO);
                        granted.incrementAndGet();
                        peak.accumulateAndGet(holders.incrementAndGet(), Math::max);
                        LockSupport.parkNanos(random.nextLong(300_000));
                        holders.decrementAndGet();
                        permit.report(random.nextInt(8) == 0 ? LoadSample.overloaded("429", 1_000_000, 10)
                                : LoadSample.served(1_000_000 + random.nextLong(1_000_000), 10));
                        if (random.nextBoolean()) {
                            permit.release();
                        } else {
                            permit.releaseAfter(Duration.ofNanos(random.nextLong(1_000_000)));
                        }
                    } catch (QueueFullException | QueueTimeoutException | QueueCancelledException e) {
                        refused.incrementAndGet();
                    } finally {
                        ended.incrementAndGet();
                    }
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertEquals(REQUESTS, ended.get());
            assertEquals(REQUESTS, granted.get() + refused.get());
            assertTrue(granted.get() > 0);
            assertTrue(peak.get() <= LIMIT, "peak holders " + peak.get());
            eventually("no waiter, nothing in use", () -> {
                LimiterSnapshot s = limiter.snapshot();
                return s.waiters() == 0 && s.inUse() == 0 && s.cooling() == 0 && s.idle() == s.effectiveLimit();
            });
        }
    }
}
