package shaper.probe;

import java.time.Duration;
import java.util.Objects;

import shaper.config.BindAddress;

/**
 * Everything the fixture server is started with; each value is a default that a request may
 * override with a query parameter where {@link Fixture} says so.
 *
 * @param bind         listen address; never null
 * @param reply        the assistant text every successful reply carries; not blank
 * @param failures     how many calls per path the flaky fixtures fail before succeeding ({@code ?fails=})
 * @param retryAfter   the {@code Retry-After} that {@code /retry429} sends, rounded up to whole seconds ({@code ?after=})
 * @param sseInterval  spacing of text deltas on {@code /slowsse} ({@code ?interval=})
 * @param slowDelay    how long {@code /slow} waits before answering ({@code ?delay=})
 * @param burstStatus  the 5xx status {@code /burst5xx} fails with ({@code ?status=})
 * @param rateLimits   the budgets and reply size of {@code /ratelimited} ({@code ?rpm= ?itpm= ?otpm= ?tpm= ?out=})
 * @param capacity        requests {@code /capacity} serves at once, at least 1 (changed at run time by
 *                        {@code POST /__probe/capacity?n=})
 * @param capacityStatus  what {@code /capacity} answers above it: 429, 529, or 200 (an event stream that opens with an error)
 * @param capacityLatency {@code /capacity}'s first-byte delay far from its capacity (slower near it)
 */
public record ProbeConfig(BindAddress bind, String reply, int failures, Duration retryAfter, Duration sseInterval,
        Duration slowDelay, int burstStatus, RateLimitDefaults rateLimits, int capacity, int capacityStatus, Duration capacityLatency) {
    public static final int DEFAULT_PORT = 15722;
    public static final String DEFAULT_REPLY = "Hello from ProbeServer.";
    public static final int DEFAULT_FAILURES = 2;
    public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);
    public static final Duration DEFAULT_SSE_INTERVAL = Duration.ofMillis(200);
    public static final Duration DEFAULT_SLOW_DELAY = Duration.ofSeconds(2);
    public static final int DEFAULT_BURST_STATUS = 503;
    public static final int DEFAULT_CAPACITY = 4;
    public static final int DEFAULT_CAPACITY_STATUS = 429;
    public static final Duration DEFAULT_CAPACITY_LATENCY = Duration.ofMillis(100);

    /** The limits of {@code /ratelimited}, per minute, and its reply size in output tokens. */
    public record RateLimitDefaults(int rpm, int itpm, int otpm, int output) {
        /** Anthropic's documented first-tier limits for a Sonnet model; replies of 100 output tokens. */
        public static final RateLimitDefaults DEFAULT = new RateLimitDefaults(50, 30_000, 8_000, 100);

        public RateLimitDefaults {
            if (rpm < 1 || itpm < 1 || otpm < 1 || output < 1) {
                throw new IllegalArgumentException("rl-rpm/rl-itpm/rl-otpm/rl-output: " + rpm + "/" + itpm + "/" + otpm + "/" + output
                        + " (expected: >= 1)");
            }
        }
    }

    public ProbeConfig {
        Objects.requireNonNull(rateLimits, "rateLimits");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(reply, "reply");
        if (reply.isBlank()) {
            throw new IllegalArgumentException("reply: \"" + reply + "\" (expected: non-blank text)");
        }
        requireAtLeastZero("failures", failures);
        requireNotNegative("retry-after", retryAfter);
        requireNotNegative("sse-interval", sseInterval);
        requireNotNegative("slow-delay", slowDelay);
        if (burstStatus < 500 || burstStatus > 599) {
            throw new IllegalArgumentException("burst-status: " + burstStatus + " (expected: 500..599)");
        }
        requireAtLeastOne("capacity", capacity);
        if (capacityStatus != 429 && capacityStatus != 529 && capacityStatus != 200) {
            throw new IllegalArgumentException("capacity-status: " + capacityStatus + " (expected: 429, 529 or 200)");
        }
        requireNotNegative("capacity-latency", capacityLatency);
    }

    /** Defaults on {@code 127.0.0.1} and the given port (0 for an ephemeral one). */
    public static ProbeConfig defaults(int port) {
        return new ProbeConfig(new BindAddress("127.0.0.1", port), DEFAULT_REPLY, DEFAULT_FAILURES, DEFAULT_RETRY_AFTER,
                DEFAULT_SSE_INTERVAL, DEFAULT_SLOW_DELAY, DEFAULT_BURST_STATUS, RateLimitDefaults.DEFAULT, DEFAULT_CAPACITY,
                DEFAULT_CAPACITY_STATUS, DEFAULT_CAPACITY_LATENCY);
    }

    /** This configuration with another assistant text, every other value as it is. */
    public ProbeConfig withReply(String text) {
        return new ProbeConfig(bind, text, failures, retryAfter, sseInterval, slowDelay, burstStatus, rateLimits, capacity,
                capacityStatus, capacityLatency);
    }

    /** This configuration with other {@code /ratelimited} limits, every other value as it is. */
    public ProbeConfig withRateLimits(RateLimitDefaults limits) {
        return new ProbeConfig(bind, reply, failures, retryAfter, sseInterval, slowDelay, burstStatus, limits, capacity,
                capacityStatus, capacityLatency);
    }

    /** This configuration with other {@code /capacity} settings (see the record's parameters), every other value as it is. */
    public ProbeConfig withCapacity(int requests, int status, Duration latency) {
        return new ProbeConfig(bind, reply, failures, retryAfter, sseInterval, slowDelay, burstStatus, rateLimits, requests,
                status, latency);
    }

    static void requireAtLeastOne(String name, long value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 1)");
        }
    }

    static void requireAtLeastZero(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
    }

    static void requireNotNegative(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0s)");
        }
    }
}
