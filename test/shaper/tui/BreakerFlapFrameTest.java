package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.breaker.BreakerState;
import shaper.cli.Invocation;
import shaper.configfile.ConfigLoader;
import shaper.limit.ManualTimeSource;
import shaper.server.ShaperServer;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The dashboard's frame feeder over the real proxy on a test clock: a circuit that opens, probes
 * and closes between two frames shows three toasts, though both frames find the breaker closed.
 */
class BreakerFlapFrameTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void aFlapBetweenTwoFramesShowsEveryTransition() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(req.target().contains("fail") ? 503 : 200, "{}"))) {
            Invocation.Run run = assertInstanceOf(Invocation.Run.class, ConfigLoader.parse(List.of("-bind", "127.0.0.1:0",
                    "-upstream", up.url(), "-retry", "0", "-cb-threshold", "1", "-cb-open-timeout", "1h", "-cb-max-open-timeout", "2h")));
            ShaperServer server = ShaperServer.start(run.config(), quiet, quiet, System::getenv, time);
            try {
                Toasts toasts = new Toasts(Clock.fixed(NOW, ZoneOffset.UTC));
                ServerFrames frames = new ServerFrames(server, run.config(), new LogRing(), Clock.fixed(NOW, ZoneOffset.UTC), toasts);
                assertEquals(BreakerState.CLOSED, frames.take().providers().getFirst().breaker().state());

                assertEquals(503, get(server, "/v1/fail"));
                RunningShaper.await("circuit open", BOUND, () -> server.breaker("default").state() == BreakerState.OPEN);
                time.advance(Duration.ofHours(1));
                assertEquals(200, get(server, "/v1/ok"), "the probe, once the proxy's clock says the wait is over");
                RunningShaper.await("circuit closed", BOUND, () -> server.breaker("default").state() == BreakerState.CLOSED);

                assertEquals(BreakerState.CLOSED, frames.take().providers().getFirst().breaker().state(),
                        "the next frame finds the breaker as the last one did");
                List<Toasts.Toast> shown = toasts.showing(NOW);
                assertEquals(List.of(Toasts.Kind.ERROR, Toasts.Kind.WARN, Toasts.Kind.OK), shown.stream().map(Toasts.Toast::kind).toList(),
                        shown.toString());
                assertTrue(shown.get(0).text().startsWith("default: circuit breaker open"), shown.toString());
                assertEquals("default: circuit breaker half-open, probing", shown.get(1).text());
                assertEquals("default: circuit breaker closed", shown.get(2).text());
            } finally {
                server.stop();
            }
        }
    }

    private static int get(ShaperServer server, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(BOUND).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }
}
