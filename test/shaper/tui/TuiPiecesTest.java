package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import shaper.breaker.BreakerConfig;
import shaper.breaker.BreakerState;
import shaper.breaker.CircuitBreaker;
import shaper.cluster.LinkSnapshot;
import shaper.cluster.RedisFallback;

/** The dashboard's pure pieces: transition toasts (from a real breaker on a test clock), Network names, removed headers, log lines per provider. */
class TuiPiecesTest {
    private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

    @Test
    void transitionsBetweenFramesBecomeToasts() {
        Frames f = new Frames();
        CircuitBreaker alpha = f.breaker();
        f.posted.breaker("alpha", alpha);
        f.posted.link("alpha", Optional.of(new LinkSnapshot("redis://127.0.0.1:6379/0", "redis", true, 0, RedisFallback.LOCAL, "127.0.0.1:6379", null, 0)));
        assertTrue(f.toasts.showing(NOW).isEmpty(), "the first sight posts nothing");
        alpha.recordFailure(alpha.allow(), Duration.ZERO);
        f.posted.breaker("alpha", alpha);
        f.posted.link("alpha", Optional.of(new LinkSnapshot("redis://127.0.0.1:6379/0", "redis", false, 1, RedisFallback.LOCAL, "127.0.0.1:6379", null, 0)));
        f.posted.link("beta", Optional.of(new LinkSnapshot("redis://127.0.0.1:6379/0", "redis", false, 0, RedisFallback.CLOSED, "127.0.0.1:6379", null, 0)));
        f.posted.link("beta", Optional.of(new LinkSnapshot("redis://127.0.0.1:6379/0", "redis", true, 2, RedisFallback.CLOSED, "127.0.0.1:6379", null, 0)));
        List<Toasts.Toast> shown = f.toasts.showing(NOW);
        assertEquals(List.of(Toasts.Kind.ERROR, Toasts.Kind.WARN, Toasts.Kind.OK), shown.stream().map(Toasts.Toast::kind).toList());
        assertTrue(shown.get(0).text().startsWith("alpha: circuit breaker open"), shown.toString());
        assertEquals("alpha: redis unreachable, fallback to local limits", shown.get(1).text());
        assertEquals("beta: redis reachable again, cluster-wide limits", shown.get(2).text());
    }

    @Test
    void networkNamesTellPathsAndModelsApart() {
        List<RequestRow> rows = List.of(row("/v1/messages", "claude-a"), row("/v1/messages", "claude-b"),
                row("/a/x/items", ""), row("/b/x/items", ""), row("/v1/models", ""));
        assertEquals(List.of("messages · claude-a", "messages · claude-b", "a/x/items", "b/x/items", "models"), RowNames.of(rows));
    }

    @Test
    void removedHeadersAreTheClientsThatDidNotGoUpstream() {
        List<Map.Entry<String, String>> client = List.of(Map.entry("Host", "h"), Map.entry("Authorization", "Bearer c"),
                Map.entry("X-Keep", "1"), Map.entry("Connection", "x-drop"), Map.entry("X-Drop", "2"));
        List<Map.Entry<String, String>> upstream = List.of(Map.entry("x-keep", "1"), Map.entry("X-Api-Key", "(set by the proxy; value hidden)"));
        assertEquals(List.of("Authorization", "Connection", "X-Drop"), Details.removed(client, upstream));
    }

    @Test
    void logLinesNameTheirProvider() {
        assertEquals(Optional.of("alpha"), LogsView.provider("2026-12-01T08:00:00Z exchange provider=alpha method=GET"));
        assertEquals(Optional.of("beta"), LogsView.provider("provider=beta upstream auth x-api-key"));
        assertEquals(Optional.empty(), LogsView.provider("shaper listening on 127.0.0.1:8080"));
    }

    @Test
    void aBreakerThatFlapsBetweenTwoFramesShowsEveryTransition() {
        Frames f = new Frames();
        CircuitBreaker breaker = f.breaker();
        f.posted.breaker("alpha", breaker);

        // between two frames: open, then after the open wait a probe that succeeds (half-open, closed)
        breaker.recordFailure(breaker.allow(), Duration.ZERO);
        f.nanos.addAndGet(Duration.ofSeconds(30).toNanos());
        breaker.recordSuccess(breaker.allow());
        assertEquals(BreakerState.CLOSED, breaker.state(), "the frame that follows finds the breaker as it was");
        f.posted.breaker("alpha", breaker);

        List<Toasts.Toast> shown = f.toasts.showing(NOW);
        assertEquals(List.of("alpha: circuit breaker open (1 consecutive failures)", "alpha: circuit breaker half-open, probing",
                "alpha: circuit breaker closed"), shown.stream().map(Toasts.Toast::text).toList());
        assertEquals(List.of(Toasts.Kind.ERROR, Toasts.Kind.WARN, Toasts.Kind.OK), shown.stream().map(Toasts.Toast::kind).toList());
        f.posted.breaker("alpha", breaker);
        assertEquals(3, f.toasts.showing(NOW).size(), "a frame with no new transition posts nothing");
    }

    @Test
    void aBreakerAReloadPutInPlaceIsNewsFromItsFirstTransition() {
        Frames f = new Frames();
        CircuitBreaker before = f.breaker();
        before.recordFailure(before.allow(), Duration.ZERO);
        f.posted.breaker("alpha", before);
        assertTrue(f.toasts.showing(NOW).isEmpty(), "what happened before the first frame is old news");

        CircuitBreaker replaced = f.breaker();
        replaced.recordFailure(replaced.allow(), Duration.ZERO);
        f.posted.breaker("alpha", replaced);
        assertEquals(List.of("alpha: circuit breaker open (1 consecutive failures)"),
                f.toasts.showing(NOW).stream().map(Toasts.Toast::text).toList(), "its numbers start over, its first transition is shown");
    }

    /** Two frames' worth of dashboard state: the toasts, what posts them, and the clock its breakers run on. */
    private static final class Frames {
        final Toasts toasts = new Toasts(Clock.fixed(NOW, ZoneOffset.UTC));
        final TransitionToasts posted = new TransitionToasts(toasts);
        final AtomicLong nanos = new AtomicLong();

        /** A real breaker on this test clock that opens on its first failure. */
        CircuitBreaker breaker() {
            return CircuitBreaker.of(tripOnFirstFailure(), nanos::get);
        }
    }

    /** Opens on one failure, probes after 10 s. */
    private static BreakerConfig tripOnFirstFailure() {
        return new BreakerConfig(true, 1, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(40), Duration.ofSeconds(1),
                Duration.ofSeconds(1));
    }

    private static RequestRow row(String path, String model) {
        return new RequestRow(1, NOW, "POST", path, 200, true, false, "clean", "completed", 1, Duration.ZERO, Duration.ZERO,
                Duration.ZERO, Duration.ZERO, "application/json", 0, List.of(), List.of(), List.of(), "", "", model);
    }
}
