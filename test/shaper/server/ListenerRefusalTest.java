package shaper.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.observe.EndReason;
import shaper.observe.ExchangeRecord;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * No silent refusals: every request the listener answers itself before routing (a request line,
 * header or framing it cannot parse) is one exchange record, one log line, counted; a coded body,
 * which the listener once refused with an empty 400, is no refusal at all.
 */
class ListenerRefusalTest {
    private static final List<String> REFUSED = List.of(
            "G(T /v1/messages HTTP/1.1\r\nHost: x\r\n\r\n",
            "POST /v1/messages HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n",
            "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "GET /v1/models HTTP/9.9\r\nHost: x\r\n\r\n");

    @Test
    void everyRefusalBeforeRoutingIsOneRecordOneLineAndCounted() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("fine");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            int answered = 0;
            for (String request : REFUSED) {
                int status = statusOf(shaper.port(), request);
                assertTrue(status >= 400 && status < 600, request.split("\r\n")[0] + " answered " + status);
                answered++;
                int expected = answered;
                RunningShaper.await("one line for " + request.split("\r\n")[0], Duration.ofSeconds(5),
                        () -> shaper.logLines("reason=bad_input").size() >= expected);
                assertEquals(expected, shaper.logLines("reason=bad_input").size(), shaper.stdout());
            }
            List<ExchangeRecord> records = shaper.server().journal("default").recent().stream()
                    .filter(r -> r.reason() == EndReason.BAD_INPUT).toList();
            assertEquals(REFUSED.size(), records.size());
            assertTrue(records.stream().anyMatch(r -> r.path().equals("/v1/messages") && r.method().equals("POST")), records.toString());
            assertEquals(REFUSED.size(), shaper.server().counters("default").snapshot().failed());
            assertEquals(0, up.requests().size());
        }
    }

    @Test
    void aCodedBodyIsNoRefusal() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("fine");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Encoding: zstd\r\nContent-Length: 4\r\n\r\n\u0028\u00b5\u002f\u00fd");
            assertEquals(200, raw.readHead().status());
            assertEquals(1, up.requests().size());
            assertTrue(shaper.logLines("reason=bad_input").isEmpty(), shaper.stdout());
        }
    }

    private static int statusOf(int port, String request) throws IOException {
        try (RawHttp raw = new RawHttp(port)) {
            raw.socket().setSoTimeout(5_000);
            raw.socket().getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return raw.readHead().status();
        }
    }
}
