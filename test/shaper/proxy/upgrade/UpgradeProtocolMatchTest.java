package shaper.proxy.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.observe.EndReason;
import shaper.observe.ExchangeCounters;
import shaper.observe.ExchangeRecord;
import shaper.observe.Journal;
import shaper.observe.Outcome;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A {@code 101} is spliced only when it switches to a protocol the client offered; any other
 * {@code 101} is a {@code 502}, one failed record and a breaker failure, and its bytes never reach
 * the client.
 */
class UpgradeProtocolMatchTest {
    private static final String WEBSOCKET_REQUEST = "GET /v1/realtime HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
    private static final String H2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    private static final String EXCHANGE_LINE = " exchange provider=default method=GET path=/v1/realtime";

    @Test
    void switchToAProtocolTheClientDidNotOfferIsABadGateway() throws Exception {
        CountDownLatch upstreamClosed = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(101, "Upgrade: h2c", "Connection: Upgrade");
                ex.write(H2_PREFACE);
                ex.socket().setSoTimeout(10_000);
                if (ex.socket().getInputStream().read() < 0) {
                    upstreamClosed.countDown();
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-circuit-breaker")) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.socket().setSoTimeout(10_000);
                raw.send(WEBSOCKET_REQUEST);
                assertEquals(502, raw.readHead().status());
                String body = raw.readToEnd();
                assertFalse(body.contains("PRI *"), "the upstream's h2c bytes reached the client: " + body);
                assertTrue(body.contains("protocol"), body);
            }
            assertTrue(upstreamClosed.await(10, TimeUnit.SECONDS), "the proxy closes the upstream connection");
            ExchangeRecord r = onlyRecord(shaper);
            assertEquals(502, r.status());
            assertEquals(Outcome.FAILED, r.outcome());
            ExchangeCounters.Snapshot counted = shaper.server().counters("default").snapshot();
            assertEquals(1, counted.failed(), counted.toString());
            assertEquals(0, counted.upgraded(), counted.toString());
            // the publisher writes the log line after the journal and the counters
            RunningShaper.await("exchange logged", Duration.ofSeconds(10), () -> !shaper.logLines(EXCHANGE_LINE).isEmpty());
            List<String> lines = shaper.logLines(EXCHANGE_LINE);
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.getFirst().contains("status=502") && lines.getFirst().contains("outcome=failed"), lines.getFirst());
            List<String> errors = shaper.logLines("upstream error provider=default method=GET path=/v1/realtime");
            assertEquals(1, errors.size(), errors.toString());
            assertTrue(errors.getFirst().contains("'h2c'") && errors.getFirst().contains("'websocket'"), errors.getFirst());
            assertEquals(1, shaper.server().breaker("default").consecutiveFailures(), "the breaker hears of the bad switch");
        }
    }

    @Test
    void switchNamingNoProtocolIsABadGateway() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.head(101, "Connection: Upgrade"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.socket().setSoTimeout(10_000);
                raw.send(WEBSOCKET_REQUEST);
                assertEquals(502, raw.readHead().status());
            }
            assertEquals(Outcome.FAILED, onlyRecord(shaper).outcome());
        }
    }

    @Test
    void offeredProtocolIsMatchedWithoutRegardToCase() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(101, "Upgrade: WebSocket", "Connection: Upgrade");
                ex.write("tunnelled");
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.socket().setSoTimeout(10_000);
                raw.send(WEBSOCKET_REQUEST);
                RawHttp.Head head = raw.readHead();
                assertEquals(101, head.status());
                assertEquals("WebSocket", head.header("Upgrade"));
                assertEquals("tunnelled", raw.readBytes("tunnelled".length()));
            }
            ExchangeRecord r = onlyRecord(shaper);
            assertEquals(101, r.status());
            assertEquals(EndReason.UPGRADED, r.reason());
        }
    }

    /** Waits (bounded) for the provider's one finished exchange and nothing in flight. */
    private static ExchangeRecord onlyRecord(RunningShaper shaper) {
        Journal journal = shaper.server().journal("default");
        RunningShaper.await("one record", Duration.ofSeconds(10), () -> !journal.recent().isEmpty() && journal.inFlight().isEmpty());
        List<ExchangeRecord> recent = journal.recent();
        assertEquals(1, recent.size(), recent.toString());
        return recent.getFirst();
    }
}
