package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.jline.utils.AttributedString;
import org.junit.jupiter.api.Test;

import shaper.cli.Invocation;
import shaper.configfile.ConfigLoader;
import shaper.server.ShaperServer;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The Clients tab over the real proxy: one row per client with its active and queued exchanges, the
 * oldest wait and its tokens of the last minute; the dashboard's queue rows name the client.
 */
class ClientsViewTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(10);

    private static CompletableFuture<HttpResponse<String>> send(ShaperServer server, String team, String id) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + server.port() + "/v1/messages?id=" + id))
                .timeout(Duration.ofSeconds(20)).header("X-Team", team).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String screen(ServerFrames frames, Tab tab) {
        ViewState state = new ViewState();
        state.tab = tab;
        Screen.Drawn d = Screen.render(frames.take(), state, new Throughput(), Theme.dark(), List.of(), 140, 30, false, ZoneOffset.UTC);
        return d.rows().stream().map(AttributedString::toString).collect(Collectors.joining("\n"));
    }

    @Test
    void eachClientHasARowAndQueueRowsNameTheirClient() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
            if (req.target().contains("hold") && !gate.await(20, TimeUnit.SECONDS)) {
                throw new java.io.IOException("gate never opened");
            }
            ex.respond(200, "{\"type\":\"message\",\"usage\":{\"input_tokens\":70,\"output_tokens\":30}}");
        })) {
            Invocation.Run run = assertInstanceOf(Invocation.Run.class, ConfigLoader.parse(List.of("-bind", "127.0.0.1:0",
                    "-upstream", up.url(), "-limit", "POST /v1/messages:1", "-release-cooldown", "0", "-client-id", "header:x-team")));
            ShaperServer server = ShaperServer.start(run.config(), quiet, quiet);
            try {
                ServerFrames frames = new ServerFrames(server, run.config(), new LogRing(), Clock.systemUTC(),
                        new Toasts(Clock.systemUTC()));
                assertEquals(200, send(server, "alice", "a0").get(20, TimeUnit.SECONDS).statusCode());
                var held = send(server, "alice", "hold");
                RunningShaper.await("alice's slot held", BOUND, () -> up.inFlight() == 1);
                var bob = send(server, "bob", "b0");
                RunningShaper.await("bob queued", BOUND, () -> server.journal("default").queued().size() == 1);
                String clients = screen(frames, Tab.CLIENTS);
                assertTrue(clients.contains("Client") && clients.contains("Tok/min"), clients);
                assertTrue(clients.matches("(?s).*alice\\s+1\\s+0\\s+-\\s+100.*"), "alice: 1 active, none queued, 100 tokens\n" + clients);
                assertTrue(clients.matches("(?s).*bob\\s+0\\s+1\\s+\\S+\\s+0.*"), "bob: one queued\n" + clients);
                String dash = screen(frames, Tab.DASHBOARD);
                assertTrue(dash.matches("(?s).*○ queued\\s+limited\\s+bob\\s+POST.*"), "the queue row names its client\n" + dash);
                gate.countDown();
                assertEquals(200, held.get(20, TimeUnit.SECONDS).statusCode());
                assertEquals(200, bob.get(20, TimeUnit.SECONDS).statusCode());
            } finally {
                gate.countDown();
                server.shutdown();
            }
        }
    }
}
