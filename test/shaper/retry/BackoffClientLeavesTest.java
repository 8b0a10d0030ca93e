package shaper.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeRecord;
import shaper.observe.Provenance;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A client that leaves during a retry backoff ends the wait at once (BackoffStep watches the
 * socket): the exchange is recorded as the client's abort long before the backoff would have
 * ended, its slot is back, and no retry is sent for nobody.
 */
class BackoffClientLeavesTest {
    /** Far longer than {@link #BOUND}: only the client's departure can end the wait in time. */
    private static final String BACKOFF = "120s";
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void clientLeavingDuringBackoffEndsTheWaitWithoutARetry() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch first = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                calls.incrementAndGet();
                ex.respond(503, "{\"error\":\"overloaded\"}", "Content-Type: application/json");
                first.countDown();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry-min-delay", BACKOFF, "-retry-wait-min", BACKOFF,
                     "-retry-wait-max", BACKOFF, "-retry-keepalive", "0", "-cb-threshold", "1000", "-release-cooldown", "0",
                     "-failure-hold", "0", "-cancel-cooldown", "0")) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                String body = "{\"model\":\"m\",\"max_tokens\":5}";
                raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.length() + "\r\n\r\n" + body);
                assertEquals(true, first.await(BOUND.toSeconds(), TimeUnit.SECONDS), "the first attempt reached the upstream");
            } // the client leaves here, while the proxy backs off
            RunningShaper.await("the exchange recorded", BOUND, () -> !shaper.server().journal("default").recent().isEmpty());
            ExchangeRecord r = shaper.server().journal("default").recent().getFirst();
            assertEquals(Provenance.CLIENT_ABORT, r.provenance(), r.toString());
            RunningShaper.await("the slot back", BOUND,
                    () -> shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::inUse).sum() == 0);
            assertEquals(1, calls.get(), "no retry was sent after the client left");
        }
    }
}
