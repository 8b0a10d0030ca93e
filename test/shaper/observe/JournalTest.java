package shaper.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import shaper.observe.ExchangeEnding;

/** The journal's ring, its capacity rule and its in-flight views, on an injected clock. */
class JournalTest {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final InstantSource wall = InstantSource.fixed(Instant.parse("2026-12-01T08:00:00Z"));

    private Journal journal(int capacity) {
        return new Journal("p", capacity, wall, nanos::get);
    }

    private static ExchangeRecord finish(ExchangeTrace t, int status) {
        return t.finish(new ExchangeEnding(status, Outcome.CLEAN, EndReason.COMPLETED, null), List.of(), List.of());
    }

    @Test
    void capacityFollowsTheSpecRule() {
        assertEquals(51, Journal.capacityFor(5L * 1024 * 1024), "the production capacity at the default 5 MiB");
        assertEquals(512, Journal.capacityFor(256 * 1024), "never above 512");
        assertEquals(256, Journal.capacityFor(0), "0 MiB falls back to a 1 MiB capture");
        assertEquals(1, Journal.capacityFor(1L << 40), "never below 1");
    }

    @Test
    void ringKeepsTheNewestFirstAndForgetsTheOldest() {
        Journal j = journal(3);
        ExchangePublisher publisher;
        try (ExchangeLog log = new ExchangeLog(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))) {
            publisher = new ExchangePublisher(j, new ExchangeCounters(), r -> { }, log);
            for (int i = 1; i <= 5; i++) {
                publisher.publish(finish(j.begin("GET", "/n" + i, ""), 200));
            }
        }
        List<ExchangeRecord> recent = j.recent();
        assertEquals(List.of("/n5", "/n4", "/n3"), recent.stream().map(ExchangeRecord::path).toList());
        assertThrows(UnsupportedOperationException.class, () -> recent.add(recent.getFirst()), "an immutable snapshot");
        assertEquals(5, publisher.counters().snapshot().status(2), "the counters saw every record");
        j.clear();
        assertTrue(j.recent().isEmpty());
    }

    @Test
    void inFlightViewsFollowQueueAdmissionAndRetries() {
        Journal j = journal(8);
        ExchangeTrace waiting = j.begin("POST", "/v1/messages", "beta=1");
        waiting.classified(RouteKind.LIMITED, "POST /v1/messages:1");
        ExchangeTrace active = j.begin("GET", "/v1/models", "");
        active.classified(RouteKind.PASSTHROUGH, "");
        active.queueEnded(false);
        active.attemptStarted();
        nanos.addAndGet(Duration.ofMillis(250).toNanos());

        List<InFlight> views = j.inFlight();
        assertEquals(2, views.size());
        InFlight first = views.getFirst();
        assertEquals(InFlight.State.QUEUED, first.state());
        assertEquals(Duration.ofMillis(250), first.age());
        assertEquals("POST /v1/messages:1", first.routeKey());
        assertEquals(InFlight.State.ACTIVE, views.get(1).state());
        assertEquals(1, j.queued().size());
        assertEquals(1, j.activeCount());
        assertEquals(0, j.retriesInFlight());

        active.backingOff(2, Duration.ofSeconds(4), "429 too many requests", "rate_limited");
        assertEquals(1, j.retriesInFlight(), "a backoff is a retry in flight");
        assertEquals(java.util.Optional.of(new shaper.observe.RetryWait(2, Duration.ofSeconds(4), "429 too many requests")),
                j.inFlight().get(1).retryWait(), "the journal says which attempt comes when, and why");
        active.attemptStarted();
        assertEquals(1, j.retriesInFlight(), "so is a second attempt");
        assertTrue(j.inFlight().get(1).retryWait().isEmpty(), "the wait is over once the attempt is sent");
        assertTrue(j.inFlight().get(1).retrying());

        waiting.queueEnded(true);
        ExchangeRecord r = finish(waiting, 200);
        assertEquals(Duration.ofMillis(250), r.timings().queueWait());
        assertEquals("/v1/messages?beta=1", r.url());
        assertEquals(1, j.inFlight().size(), "a finished exchange leaves the in-flight list");
        assertThrows(IllegalStateException.class, () -> finish(waiting, 200), "an exchange ends once");
    }

    @Test
    void timingsOfAnAbortedExchangeLeaveCompletionUnset() {
        Journal j = journal(2);
        ExchangeTrace t = j.begin("GET", "/s", "");
        t.queueEnded(false);
        t.attemptStarted();
        nanos.addAndGet(1_000_000);
        t.upstreamHeaders(200);
        nanos.addAndGet(500_000);
        t.clientHeaders();
        nanos.addAndGet(9_000_000);
        ExchangeRecord r = t.finish(new ExchangeEnding(200, Outcome.ABORTED, EndReason.CLIENT_LEFT, null), List.of(), List.of());
        assertEquals(Timings.UNSET, r.timings().lastByte());
        assertTrue(r.timings().download().isEmpty());
        assertEquals(Duration.ofNanos(1_500_000), r.timings().proxyAdded().orElseThrow().plusNanos(1_000_000),
                "proxy-added covers send and relay, not the upstream's own time");
        assertEquals(Provenance.CLIENT_ABORT, r.provenance());
        assertEquals(Duration.ofNanos(10_500_000), r.timings().duration());
    }

    @Test
    void bodyPreviewsAreBoundedCopies() {
        byte[] big = new byte[BodyPreview.LIMIT + 10];
        BodyPreview p = BodyPreview.of(big, big.length);
        assertEquals(BodyPreview.LIMIT, p.size());
        assertTrue(p.truncated());
        byte[] head = p.head();
        head[0] = 1;
        assertEquals(0, p.head()[0], "the preview cannot be changed through its accessor");
        assertEquals(BodyPreview.NONE, BodyPreview.of(null, 0));
    }
}
