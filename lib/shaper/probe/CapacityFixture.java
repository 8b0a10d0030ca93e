package shaper.probe;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code /capacity}: an upstream with room for N requests at once, like a self-hosted server or a
 * shared account whose capacity moves. Above N in flight it refuses at once ({@code 429}
 * {@code rate_limit_error} with {@code Retry-After: 1}, {@code 529} {@code overloaded_error}, or
 * {@code 200}: an HTTP 200 event stream whose first frame after the preamble is a rate-limit error,
 * the overload only a proxy that reads the body can see);
 * within N it answers as {@code /ok} does, its first byte after the base latency, slower as it nears
 * N, the way a loaded server queues work internally:
 * <pre>
 *   requests in flight (this one included)   first byte after
 *   k &lt;= N - 2                                 latency
 *   k == N - 1                                 1.5 x latency
 *   k == N                                     2.5 x latency
 * </pre>
 * N changes at run time ({@code POST /__probe/capacity?n=}); requests already admitted keep going.
 * Thread-safe.
 */
final class CapacityFixture {
    private final AtomicInteger capacity;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final int status;
    private final Duration latency;
    private final Sleeper sleeper;

    CapacityFixture(ProbeConfig config, Sleeper sleeper) {
        this.capacity = new AtomicInteger(config.capacity());
        this.status = config.capacityStatus();
        this.latency = config.capacityLatency();
        this.sleeper = sleeper;
    }

    int capacity() {
        return capacity.get();
    }

    int inFlight() {
        return inFlight.get();
    }

    void setCapacity(int n) {
        ProbeConfig.requireAtLeastOne("capacity", n);
        capacity.set(n);
    }

    /** @param earlyError sends the 200 event stream that fails before any output (the {@code 200} refusal) */
    void play(ProbeRequest r, ServerResponse res, AnthropicApi api, Runnable earlyError) throws InterruptedException {
        int k = inFlight.incrementAndGet();
        try {
            int n = capacity.get();
            if (k > n && status == 200) {
                earlyError.run();
                return;
            }
            if (k > n) {
                refuse(res, n);
                return;
            }
            Duration firstByte = firstByteDelay(k, n, latency);
            if (firstByte.isPositive()) {
                sleeper.sleep(firstByte);
            }
            api.respond(r, res);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** The first-byte delay of the k-th request in flight under capacity n; see the class table. */
    static Duration firstByteDelay(int k, int n, Duration latency) {
        if (k >= n) {
            return latency.multipliedBy(5).dividedBy(2);
        }
        if (k == n - 1) {
            return latency.multipliedBy(3).dividedBy(2);
        }
        return latency;
    }

    private void refuse(ServerResponse res, int n) {
        if (status == 529) {
            JsonReply.send(res, 529, FailureBodies.error("overloaded_error", "Overloaded: capacity " + n + " in use."));
            return;
        }
        res.header(HeaderValues.create(HeaderNames.RETRY_AFTER, "1"));
        JsonReply.send(res, 429, FailureBodies.error("rate_limit_error",
                "Rate limit exceeded: " + n + " concurrent requests allowed."));
    }
}
