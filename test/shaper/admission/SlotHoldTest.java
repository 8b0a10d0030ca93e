package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.limit.ManualTimeSource;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * N+1 protection seen from the limiter right after an exchange: which holds keep the slot, for which
 * outcomes, and for how long. The proxy runs on a manual clock, so "still held" never depends on
 * timing and a hold's end is seen by moving the clock, not by waiting for it.
 */
class SlotHoldTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(10);

    private static ScriptedUpstream answering(int status, String... headers) {
        return ScriptedUpstream.start((req, ex) -> ex.respond(status, "{}", headers));
    }

    private static LimiterSnapshot pool(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().filter(s -> s.name().endsWith("default")).findFirst().orElseThrow();
    }

    private static void send(RunningShaper shaper) throws Exception {
        CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitPool(RunningShaper shaper, String what, Predicate<LimiterSnapshot> p) {
        RunningShaper.await(what, BOUND, () -> p.test(pool(shaper)));
    }

    /** Moves the clock to a second before the 30s hold ends, checks it still holds, then past its end. */
    private static void holdEndsAfter30s(ManualTimeSource time, RunningShaper shaper, Predicate<LimiterSnapshot> held,
                                         Predicate<LimiterSnapshot> over) {
        // "in use" is also true while the exchange still runs: wait until its hold has set its timer
        RunningShaper.await("the 30s hold's timer set", BOUND, () -> time.hasTaskDueIn(Duration.ofSeconds(30)));
        time.advance(Duration.ofSeconds(29));
        assertTrue(held.test(pool(shaper)), "still held a second before the end: " + pool(shaper));
        time.advance(Duration.ofSeconds(1));
        awaitPool(shaper, "the hold over", over);
    }

    @Test
    void releaseCooldownKeepsTheSlotOutOfThePoolAfterSuccess() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = answering(200);
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "30s")) {
            send(shaper);
            awaitPool(shaper, "slot cooling, not held", s -> s.cooling() == 1 && s.inUse() == 0);
            holdEndsAfter30s(time, shaper, s -> s.cooling() == 1, s -> s.cooling() == 0 && s.idle() == 1);
        }
    }

    @Test
    void successReleasesAtOnceWithoutCooldown() throws Exception {
        try (ScriptedUpstream up = answering(200);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "0")) {
            send(shaper);
            awaitPool(shaper, "slot idle again", s -> s.idle() == 1);
        }
    }

    @Test
    void upstreamFailureHoldsTheSlotForFailureHold() throws Exception {
        for (int status : new int[] {500, 503, 429}) {
            ManualTimeSource time = new ManualTimeSource();
            try (ScriptedUpstream up = answering(status);
                 RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "0",
                         "-failure-hold", "30s", "-retry", "0", "-circuit-breaker=false")) {
                send(shaper);
                awaitPool(shaper, status + " holds the slot", s -> s.inUse() == 1);
                holdEndsAfter30s(time, shaper, s -> s.inUse() == 1, s -> s.idle() == 1);
            }
        }
    }

    @Test
    void bareForbiddenIsNotAFailureButARateLimitedOneIs() throws Exception {
        try (ScriptedUpstream up = answering(403);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "0",
                     "-failure-hold", "30s", "-retry", "0", "-circuit-breaker=false")) {
            send(shaper);
            awaitPool(shaper, "bare 403 releases", s -> s.idle() == 1);
        }
        try (ScriptedUpstream up = answering(403, "x-ratelimit-remaining: 0");
             RunningShaper shaper = RunningShaper.start(new ManualTimeSource(), "-upstream", up.url(), "-concurrency", "1",
                     "-release-cooldown", "0", "-failure-hold", "30s", "-retry", "0", "-circuit-breaker=false")) {
            send(shaper);
            awaitPool(shaper, "rate-limited 403 holds", s -> s.inUse() == 1);
        }
    }

    @Test
    void failureHoldZeroReleasesAtOnce() throws Exception {
        try (ScriptedUpstream up = answering(500);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "0",
                     "-failure-hold", "0", "-retry", "0", "-circuit-breaker=false")) {
            send(shaper);
            awaitPool(shaper, "released", s -> s.idle() == 1);
        }
    }

    @Test
    void clientLeavingAfterUpstreamContactHoldsForCancelCooldown() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < 2_000; i++) {
                    ex.chunk("data: " + i + "\n\n");
                    Thread.sleep(5);
                }
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-concurrency", "1", "-release-cooldown", "0",
                     "-cancel-cooldown", "30s")) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
                assertEquals(200, raw.readHead().status());
                raw.readChunk();
                raw.socket().setSoLinger(true, 0);
            }
            RunningShaper.await("aborted", BOUND, () -> shaper.server().counters("default").snapshot().aborted() == 1);
            assertEquals(1, pool(shaper).inUse(), "the cancel cooldown holds the slot");
            holdEndsAfter30s(time, shaper, s -> s.inUse() == 1, s -> s.idle() == 1);
        }
    }

    @Test
    void upstream429WithheldOneSlotUnderAdaptiveHeadroom() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        try (ScriptedUpstream up = answering(429);
             RunningShaper shaper = RunningShaper.start(time, "-upstream", up.url(), "-concurrency", "3", "-release-cooldown", "0",
                     "-failure-hold", "0", "-retry", "0", "-circuit-breaker=false", "-adaptive-headroom", "-adaptive-headroom-window", "30s")) {
            send(shaper);
            awaitPool(shaper, "effective limit lowered by one", s -> s.effectiveLimit() == 2 && s.inUse() == 0);
            holdEndsAfter30s(time, shaper, s -> s.effectiveLimit() == 2, s -> s.effectiveLimit() == 3);
        }
    }

    @Test
    void holdRulesFollowTheOriginalOrdering() {
        AdmissionConfig cfg = new AdmissionConfig(java.util.List.of(), false, 1, 0, Duration.ofSeconds(30), 0, Duration.ZERO,
                Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(2), false, Duration.ofSeconds(30), false);
        Slots slots = new Slots(new AdmissionClass(null, null, null, true, "", false, null), java.util.List.of(), cfg);
        Duration none = Duration.ZERO;
        Duration penalty = Duration.ofSeconds(8);
        // upstream failure: penalty wins over failure-hold; zero penalty falls back to failure-hold
        assertEquals(penalty, slots.hold(new ExchangeEnd(true, 503, true, false, false, none), () -> penalty));
        assertEquals(Duration.ofSeconds(2), slots.hold(new ExchangeEnd(true, 503, true, false, false, none), () -> none));
        // a client abort with an ambiguous status suppresses the failure hold: cancel cooldown instead
        assertEquals(Duration.ofMillis(200), slots.hold(new ExchangeEnd(true, 0, true, true, false, none), () -> penalty));
        assertEquals(Duration.ofMillis(200), slots.hold(new ExchangeEnd(true, 502, true, true, false, none), () -> penalty));
        // ... but not with a real upstream status
        assertEquals(penalty, slots.hold(new ExchangeEnd(true, 503, true, true, false, none), () -> penalty));
        // a client that left before the upstream was contacted holds nothing
        assertEquals(none, slots.hold(new ExchangeEnd(false, 0, false, true, false, none), () -> penalty));
        // a local error releases at once
        assertEquals(none, slots.hold(new ExchangeEnd(true, 503, true, false, true, none), () -> penalty));
        assertEquals(none, slots.hold(new ExchangeEnd(true, 200, false, false, false, none), () -> penalty));
    }
}
