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

    private static <T> HttpResponse<T> get(RunningShaper shaper, String path, HttpResponse.BodyHandler<T> body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).build(), body);
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

    /** One request over the client connection, the status it must get, and its body (null: none is read). */
    private record Step(String request, int status, String body) {
        static Step of(String requestLine, int status, String body) {
            return new Step(requestLine + " HTTP/1.1\r\nHost: x\r\n\r\n", status, body);
        }
    }

    /**
     * Runs the steps in order over one client connection to the proxy in front of {@code wire}, and
     * checks that every request reached the upstream over one connection: an answer read short or
     * long would make the next head unreadable or the connection dropped. Returns the client's heads.
     */
    private static List<RawHttp.Head> overOneConnection(Wire wire, Step... steps) throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, wire);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url());
             RawHttp raw = new RawHttp(shaper.port())) {
            List<RawHttp.Head> heads = new java.util.ArrayList<>();
            for (Step step : steps) {
                raw.send(step.request());
                RawHttp.Head head = finalHead(raw);
                assertEquals(step.status(), head.status(), step.request());
                if (step.body() != null) {
                    assertEquals(step.body(), body(raw, head));
                }
                heads.add(head);
            }
            assertEquals(java.util.Collections.nCopies(steps.length, 1), order.arrivals());
            return heads;
        }
    }

    /** Two GETs answered with {@code wire}, whose body is "hello world". */
    private static List<RawHttp.Head> helloWorldTwice(String... wire) throws Exception {
        Step get = Step.of("GET /v1/hello", 200, "hello world");
        return overOneConnection((target, ex) -> {
            for (String piece : wire) {
                ex.write(piece);
            }
        }, get, get);
    }

    @Test
    void chunkExtensionsAndTrailerFieldsAreReadAndTheBodyRelayedWhole() throws Exception {
        helloWorldTwice("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nTrailer: X-Checksum\r\n\r\n",
                "5;ext=1\r\nhello\r\n", "6;name=\"quoted;value\";flag\r\n world\r\n", "0;last=yes\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n");
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
            HttpResponse<byte[]> r = get(shaper, "/v1/until-close", HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, r.statusCode());
            assertArrayEquals(payload, r.body());
            HttpResponse<String> next = get(shaper, "/v1/next", HttpResponse.BodyHandlers.ofString());
            assertEquals("next", next.body());
            assertEquals(List.of(1, 2), order.arrivals());
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
                HttpResponse<String> r = get(shaper, path, HttpResponse.BodyHandlers.ofString());
                assertEquals(502, r.statusCode(), path + " answered " + r.body());
            }
            HttpResponse<String> repeated = get(shaper, "/v1/repeated", HttpResponse.BodyHandlers.ofString());
            assertEquals(200, repeated.statusCode());
            assertEquals("hello", repeated.body());
        }
    }

    @Test
    void headAnswersWithALengthButNoBodyDoNotHang() throws Exception {
        List<RawHttp.Head> heads = overOneConnection((target, ex) -> {
            if (target.startsWith("HEAD ")) {
                ex.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1234\r\n\r\n");
            } else {
                ex.respond(200, "got it");
            }
        }, Step.of("HEAD /v1/doc", 200, null), Step.of("GET /v1/doc", 200, "got it"));
        assertEquals("1234", heads.getFirst().header("Content-Length"));
    }

    @Test
    void noContentAndNotModifiedCarryNoBodyWhateverTheirFieldsSay() throws Exception {
        List<RawHttp.Head> heads = overOneConnection((target, ex) -> {
            if (target.endsWith("/204")) {
                ex.write("HTTP/1.1 204 No Content\r\nX-Kind: none\r\n\r\n");
            } else if (target.endsWith("/304")) {
                // the length of the representation the client already has, not of this answer
                ex.write("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 42\r\n\r\n");
            } else {
                ex.respond(200, "after");
            }
        }, Step.of("DELETE /v1/204", 204, null), Step.of("GET /v1/304", 304, null), Step.of("GET /v1/ok", 200, "after"));
        assertEquals("none", heads.get(0).header("X-Kind"));
        assertEquals("\"v1\"", heads.get(1).header("ETag"));
    }

    @Test
    void interimHeadsBeforeTheFinalAnswerAreNotTheAnswer() throws Exception {
        overOneConnection((target, ex) -> {
            if (target.endsWith("/103")) {
                ex.write("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n");
                ex.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhints");
            } else {
                ex.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\ncontinue");
            }
        }, Step.of("GET /v1/103", 200, "hints"),
                new Step("POST /v1/100 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}", 200, "continue"));
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
                    HttpResponse<String> r = get(shaper, path, HttpResponse.BodyHandlers.ofString());
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
                HttpResponse<String> r = get(shaper, path, HttpResponse.BodyHandlers.ofString());
                assertEquals(502, r.statusCode(), path + " answered " + r.body());
                assertTrue(!r.body().contains("ok"), path);
            }
        }
    }
}
