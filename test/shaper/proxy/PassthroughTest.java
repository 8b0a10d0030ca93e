package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Random;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** Requests and responses cross the proxy unchanged apart from the documented header hygiene. */
class PassthroughTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void everyMethodReachesUpstreamWithItsBodyAndStatus() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(201, req.method() + ":" + req.bodyText()));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            for (String method : new String[] {"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"}) {
                HttpRequest.BodyPublisher body = method.equals("GET") ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString("payload-" + method);
                HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/x")).method(method, body).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, r.statusCode(), method);
                String expected = method + ":" + (method.equals("GET") ? "" : "payload-" + method);
                assertEquals(expected, r.body());
            }
            assertEquals(7, up.requests().size());
        }
    }

    @Test
    void rawPathAndQueryKeepTheirPercentEncoding() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            String target = "/v1/a%2Fb/c%20d/%E2%9C%93?x=%2F&y=a+b&y=2&z=%26amp";
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET " + target + " HTTP/1.1\r\nHost: client.example\r\n\r\n");
                assertEquals(200, raw.readHead().status());
            }
            assertEquals(target, up.onlyRequest().target());
        }
    }

    @Test
    void upstreamBasePathAndQueryAreJoinedOnce() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url() + "/base/?api-version=1")) {
            CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages?beta=true")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("/base/v1/messages?api-version=1&beta=true", up.onlyRequest().target());
        }
    }

    @Test
    void hostIsTheUpstreamsNotTheClients() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /x HTTP/1.1\r\nHost: client.example:9999\r\n\r\n");
                raw.readHead();
            }
            assertEquals(java.util.List.of("127.0.0.1:" + up.port()), up.onlyRequest().values("Host"));
        }
    }

    @Test
    void contentLengthBodyKeepsItsLengthAndChunkedStaysChunked() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("POST /fixed HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world");
                assertEquals(200, raw.readHead().status());
                raw.readBytes(2);
                raw.send("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
                assertEquals(200, raw.readHead().status());
            }
            RecordedRequest fixed = up.requests().get(0);
            assertEquals("11", fixed.header("Content-Length"));
            assertFalse(fixed.chunked());
            assertEquals("hello world", fixed.bodyText());
            RecordedRequest chunked = up.requests().get(1);
            assertTrue(chunked.chunked());
            assertNull(chunked.header("Content-Length"));
            assertEquals("hello world", chunked.bodyText());
        }
    }

    @Test
    void multiMegabyteBodiesArriveIntactBothWays() throws Exception {
        byte[] payload = new byte[6 * 1024 * 1024 + 123];
        new Random(42).nextBytes(payload);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Length: " + req.body().length, "Content-Type: application/octet-stream");
                ex.write(req.body());
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            HttpResponse<byte[]> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/upload"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(payload)).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, r.statusCode());
            assertArrayEquals(sha(payload), sha(up.onlyRequest().body()));
            assertArrayEquals(sha(payload), sha(r.body()));
        }
    }

    @Test
    void expectContinueIsAnsweredAndTheBodyForwarded() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, "got " + req.body().length));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n");
                assertEquals(100, raw.readHead().status());
                raw.send("abcde");
                RawHttp.Head head = raw.readHead();
                assertEquals(200, head.status());
                assertEquals("got 5", raw.readBytes(5));
            }
            assertEquals("abcde", up.onlyRequest().bodyText());
            assertFalse(up.onlyRequest().has("Expect"), "Expect is answered by the proxy, not forwarded");
        }
    }

    @Test
    void responseStatusHeadersAndBodyPassThrough() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(429, "{\"error\":\"slow down\"}",
                "Retry-After: 7", "X-Request-Id: abc", "Set-Cookie: a=1", "Set-Cookie: b=2"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(429, r.statusCode());
            assertEquals("7", r.headers().firstValue("retry-after").orElseThrow());
            assertEquals("abc", r.headers().firstValue("x-request-id").orElseThrow());
            assertEquals(java.util.List.of("a=1", "b=2"), r.headers().allValues("set-cookie"));
            assertEquals("{\"error\":\"slow down\"}", r.body());
        }
    }

    private static byte[] sha(byte[] data) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(data);
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
