package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.proxy.wire.HostileUpstream.fetch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import shaper.testing.ConnectionOrder;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A chunked body is read by RFC 9112 section 7.1's grammar: a chunk-size line that is not hex
 * digits then optional whitespace then extensions ends the body there, and nothing after the
 * broken frame reaches the client, on a plain answer or mid-way through an event stream. Before,
 * {@code 1 0} and {@code 1\r0} were read as 0x10 and the next 16 bytes relayed as data.
 */
class HostileChunksTest {
    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n";
    private static final String SSE = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    /** Sixteen bytes: what a size line misread as 0x10 takes as data. */
    private static final String SMUGGLED = "INJECTED-PAYLOAD";

    private static Map<String, String> broken() {
        String first = "5\r\nhello\r\n";
        String event = "data: one\n\n";
        String sseFirst = Integer.toHexString(event.length()) + "\r\n" + event + "\r\n";
        Map<String, String> m = new LinkedHashMap<>();
        m.put("/space-in-size", CHUNKED + first + "1 0\r\n" + SMUGGLED + "\r\n0\r\n\r\n");
        m.put("/cr-in-size", CHUNKED + first + "1\r0\r\n" + SMUGGLED + "\r\n0\r\n\r\n");
        m.put("/letters-after-size", CHUNKED + first + "1x\r\n" + SMUGGLED + "\r\n0\r\n\r\n");
        m.put("/control-in-extension", CHUNKED + first + "10;a=\0\r\n" + SMUGGLED + "\r\n0\r\n\r\n");
        m.put("/sse-space-in-size", SSE + sseFirst + "1 0\r\n" + SMUGGLED + "\r\n0\r\n\r\n");
        m.put("/sse-cr-in-size", SSE + sseFirst + "1\r0\r\n" + SMUGGLED + "\r\n0\r\n\r\n");
        m.put("/cr-in-trailer", CHUNKED + first + "0\r\nX-Trailer: a\rX-" + SMUGGLED + ": 1\r\n\r\n");
        return m;
    }

    @Test
    void aBrokenChunkFrameEndsTheBodyAndNothingAfterItIsRelayed() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        Map<String, String> wire = broken();
        try (ScriptedUpstream up = HostileUpstream.answering(order, wire);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-cb-threshold", "1000")) {
            for (String path : wire.keySet()) {
                String got = fetch(shaper, path);
                assertFalse(got.contains(SMUGGLED), path + " relayed bytes after a broken frame: " + got);
                assertFalse(got.endsWith("\r\n0\r\n\r\n") && got.contains("Transfer-Encoding: chunked"),
                        path + " ended as if the body were whole: " + got);
            }
            List<String> exchanges = HostileUpstream.exchanges(shaper, wire.size());
            assertEquals(wire.size(), exchanges.size(), exchanges.toString());
            for (String line : exchanges) {
                assertFalse(line.contains("outcome=clean"), line);
            }
            assertTrue(fetch(shaper, "/ok").startsWith("HTTP/1.1 200 "));
            assertEquals(wire.size() + 1, order.arrivals().stream().distinct().count(), "no connection is reused after a broken frame");
        }
    }

    /** What the grammar allows is still read: whitespace before an extension, extensions with and without values. */
    @Test
    void whitespaceBeforeAnExtensionAndExtensionsAreRead() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = HostileUpstream.answering(order, Map.of("/ext",
                CHUNKED + "5 ;a=1\r\nhello\r\n6\t; b ; c=\"x;y\"\r\n world\r\n0 ;last\r\nX-Trailer: ok\r\n\r\n"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            String got = fetch(shaper, "/ext");
            assertTrue(got.startsWith("HTTP/1.1 200 "), got);
            assertTrue(got.replaceAll("\r\n[0-9a-f]+\r\n", "").contains("hello world"), got);
            assertTrue(fetch(shaper, "/ok").startsWith("HTTP/1.1 200 "));
            assertEquals(List.of(1, 1), order.arrivals(), "a body read whole leaves its connection reusable");
        }
    }
}
