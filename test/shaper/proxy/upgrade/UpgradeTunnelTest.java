package shaper.proxy.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;

import org.junit.jupiter.api.Test;

import shaper.testing.EchoWebSocketUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TextWebSocket;

/** 101 Switching Protocols upgrades are tunnelled both ways with the same header hygiene. */
class UpgradeTunnelTest {

    @Test
    void webSocketMessagesFlowBothWaysThroughTheProxy() throws Exception {
        try (EchoWebSocketUpstream up = new EchoWebSocketUpstream();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (TextWebSocket ws = TextWebSocket.open(URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/realtime?model=x"),
                    "X-Forwarded-For", "10.9.9.9")) {
                assertEquals("echo: hello", ws.exchange("hello"));
                assertEquals("echo: again", ws.exchange("again"));
            }

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
