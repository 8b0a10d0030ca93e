package shaper.retry;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * The jitter source for a proxy's many request threads: each call uses the calling thread's own
 * {@link ThreadLocalRandom}, since a single shared generator (e.g. {@code SplittableRandom}) is
 * not safe to use from several threads at once. Tests pass a seeded generator instead.
 */
public final class ThreadLocalJitter implements RandomGenerator {
    public static final ThreadLocalJitter INSTANCE = new ThreadLocalJitter();

    private ThreadLocalJitter() {
    }

    @Override
    public long nextLong() {
        return ThreadLocalRandom.current().nextLong();
    }

    @Override
    public double nextDouble() {
        return ThreadLocalRandom.current().nextDouble();
    }
}
