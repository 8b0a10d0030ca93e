package shaper.breaker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.Test;

/**
 * Many request threads racing into the breaker. The ticker makes every thread wait at a barrier
 * after it has read the breaker state, so all of them decide on the same state and only the
 * compare-and-set keeps the outcome right.
 */
class BreakerConcurrencyTest {
    private static final int THREADS = 16;
    private static final int ROUNDS = 20;

    @Test
    void concurrentAllowAdmitsExactlyOneProbe() throws Exception {
        RendezvousTicker clock = new RendezvousTicker();
        CircuitBreaker breaker = CircuitBreaker.of(Breakers.config(), clock);
        Breakers.trip(breaker);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                clock.manual.advance(breaker.snapshot().openTimeout());
                List<Admission> answers = race(pool, breaker, clock);

                List<Admission.Allowed> probes = answers.stream()
                        .filter(Admission.Allowed.class::isInstance).map(Admission.Allowed.class::cast).toList();
                assertEquals(1, probes.size(), "round " + round + ": " + answers);
                assertTrue(probes.getFirst().probe());
                breaker.recordFailure(probes.getFirst(), Duration.ZERO);
                assertEquals(BreakerState.OPEN, breaker.snapshot().state());
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void concurrentFailuresAreAllCounted() throws Exception {
        RendezvousTicker clock = new RendezvousTicker();
        CircuitBreaker breaker = CircuitBreaker.of(new BreakerConfig(true, 100, Duration.ofSeconds(30),
                Duration.ofSeconds(10), Duration.ofSeconds(40), Duration.ofSeconds(2), Duration.ofSeconds(60)), clock);
        List<Admission> admissions = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            admissions.add(breaker.allow());
        }
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            clock.arm(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (Admission a : admissions) {
                futures.add(pool.submit(() -> breaker.recordFailure(a, Duration.ZERO)));
            }
            for (Future<?> f : futures) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
        BreakerSnapshot s = breaker.snapshot();
        assertEquals(THREADS, s.consecutiveFailures());
        assertEquals(THREADS, s.failuresInWindow());
    }

    private static List<Admission> race(ExecutorService pool, CircuitBreaker breaker, RendezvousTicker clock) throws Exception {
        clock.arm(THREADS);
        List<Future<Admission>> futures = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            futures.add(pool.submit(breaker::allow));
        }
        List<Admission> answers = new ArrayList<>();
        for (Future<Admission> f : futures) {
            answers.add(f.get(10, TimeUnit.SECONDS));
        }
        return answers;
    }

    /** A manual ticker whose reads block until {@code parties} threads are reading, once per arming. */
    private static final class RendezvousTicker implements LongSupplier {
        final ManualTicker manual = new ManualTicker();
        private final AtomicReference<CyclicBarrier> gate = new AtomicReference<>();

        void arm(int parties) {
            gate.set(new CyclicBarrier(parties, () -> gate.set(null)));
        }

        @Override
        public long getAsLong() {
            CyclicBarrier barrier = gate.get();
            if (barrier != null) {
                try {
                    barrier.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted at the rendezvous", e);
                } catch (BrokenBarrierException | TimeoutException e) {
                    throw new IllegalStateException("rendezvous failed", e);
                }
            }
            return manual.getAsLong();
        }
    }
}
