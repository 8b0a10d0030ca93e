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
 * Many virtual threads against a small limit on the real timer, with random timeouts, cancels
 * from other threads, holds, double releases and 429s: the bound holds and every slot comes back.
 */
class LimiterStressTest {
    private static final int LIMIT = 4;
    private static final int REQUESTS = 500;

    @Test
    void concurrentHoldersNeverExceedTheLimitAndEverySlotComesBack() throws Exception {
        AtomicInteger holders = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        AtomicInteger granted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        try (SystemTimeSource system = new SystemTimeSource("limit-stress-timer");
                LimiterTesting threads = LimiterTesting.virtualThreads()) {
            FifoLimiter limiter = new FifoLimiter("stress", LIMIT, Duration.ofMillis(1), Duration.ofMillis(5), system);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                SplittableRandom random = new SplittableRandom(i);
                done.add(threads.run(() -> {
                    start.await();
                    Ticket ticket;
                    try {
                        ticket = limiter.enqueue(random.nextInt(10) == 0 ? 100 : 0);
                    } catch (QueueFullException e) {
                        refused.incrementAndGet();
                        return;
                    }
                    if (random.nextInt(5) == 0) {
                        long delay = random.nextLong(2_000_000);
                        threads.run(() -> {
                            LockSupport.parkNanos(delay);
                            ticket.cancel();
                        });
                    }
                    Permit permit;
                    try {
                        permit = ticket.await(random.nextInt(4) == 0 ? Duration.ofMillis(1 + random.nextInt(5)) : Duration.ZERO);
                    } catch (QueueTimeoutException | QueueCancelledException e) {
                        refused.incrementAndGet();
                        return;
                    }
                    granted.incrementAndGet();
                    int now = holders.incrementAndGet();
                    peak.accumulateAndGet(now, Math::max);
                    assertTrue(limiter.snapshot().inUse() <= LIMIT);
                    LockSupport.parkNanos(random.nextLong(500_000));
                    holders.decrementAndGet();
                    if (random.nextInt(10) == 0) {
                        limiter.onRateLimited();
                    }
                    switch (random.nextInt(3)) {
                        case 0 -> permit.release();
                        case 1 -> permit.releaseAfter(Duration.ofNanos(random.nextLong(1_000_000)));
                        default -> {
                            permit.release();
                            permit.release();
                        }
                    }
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(20, TimeUnit.SECONDS);
            }
            assertEquals(REQUESTS, granted.get() + refused.get());
            assertTrue(granted.get() > 0);
            assertTrue(peak.get() <= LIMIT, "peak holders " + peak.get());
            eventually("all slots back", () -> limiter.snapshot()
                    .equals(new LimiterSnapshot("stress", LIMIT, LIMIT, 0, 0, LIMIT, 0, Duration.ZERO)));
        }
    }
}
