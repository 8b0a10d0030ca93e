package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.EchoWebSocketUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** 101 Switching Protocols upgrades are tunnelled both ways with the same header hygiene. */
class UpgradeTunnelTest {

    @Test
    void webSocketMessagesFlowBothWaysThroughTheProxy() throws Exception {
        try (EchoWebSocketUpstream up = new EchoWebSocketUpstream();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
            WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
                    .header("X-Forwarded-For", "10.9.9.9")
                    .buildAsync(URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/realtime?model=x"), new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                            received.add(data.toString());
                            webSocket.request(1);
                            return CompletableFuture.completedFuture(null);
                        }
                    }).get(10, TimeUnit.SECONDS);
            ws.sendText("hello", true).get(5, TimeUnit.SECONDS);
            assertEquals("echo: hello", received.poll(5, TimeUnit.SECONDS));
            ws.sendText("again", true).get(5, TimeUnit.SECONDS);
            assertEquals("echo: again", received.poll(5, TimeUnit.SECONDS));
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);

            RecordedRequest handshake = up.handshakes().getFirst();
            assertEquals("/v1/realtime?model=x", handshake.target());
            assertFalse(handshake.has("X-Forwarded-For"), "stealth hop applies to upgrades too");
            assertTrue(handshake.header("Upgrade").equalsIgnoreCase("websocket"));
            RunningShaper.await("upgrade logged", java.time.Duration.ofSeconds(5), () -> !shaper.logLines("path=/v1/realtime").isEmpty());
            assertTrue(shaper.logLines("path=/v1/realtime").getFirst().contains("status=101"));
        }
    }

    @Test
    void refusedUpgradeFromAKeepAliveUpstreamEndsAfterItsDeclaredBody() throws Exception {
        // the upstream keeps its connection open: the relay must stop at Content-Length, not wait for a close
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(426, "upgrade required", "Content-Type: text/plain"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.socket().setSoTimeout(5_000);
                raw.send("GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
                assertEquals(426, raw.readHead().status());
                assertEquals("upgrade required", raw.readToEnd());
            }
        }
    }

    @Test
    void refusedUpgradeRelaysTheUpstreamAnswer() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.respond(403, "no websockets here", "Content-Type: text/plain");
                ex.closeAfterResponse();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
                RawHttp.Head head = raw.readHead();
                assertEquals(403, head.status());
                assertTrue(raw.readToEnd().contains("no websockets here"));
            }
        }
    }
}
