package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.ConnectionOrder;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The upstream client reads every framing an HTTP/1.1 upstream may send (RFC 9112 section 6.3),
 * byte for byte as written here, and relays the answer whole; an answer read to its end leaves the
 * connection reusable (the next request arrives on connection 1), and a head it cannot trust is a 502,
 * never a hang.
 */
class UpstreamClientWireTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(30);

    /** What the upstream writes for one request, chosen by its method and target. */
    @FunctionalInterface
    private interface Wire {
        void write(String target, ScriptedUpstream.Exchange ex) throws java.io.IOException, InterruptedException;
    }

    private static ScriptedUpstream upstream(ConnectionOrder order, Wire wire) {
        return ScriptedUpstream.start((req, ex) -> {
            order.arrived(ex);
            wire.write(req.method() + " " + req.target(), ex);
        });
    }

    /** The final head, past any 1xx the proxy may relay. */
    private static RawHttp.Head finalHead(RawHttp raw) throws Exception {
        RawHttp.Head head = raw.readHead();
        while (head.status() >= 100 && head.status() < 200) {
            head = raw.readHead();
        }
        return head;
    }

    /** The rest of a chunked answer to the client, de-chunked. */
    private static String chunks(RawHttp raw) throws Exception {
        StringBuilder body = new StringBuilder();
        String chunk;
        while ((chunk = raw.readChunk()) != null) {
            body.append(chunk);
        }
        return body.toString();
    }

    /** The client's body however the proxy framed it (Content-Length or chunked). */
    private static String body(RawHttp raw, RawHttp.Head head) throws Exception {
        String length = head.header("Content-Length");
        return length != null ? raw.readBytes(Integer.parseInt(length)) : chunks(raw);
    }

    @Test
    void chunkExtensionsAndTrailerFieldsAreReadAndTheBodyRelayedWhole() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, (target, ex) -> {
                ex.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n");
                ex.write("5;ext=1\r\nhello\r\n");
                ex.write("6;name=\"quoted;value\";flag\r\n world\r\n");
                ex.write("0;last=yes\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n");
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            for (int i = 0; i < 2; i++) {
                raw.send("GET /v1/chunked HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttp.Head head = finalHead(raw);
                assertEquals(200, head.status());
                assertEquals("hello world", body(raw, head));
            }
            // trailer fields left unread would make the next answer's head unreadable or the connection dropped
            assertEquals(List.of(1, 1), order.arrivals());
        }
    }

    @Test
    void aBodyEndedByTheUpstreamClosingArrivesWholeAndTheNextRequestGetsANewConnection() throws Exception {
        byte[] payload = new byte[200 * 1024 + 7];
        new Random(7).nextBytes(payload);
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, (target, ex) -> {
                if (target.endsWith("/until-close")) {
                    ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n");
                    for (int off = 0; off < payload.length; off += 10_000) {
                        ex.write(java.util.Arrays.copyOfRange(payload, off, Math.min(payload.length, off + 10_000)));
                    }
                    ex.closeAfterResponse();
                } else {
                    ex.respond(200, "next");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            HttpResponse<byte[]> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/until-close")).timeout(BOUND).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, r.statusCode());
            assertArrayEquals(payload, r.body());
            HttpResponse<String> next = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/next")).timeout(BOUND).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("next", next.body());
            assertEquals(List.of(1, 2), order.arrivals());
        }
    }

    /** RFC 9112 section 6.3: chunked framing overrides a Content-Length, which must not be forwarded. */
    @Test
    void aContentLengthBesideChunkedIsNeitherTrustedNorRelayed() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, (target, ex) -> {
                ex.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n");
                ex.write("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            for (int i = 0; i < 2; i++) {
                raw.send("GET /v1/both HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttp.Head head = finalHead(raw);
                assertEquals(200, head.status());
                assertTrue(!"100".equals(head.header("Content-Length")), "the upstream's Content-Length reached the client: " + head.headers());
                assertEquals("hello world", body(raw, head));
            }
            assertEquals(List.of(1, 1), order.arrivals());
        }
    }

    /**
     * RFC 9112 section 6.3: a response whose Content-Length is invalid has no trustworthy framing, and a
     * proxy answers 502; the same length repeated is one length.
     */
    @Test
    void anInvalidContentLengthIsA502AndARepeatedOneIsOne() throws Exception {
        try (ScriptedUpstream up = upstream(new ConnectionOrder(), (target, ex) -> {
                String length = switch (target.substring(target.lastIndexOf('/') + 1)) {
                    case "letters" -> "Content-Length: 1x";
                    case "repeated" -> "Content-Length: 5\r\nContent-Length: 5, 5";
                    default -> "Content-Length: 5\r\nContent-Length: 7";
                };
                ex.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + length + "\r\n\r\nhello, world");
                ex.closeAfterResponse();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            for (String path : List.of("/v1/letters", "/v1/conflicting")) {
                HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(502, r.statusCode(), path + " answered " + r.body());
            }
            HttpResponse<String> repeated = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/repeated")).timeout(BOUND).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, repeated.statusCode());
            assertEquals("hello", repeated.body());
        }
    }

    @Test
    void headAnswersWithALengthButNoBodyDoNotHang() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, (target, ex) -> {
                if (target.startsWith("HEAD ")) {
                    ex.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1234\r\n\r\n");
                } else {
                    ex.respond(200, "got it");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("HEAD /v1/doc HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Head head = finalHead(raw);
            assertEquals(200, head.status());
            assertEquals("1234", head.header("Content-Length"));
            raw.send("GET /v1/doc HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Head get = finalHead(raw);
            assertEquals(200, get.status());
            assertEquals("got it", body(raw, get));
            assertEquals(List.of(1, 1), order.arrivals());
        }
    }

    @Test
    void noContentAndNotModifiedCarryNoBodyWhateverTheirFieldsSay() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, (target, ex) -> {
                if (target.endsWith("/204")) {
                    ex.write("HTTP/1.1 204 No Content\r\nX-Kind: none\r\n\r\n");
                } else if (target.endsWith("/304")) {
                    // the length of the representation the client already has, not of this answer
                    ex.write("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 42\r\n\r\n");
                } else {
                    ex.respond(200, "after");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("DELETE /v1/204 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Head noContent = finalHead(raw);
            assertEquals(204, noContent.status());
            assertEquals("none", noContent.header("X-Kind"));
            raw.send("GET /v1/304 HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"v1\"\r\n\r\n");
            RawHttp.Head notModified = finalHead(raw);
            assertEquals(304, notModified.status());
            assertEquals("\"v1\"", notModified.header("ETag"));
            raw.send("GET /v1/ok HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Head ok = finalHead(raw);
            assertEquals(200, ok.status());
            assertEquals("after", body(raw, ok));
            assertEquals(List.of(1, 1, 1), order.arrivals());
        }
    }

    @Test
    void interimHeadsBeforeTheFinalAnswerAreNotTheAnswer() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, (target, ex) -> {
                if (target.endsWith("/103")) {
                    ex.write("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n");
                    ex.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhints");
                } else {
                    ex.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n"
                            + "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\ncontinue");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("GET /v1/103 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Head hinted = finalHead(raw);
            assertEquals(200, hinted.status());
            assertEquals("hints", body(raw, hinted));
            raw.send("POST /v1/100 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
            RawHttp.Head continued = finalHead(raw);
            assertEquals(200, continued.status());
            assertEquals("continue", body(raw, continued));
            assertEquals(List.of(1, 1), order.arrivals());
        }
    }

    @Test
    void aResponseHeadOver64KibIsA502NotAHang() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        String fill = "a".repeat(1000);
        try (ScriptedUpstream up = upstream(new ConnectionOrder(), (target, ex) -> {
                ex.write("HTTP/1.1 200 OK\r\n");
                if (target.endsWith("/many")) {
                    for (int i = 0; i < 80; i++) {
                        ex.write("X-Fill-" + i + ": " + fill + "\r\n");
                    }
                } else {
                    ex.write("X-Long: " + "b".repeat(70 * 1024) + "\r\n");
                }
                // the head never ends: only its size can end the wait
                release.await(BOUND.toSeconds(), TimeUnit.SECONDS);
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            try {
                for (String path : List.of("/v1/many", "/v1/one-long-line")) {
                    HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(502, r.statusCode(), path);
                }
                RunningShaper.await("both exchanges logged", BOUND, () -> shaper.logLines(" exchange ").size() == 2);
                assertEquals(2, shaper.logLines("upstream error").size(), shaper.stdout());
            } finally {
                release.countDown();
            }
        }
    }

    @Test
    void aMalformedStatusLineIsA502() throws Exception {
        try (ScriptedUpstream up = upstream(new ConnectionOrder(), (target, ex) -> {
                String statusLine = switch (target.substring(target.lastIndexOf('/') + 1)) {
                    case "letters" -> "HTTP/1.1 2OO OK";
                    case "protocol" -> "HTTP/2.0 200 OK";
                    case "icy" -> "ICY 200 OK";
                    case "short" -> "HTTP/1.1 20";
                    default -> "HTTP/1.1  200 OK";
                };
                ex.write(statusLine + "\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
                ex.closeAfterResponse();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            for (String path : List.of("/v1/letters", "/v1/protocol", "/v1/icy", "/v1/short", "/v1/two-spaces")) {
                HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(502, r.statusCode(), path + " answered " + r.body());
                assertTrue(!r.body().contains("ok"), path);
            }
        }
    }
}
