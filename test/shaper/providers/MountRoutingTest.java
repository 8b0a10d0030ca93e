package shaper.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.testing.EchoWebSocketUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TextWebSocket;

/** Several providers behind one port: true mounts, whole segments, traversal, 404, health and WebSocket. */
class MountRoutingTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private static RunningShaper twoProviders(String upA, String upB, String... extraA) {
        List<String> argv = new ArrayList<>(List.of("-bind", "127.0.0.1:0", "--provider=anthropic", "-upstream", upA, "-prefix", "/anthropic"));
        argv.addAll(List.of(extraA));
        argv.addAll(List.of("--provider=openai", "-upstream", upB, "-prefix", "/openai"));
        return RunningShaper.start(argv.toArray(String[]::new));
    }

    private static HttpResponse<String> get(RunningShaper shaper, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a raw request line (so dot segments arrive unnormalised) and returns status and body. */
    private static String raw(RunningShaper shaper, String target) throws Exception {
        try (RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            RawHttp.Head head = raw.readHead();
            return head.status() + " " + raw.readBytes(Integer.parseInt(head.header("Content-Length")));
        }
    }

    @Test
    void eachMountReachesItsOwnUpstreamWithThePrefixStripped() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("from anthropic");
             ScriptedUpstream b = ScriptedUpstream.ok("from openai");
             RunningShaper shaper = twoProviders(a.url(), b.url())) {
            assertEquals("from anthropic", get(shaper, "/anthropic/v1/messages?beta=true").body());
            assertEquals("from openai", get(shaper, "/openai/v1/chat/completions").body());
            assertEquals("from anthropic", get(shaper, "/anthropic").body());
            assertEquals(List.of("/v1/messages?beta=true", "/"), a.requests().stream().map(r -> r.target()).toList());
            assertEquals("/v1/chat/completions", b.onlyRequest().target());
            RunningShaper.await("exchange logged", Duration.ofSeconds(5),
                    () -> !shaper.logLines("provider=openai method=GET path=/v1/chat/completions status=200").isEmpty());
        }
    }

    @Test
    void unmatchedPathsGet404InTheClientsDialectAndReachNoUpstream() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             RunningShaper shaper = twoProviders(a.url(), b.url())) {
            for (String path : new String[] {"/anthropic2", "/", "/openaix/v1"}) {
                HttpResponse<String> r = get(shaper, path);
                assertEquals(404, r.statusCode(), path);
                assertEquals("404 page not found\n", r.body(), path + ": Go's plain text off the API paths");
            }
            for (String path : new String[] {"/anthropic2/v1/messages", "/v1/messages"}) {
                HttpResponse<String> r = get(shaper, path);
                assertEquals(404, r.statusCode(), path);
                assertEquals("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"no provider is mounted at " + path
                        + " (see -prefix and /__shaper/health)\"}}", r.body(), path);
            }
            HttpResponse<String> chat = get(shaper, "/openaix/v1/chat/completions");
            assertEquals("{\"error\":{\"type\":\"not_found_error\",\"code\":\"not_mounted\",\"message\":\"no provider is mounted at"
                    + " /openaix/v1/chat/completions (see -prefix and /__shaper/health)\"}}", chat.body());
            RunningShaper.await("the 404s logged as exchanges", Duration.ofSeconds(5),
                    () -> shaper.logLines("path=/openaix/v1/chat/completions status=404").size() == 1);
            assertEquals(0, a.requests().size() + b.requests().size(), "nothing leaks to a default upstream");
        }
    }

    @Test
    void traversalIsResolvedBeforeMatchingAndEncodingIsKept() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             RunningShaper shaper = twoProviders(a.url(), b.url())) {
            assertEquals("200 a", raw(shaper, "/openai/../anthropic/v1/models"));
            assertEquals("200 b", raw(shaper, "/anthropic/%2e%2E/openai/x?q=%2F"));
            assertEquals("200 a", raw(shaper, "/anthropic/files/a%2Fb/%7E"));
            assertEquals("404 404 page not found\n", raw(shaper, "/anthropic/../../openai2/v1"));
            assertEquals(List.of("/v1/models", "/files/a%2Fb/%7E"), a.requests().stream().map(r -> r.target()).toList());
            assertEquals("/x?q=%2F", b.onlyRequest().target());
        }
    }

    @Test
    void routePatternsSeeThePathAfterThePrefix() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> {
                release.await(20, TimeUnit.SECONDS);
                ex.respond(200, "done");
            });
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             // A pattern spelled with the mount never matches: classification sees /v1/messages, which passes through.
             RunningShaper shaper = twoProviders(a.url(), b.url(), "-limit", "POST /anthropic/v1/messages:1")) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                calls.add(CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/anthropic/v1/messages"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()));
            }
            RunningShaper.await("both requests at the upstream at once", Duration.ofSeconds(10), () -> a.inFlight() == 2);
            release.countDown();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                assertEquals(200, c.get(10, TimeUnit.SECONDS).statusCode());
            }
        } finally {
            release.countDown();
        }
    }

    @Test
    void routePatternWithoutTheMountLimitsTheMountedPath() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ScriptedUpstream a = ScriptedUpstream.start((req, ex) -> {
                release.await(20, TimeUnit.SECONDS);
                ex.respond(200, "done");
            });
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             RunningShaper shaper = twoProviders(a.url(), b.url(), "-limit", "POST /v1/messages:1", "-release-cooldown", "0")) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                calls.add(CLIENT.sendAsync(HttpRequest.newBuilder(shaper.uri("/anthropic/v1/messages"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()));
            }
            RunningShaper.await("one at the upstream, one queued", Duration.ofSeconds(10), () -> a.inFlight() == 1
                    && shaper.server().limiters("anthropic").stream().mapToInt(s -> s.waiters()).sum() == 1);
            release.countDown();
            for (CompletableFuture<HttpResponse<String>> c : calls) {
                assertEquals(200, c.get(10, TimeUnit.SECONDS).statusCode());
            }
            assertEquals(1, a.peakInFlight());
        } finally {
            release.countDown();
        }
    }

    @Test
    void healthStaysAtTheRootAndListsEveryProviderWithItsPrefix() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             ScriptedUpstream b = ScriptedUpstream.ok("b");
             RunningShaper shaper = twoProviders(a.url(), b.url())) {
            HttpResponse<String> r = get(shaper, "/__shaper/health");
            assertEquals(200, r.statusCode());
            JsonNode providers = new ObjectMapper().readTree(r.body()).get("providers");
            assertEquals(2, providers.size());
            assertEquals(List.of("anthropic", "/anthropic", "openai", "/openai"), List.of(providers.get(0).get("name").asText(),
                    providers.get(0).get("prefix").asText(), providers.get(1).get("name").asText(), providers.get(1).get("prefix").asText()));
            assertEquals(0, a.requests().size() + b.requests().size());
        }
    }

    @Test
    void webSocketThroughAMountUsesTheStrippedPath() throws Exception {
        try (ScriptedUpstream a = ScriptedUpstream.ok("a");
             EchoWebSocketUpstream b = new EchoWebSocketUpstream();
             RunningShaper shaper = twoProviders(a.url(), b.url())) {
            try (TextWebSocket ws = TextWebSocket.open(URI.create("ws://127.0.0.1:" + shaper.port() + "/openai/v1/realtime?model=x"))) {
                assertEquals("echo: hi", ws.exchange("hi"));
            }
            assertEquals("/v1/realtime?model=x", b.handshakes().getFirst().target());
            RunningShaper.await("upgrade logged", java.time.Duration.ofSeconds(5),
                    () -> !shaper.logLines("provider=openai method=GET path=/v1/realtime").isEmpty());
            assertTrue(shaper.logLines("provider=openai method=GET path=/v1/realtime").getFirst().contains("status=101"));
        }
    }
}
