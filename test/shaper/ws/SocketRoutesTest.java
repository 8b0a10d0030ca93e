package shaper.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import shaper.observe.ExchangeRecord;
import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.EchoWebSocketUpstream;
import shaper.testing.RawHttp;
import shaper.testing.ResponsesSocketClient;
import shaper.testing.ResponsesSocketUpstream;
import shaper.testing.RunningShaper;

/**
 * What each route does with a Responses WebSocket upgrade: a passthrough route terminates it (the
 * handshake forwarded with the hygiene and credentials of any request), a transcoded route and
 * {@code -responses-websocket refuse} answer {@code 426} at once (the client falls back to HTTP),
 * {@code tunnel} splices it unread, and an upstream's refusal reaches the client with its status.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketRoutesTest {
    private static final Duration BOUND = Duration.ofSeconds(15);
    private static final String HANDSHAKE = "GET /v1/responses HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    private static URI socket(RunningShaper shaper) {
        return URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses");
    }

    @Test
    void theHandshakeGoesUpstreamWithTheProvidersCredentialAndWithoutForwardingFields() throws Exception {
        java.nio.file.Path key = java.nio.file.Files.writeString(dir.resolve("key"), "sk-test-provider\n");
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-auth-source", "file:" + key, "-auth-mode", "bearer");
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper), "Authorization", "Bearer client-key",
                     "OpenAI-Beta", "responses_websockets=2026-02-06", "X-Forwarded-For", "10.0.0.1")) {
            c.send(SocketTurnAdmissionTest.CREATE);
            c.until("response.completed", BOUND);
            Headers h = up.handshakes().getFirst();
            assertEquals("Bearer sk-test-provider", h.get(HeaderNames.AUTHORIZATION).get(), "the provider's credential, not the client's");
            assertEquals("responses_websockets=2026-02-06", h.get(HeaderNames.create("OpenAI-Beta")).get());
            assertFalse(h.contains(HeaderNames.X_FORWARDED_FOR), "no forwarding fields upstream");
            assertFalse(h.contains(HeaderNames.create("Sec-WebSocket-Extensions")), "permessage-deflate is not negotiated");
            List<ExchangeRecord> all = shaper.server().journal("default").recent();
            assertTrue(all.stream().anyMatch(r -> r.method().equals("GET") && r.status() == 101), all.toString());
            assertFalse(shaper.stdout().contains("sk-test-provider"), "the secret is never logged");
        }
    }

    @Test
    void aTranscodedRouteAnswers426AtOnce() throws Exception {
        ProbeServer probe = ProbeServer.start(ProbeConfig.defaults(0));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/chat").toString(), "-transcode-responses-chat");
             RawHttp raw = new RawHttp(shaper.port())) {
            long start = System.nanoTime();
            raw.send(HANDSHAKE);
            String answer = raw.readToEnd();
            assertTrue(answer.startsWith("HTTP/1.1 426 "), answer);
            assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 1000, "at once");
            assertEquals(0, probe.stats().snapshot().hits().values().stream().mapToLong(Long::longValue).sum(), "nothing upstream");
            List<ExchangeRecord> all = shaper.server().journal("default").recent();
            assertTrue(all.stream().anyMatch(r -> r.status() == 426), all.toString());
        } finally {
            probe.stop();
        }
    }

    @Test
    void refuseAnswers426AndTunnelSplicesUnread() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-responses-websocket", "refuse");
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send(HANDSHAKE);
            assertTrue(raw.readToEnd().startsWith("HTTP/1.1 426 "));
            assertTrue(up.handshakes().isEmpty());
        }
        try (EchoWebSocketUpstream echo = new EchoWebSocketUpstream();
             RunningShaper shaper = RunningShaper.start("-upstream", echo.url(), "-responses-websocket", "tunnel");
             ResponsesSocketClient c = ResponsesSocketClient.open(socket(shaper))) {
            c.send("not even JSON");
            assertEquals("echo: not even JSON", c.next(BOUND), "the tunnel does not read the frames");
        }
    }

    @Test
    void anUpstreamThatRefusesTheUpgradeHasItsStatusRelayed() throws Exception {
        try (shaper.testing.ScriptedUpstream up = shaper.testing.ScriptedUpstream.start((req, ex) ->
                ex.respond(404, "{\"error\":{\"message\":\"no sockets\"}}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send(HANDSHAKE);
            assertTrue(raw.readToEnd().startsWith("HTTP/1.1 404 "));
            RunningShaper.await("the handshake recorded", BOUND, () -> !shaper.server().journal("default").recent().isEmpty());
            assertEquals(404, shaper.server().journal("default").recent().getFirst().status());
        }
    }
}
