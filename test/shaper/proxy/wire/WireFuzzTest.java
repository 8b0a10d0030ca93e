package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import shaper.testing.ConnectionOrder;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Thousands of generated answers, valid and broken ({@link FuzzedAnswer}, seeded so a failure
 * repeats), sent one after another through the proxy: a valid one reaches the client with its
 * status, every field and its body intact; a broken head is a 502 without a byte of it; a broken
 * chunk stream never hands on its marker nor ends as if whole; and no upstream connection that
 * carried a broken answer carries another request.
 */
class WireFuzzTest {
    private static final long SEED = 30;
    private static final int CASES = 3000;

    @Test
    void noAnswerIsRelayedThatAStrictParserRefusesAndNoConnectionOutlivesAnError() throws Exception {
        Random random = new Random(SEED);
        List<FuzzedAnswer> cases = new ArrayList<>();
        for (int i = 0; i < CASES; i++) {
            cases.add(FuzzedAnswer.generate(random, i));
        }
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                order.arrived(ex);
                FuzzedAnswer a = cases.get(Integer.parseInt(req.target().substring(3)));
                ex.write(a.wire().getBytes(StandardCharsets.ISO_8859_1));
                if (!a.valid()) {
                    ex.closeAfterResponse(); // the proxy closes it first; this only ends the scripted side's loop
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-circuit-breaker=false")) {
            Set<Integer> broken = new HashSet<>();
            for (int i = 0; i < CASES; i++) {
                FuzzedAnswer a = cases.get(i);
                String got = fetch(shaper, "/f/" + i);
                int conn = order.arrivals().get(i);
                String what = "case " + i + " (" + a.defect() + ")";
                assertTrue(!broken.contains(conn), what + " went out on connection " + conn + ", which had carried a broken answer");
                if (a.valid()) {
                    checkRelayed(a, got, what);
                } else {
                    broken.add(conn);
                    assertTrue(!got.contains(a.marker()), what + " relayed what followed its defect:\n" + got);
                    if (a.headBad()) {
                        assertTrue(got.startsWith("HTTP/1.1 502 "), what + " was not refused:\n" + head(got));
                    } else {
                        assertTrue(!got.endsWith("\r\n0\r\n\r\n"), what + " ended as if whole:\n" + head(got));
                    }
                }
            }
        }
    }

    private static String fetch(RunningShaper shaper, String path) throws IOException {
        try (RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            return new String(raw.in().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /** The client got the status, every {@code X-Fz-} field in order and the body, however the proxy framed it. */
    private static void checkRelayed(FuzzedAnswer a, String got, String what) {
        int start = 0;
        while (got.startsWith("HTTP/1.1 1", start)) {
            start = got.indexOf("\r\n\r\n", start) + 4; // an interim head the proxy passed on
        }
        int end = got.indexOf("\r\n\r\n", start);
        if (end < 0) {
            fail(what + " has no complete head:\n" + head(got));
        }
        String[] lines = got.substring(start, end).split("\r\n");
        assertTrue(lines[0].startsWith("HTTP/1.1 " + a.status() + " "), what + ": " + lines[0]);
        List<String> expected = new ArrayList<>();
        for (String[] f : a.fields()) {
            // obs-text is accepted and passed on, but the listener writes field values as US-ASCII: each such byte becomes '?'
            expected.add(f[0].toLowerCase() + ": " + f[1].replaceAll("[\u0080-\u00ff]", "?"));
        }
        List<String> relayed = new ArrayList<>();
        boolean chunked = false;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            String name = lines[i].substring(0, colon).toLowerCase();
            String value = lines[i].substring(colon + 1).strip();
            if (name.startsWith("x-fz-")) {
                relayed.add(name + ": " + value);
            }
            chunked |= name.equals("transfer-encoding") && value.equalsIgnoreCase("chunked");
        }
        assertEquals(sortedByName(expected), sortedByName(relayed), what + " fields");
        String body = got.substring(end + 4);
        assertEquals(a.body(), chunked ? dechunk(body) : body, what + " body");
    }

    /** Values of one name keep their order; names may be grouped differently, which HTTP allows. */
    private static List<String> sortedByName(List<String> fields) {
        List<String> sorted = new ArrayList<>(fields);
        sorted.sort((x, y) -> x.substring(0, x.indexOf(':')).compareTo(y.substring(0, y.indexOf(':'))));
        return sorted;
    }

    private static String dechunk(String body) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int eol = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, eol).split(";")[0].strip(), 16);
            if (size == 0) {
                return out.toString();
            }
            out.append(body, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
        }
    }

    private static String head(String got) {
        return got.length() > 300 ? got.substring(0, 300) : got;
    }
}
