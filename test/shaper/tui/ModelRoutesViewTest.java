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
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.jline.utils.AttributedString;
import org.junit.jupiter.api.Test;

import shaper.cli.Invocation;
import shaper.configfile.ConfigLoader;
import shaper.server.ShaperServer;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The Routes tab over the real proxy with a routed mount: each model route with its targets, the
 * exchanges each target served and the fallbacks by where they moved and why, read from the frame's
 * typed route stats; a reset zeroes them.
 */
class ModelRoutesViewTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(15);

    private static int post(ShaperServer server, String model) throws Exception {
        String body = "{\"model\":\"" + model + "\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/r/v1/messages")).timeout(BOUND)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static String screen(Frame frame) {
        ViewState state = new ViewState();
        state.tab = Tab.ROUTES;
        Screen.Drawn d = Screen.render(frame, state, new Throughput(), Theme.dark(), List.of(), 140, 40, false, ZoneOffset.UTC);
        return d.rows().stream().map(AttributedString::toString).collect(Collectors.joining("\n"));
    }

    @Test
    void routesShowTheirTargetsWhereTrafficWentAndWhyItMoved() throws Exception {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> ex.respond(new String(req.body(), StandardCharsets.UTF_8).contains("opus") ? 529 : 200,
                "{\"type\":\"message\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}"));
             ScriptedUpstream b = ScriptedUpstream.ok("{\"type\":\"message\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}")) {
            Invocation.Run run = assertInstanceOf(Invocation.Run.class, ConfigLoader.parse(List.of("-bind", "127.0.0.1:0",
                    "-route-prefix", "/r", "-model-route", "claude-*=a,b", "-model-route", "gpt-5*=b",
                    "--provider=a", "-upstream", a.url(), "-prefix", "/a", "-retry", "0",
                    "--provider=b", "-upstream", b.url(), "-prefix", "/b", "-retry", "0")));
            ShaperServer server = ShaperServer.start(run.config(), quiet, quiet);
            try {
                ServerFrames frames = new ServerFrames(server, run.config(), new LogRing(), Clock.systemUTC(), new Toasts(Clock.systemUTC()));
                assertEquals(200, post(server, "claude-haiku-4"));
                assertEquals(200, post(server, "claude-haiku-4"));
                assertEquals(200, post(server, "claude-opus-4"), "a answers 529 for opus: it moves on to b");
                RunningShaper.await("three records", BOUND,
                        () -> server.journal("a").recent().size() + server.journal("b").recent().size() == 3);
                Frame frame = frames.take();
                List<ModelRouteStat> stats = frame.modelRoutes();
                assertEquals(List.of("claude-*", "gpt-5*"), stats.stream().map(ModelRouteStat::pattern).toList());
                assertEquals(List.of("a", "b"), stats.get(0).targets());
                assertEquals(Map.of("a", 2L, "b", 1L), stats.get(0).served());
                assertEquals(Map.of("a→b 529", 1L), stats.get(0).fallbacks());
                assertEquals(Map.of("b", 0L), stats.get(1).served());
                String routes = screen(frame);
                assertTrue(routes.contains("Model routes"), routes);
                assertTrue(routes.contains("claude-* → a, b") && routes.contains("gpt-5* → b"), routes);
                assertTrue(routes.matches("(?s).*served by a\\s+2.*served by b\\s+1.*fallback a→b 529\\s+1.*"), routes);
                assertEquals(stats, frames.take().modelRoutes(), "a record is counted once, however many frames read it");
                frames.reset();
                assertEquals(Map.of("a", 0L, "b", 0L), frames.take().modelRoutes().get(0).served(), "reset zeroes the routes");
            } finally {
                server.shutdown();
            }
        }
    }
}
