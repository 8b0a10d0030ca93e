package shaper.proxy.ws;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import shaper.proxy.TurnSocket.TurnEnd;
import shaper.usage.UsageScanner;

/**
 * One turn of the socket, from its request on: what its events feed once it was sent upstream, and
 * how it ended (the first ending wins). Events before {@link #attach} (none are expected: the
 * request has not gone upstream) are relayed without being counted.
 */
final class TurnRelay {
    private volatile UsageScanner usage;
    private volatile Runnable firstEvent;
    private final AtomicInteger relayed = new AtomicInteger();
    private final AtomicReference<TurnEnd> end = new AtomicReference<>();
    private final CountDownLatch done = new CountDownLatch(1);

    /** Events of the turn relayed so far. */
    int relayed() {
        return relayed.get();
    }

    /** The turn was admitted and its request is about to go upstream. */
    void attach(UsageScanner scanner, Runnable first) {
        firstEvent = first;
        usage = scanner;
    }

    /** Counts an event about to be relayed; its ending when it is the turn's terminal event, else null. */
    TurnEnd seen(String event) {
        UsageScanner scanner = usage;
        if (scanner == null) {
            return null;
        }
        int n = relayed.incrementAndGet();
        if (n == 1) {
            firstEvent.run();
        }
        byte[] line = ("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8);
        scanner.feed(line, 0, line.length);
        return switch (TurnFrames.type(event)) {
            case TurnFrames.COMPLETED -> new TurnEnd(TurnEnd.Kind.COMPLETED, 0, Duration.ZERO, n);
            case TurnFrames.FAILED, TurnFrames.INCOMPLETE -> new TurnEnd(TurnEnd.Kind.FAILED, 0, Duration.ZERO, n);
            case "error" -> {
                TurnFrames.Error e = TurnFrames.error(event);
                yield new TurnEnd(e.status() > 0 ? TurnEnd.Kind.ERROR_EVENT : TurnEnd.Kind.FAILED, e.status(), e.retryAfter(), n);
            }
            default -> null;
        };
    }

    void end(TurnEnd how) {
        if (end.compareAndSet(null, how)) {
            done.countDown();
        }
    }

    TurnEnd await(Duration bound) throws InterruptedException {
        return done.await(bound.toMillis(), TimeUnit.MILLISECONDS) ? end.get() : null;
    }
}
