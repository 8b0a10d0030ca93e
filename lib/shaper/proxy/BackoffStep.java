package shaper.proxy;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import shaper.admission.ClientGoneException;
import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.limit.TimeSource;
import shaper.observe.RetryLines;
import shaper.retry.RetryConfig;
import shaper.retry.RetryDecision;
import shaper.proxy.watch.ClientConnection;

/**
 * The step between two attempts: log the retry, commit an event stream for a streaming request
 * (so its client gets keepalives instead of silence), wait out the backoff while watching the
 * client, then ask the breaker again.
 *
 * <pre>
 * retry ─▶ log ─▶ [commit stream] ─▶ wait (keepalives; client gone ends it) ─▶ breaker.allow()
 *                                                                        open ─▶ circuit-open answer
 * </pre>
 *
 * <p>The backoff and the keepalives are timer tasks of the provider's {@link TimeSource}, so a test
 * that moves the clock ends the wait; the client's socket is looked at every {@value #SLICE_MILLIS} ms
 * of real time whatever the clock does, since a departure is a fact of the socket, not of the
 * proxy's clock. Keepalives go only to a stream committed before the upstream answered (between
 * frames: nothing of the upstream has been forwarded yet); a client that leaves ends the wait at
 * once, so a retry is never sent for nobody.
 */
final class BackoffStep {
    private static final long SLICE_MILLIS = 100;

    /** What the step concluded: try again with a new breaker admission, or the exchange ended. */
    sealed interface Next permits Again, Ended {
    }

    record Again(Admission admission) implements Next {
    }

    record Ended(ExchangeResult result) implements Next {
    }

    private BackoffStep() {
    }

    /**
     * @param turn the attempt just discarded: its number, and the body the next one sends
     * @param so   the exchange so far
     */
    static Next run(Carriage c, ProviderAssembly provider, RetryDecision.Retry r, Turn turn, ExchangeResult so) {
        RetryConfig config = provider.config().retry();
        c.trace().backingOff(turn.retry().attempt() + 1, r.delay(), RetryLines.why(r.reason()),
                r.reason().name().toLowerCase(java.util.Locale.ROOT));
        Exchange ex = c.exchange();
        provider.publisher().log().info(RetryLines.retry(provider.name(), ex.method(), ex.path(), turn.retry().attempt(), r));
        ExchangeResult result = so;
        // Parsed only when a retry happens: the common path never reads the JSON body.
        if (config.keepalive().isPositive()
                && c.sink().commitForRetry(() -> StreamFlag.isTrue(turn.body().bytes(), turn.codings()))) {
            result = result.committed(200);
        }
        c.sink().watchWhileSilent(c.client()); // the body is in memory (replayable) and nothing is written meanwhile
        try {
            await(r.delay(), c.sink(), config.keepalive(), c.client(), provider.time());
        } catch (ClientGoneException e) {
            return new Ended(result.clientLeft());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Ended(result.clientLeft());
        } finally {
            c.client().unwatch(); // the next attempt's answer is written to this connection
        }
        CircuitBreaker breaker = provider.breaker();
        Admission admission = breaker.allow();
        if (admission instanceof Admission.Rejected) {
            return new Ended(c.sink().fail(result, LocalFailure.circuitOpen(breaker.snapshot().nextProbeIn(), provider.upstreams().unreachable())));
        }
        return new Again(admission);
    }

    /** Waits out {@code delay} on {@code time}, with a keepalive every {@code keepalive} (the sink writes one only on a committed stream). */
    private static void await(Duration delay, ClientSink sink, Duration keepalive, ClientConnection client, TimeSource time)
            throws ClientGoneException, InterruptedException {
        long now = time.nanoTime();
        long end = now + delay.toNanos();
        long interval = keepalive.toNanos();
        long nextKeepalive = interval > 0 ? now + interval : Long.MAX_VALUE;
        Semaphore rang = new Semaphore(0);
        while (now < end) {
            long until = Math.min(end, nextKeepalive);
            TimeSource.Cancellable alarm = time.schedule(Duration.ofNanos(until - now), rang::release);
            try {
                while (!rang.tryAcquire(SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
                    requireOpen(client);
                }
            } finally {
                alarm.cancel();
            }
            requireOpen(client);
            now = time.nanoTime();
            if (now >= nextKeepalive && now < end) {
                sink.keepalive();
                nextKeepalive += interval;
            }
        }
    }

    private static void requireOpen(ClientConnection client) throws ClientGoneException {
        if (!client.isOpen()) {
            throw new ClientGoneException("client left during retry backoff");
        }
    }
}
