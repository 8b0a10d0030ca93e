package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.testing.HoldingUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Upgrades follow the rules of plain requests: bounded by -upstream-timeout, a cut body is aborted,
 * an answer that is not HTTP is 502, and the circuit breaker hears about each failure.
 */
class UpgradeBoundsTest {
    private static final String UPGRADE = "GET /v1/realtime HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";

    @Test
    void silentUpstreamHandshakeEndsAtTheUpstreamTimeout() throws Exception {
        try (HoldingUpstream up = HoldingUpstream.start();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-upstream-timeout", "1s", "-circuit-breaker")) {
            long start = System.nanoTime();
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.socket().setSoTimeout(20_000);
                raw.send(UPGRADE);
                assertEquals(502, raw.readHead().status());
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(Duration.ofSeconds(8)) < 0, "handshake ended after " + took);
            RunningShaper.await("upstream connection closed", Duration.ofSeconds(5), () -> up.closedByProxy() == 1);
            assertEquals(1, shaper.server().breaker("default").consecutiveFailures(), "the breaker is told");
        }
    }

    @Test
    void refusedUpgradeWithACutBodyIsAborted() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(403, "Content-Type: text/plain", "Content-Length: 100");
                ex.write("only ten b");
                ex.reset();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-circuit-breaker")) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(UPGRADE);
                assertEquals(403, raw.readHead().status());
                raw.readToEnd();
            }
            RunningShaper.await("upgrade logged", Duration.ofSeconds(5), () -> !shaper.logLines(" exchange provider=default method=GET path=/v1/realtime").isEmpty());
            String line = shaper.logLines(" exchange provider=default method=GET path=/v1/realtime").getFirst();
            assertTrue(line.contains("status=403") && line.contains("outcome=aborted"), line);
            assertEquals(1, shaper.server().breaker("default").consecutiveFailures(), "a cut body is an upstream failure");
        }
    }

    @Test
    void upstreamAnsweringWithNonHttpBytesIsABadGateway() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.write("SSH-2.0-OpenSSH_9.6\r\n\r\nnot http at all");
                ex.reset();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-circuit-breaker")) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send(UPGRADE);
                assertEquals(502, raw.readHead().status());
                String rest = raw.readToEnd();
                assertTrue(!rest.contains("SSH-2.0"), "raw upstream bytes reached the client: " + rest);
            }
            RunningShaper.await("upgrade logged", Duration.ofSeconds(5), () -> !shaper.logLines(" exchange provider=default method=GET path=/v1/realtime").isEmpty());
            String line = shaper.logLines(" exchange provider=default method=GET path=/v1/realtime").getLast();
            assertTrue(line.contains("status=502") && line.contains("outcome=failed"), line);
            assertEquals(1, shaper.server().breaker("default").consecutiveFailures());
        }
    }
}
