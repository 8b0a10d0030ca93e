package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** The stealth hop: hop-by-hop and forwarding headers never cross, nothing identifying is added. */
class HeaderHygieneTest {

    @Test
    void hopByHopAndConnectionListedRequestHeadersAreRemoved() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\n"
                        + "Connection: keep-alive, X-Secret-Hop, bad token\r\n"
                        + "X-Secret-Hop: must-not-pass\r\n"
                        + "Keep-Alive: timeout=5\r\n"
                        + "Proxy-Connection: keep-alive\r\n"
                        + "Proxy-Authorization: Basic Zm9vOmJhcg==\r\n"
                        + "TE: trailers\r\n"
                        + "Trailer: X-Checksum\r\n"
                        + "Upgrade: h2c\r\n"
                        + "X-End-To-End: kept\r\n"
                        + "Cookie: session=abc\r\n\r\n");
                assertEquals(200, raw.readHead().status());
            }
            RecordedRequest r = up.onlyRequest();
            for (String gone : List.of("X-Secret-Hop", "Keep-Alive", "Proxy-Connection", "Proxy-Authorization", "TE", "Trailer", "Upgrade")) {
                assertFalse(r.has(gone), gone + " must not reach the upstream: " + r.headers());
            }
            assertFalse(r.values("Connection").stream().anyMatch(v -> v.contains("X-Secret-Hop")));
            assertEquals("kept", r.header("X-End-To-End"));
            assertEquals("session=abc", r.header("Cookie"));
        }
    }

    @Test
    void forwardingHeadersAreStrippedAndNothingIsAdded() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\n"
                        + "X-Forwarded-For: 10.1.2.3\r\nX-Forwarded-Host: evil\r\nX-Forwarded-Proto: https\r\n"
                        + "X-Forwarded-Port: 443\r\nForwarded: for=10.1.2.3\r\nX-Real-Thing: 1\r\n\r\n");
                assertEquals(200, raw.readHead().status());
            }
            RecordedRequest r = up.onlyRequest();
            for (String name : r.names()) {
                assertFalse(name.startsWith("x-forwarded-"), "forwarding header leaked: " + name);
            }
            assertFalse(r.has("Forwarded"));
            assertFalse(r.has("Via"), "the proxy must not announce itself");
            assertFalse(r.has("User-Agent"), "no User-Agent invented when the client sent none");
            assertFalse(r.has("Accept"), "no Accept invented when the client sent none");
            assertEquals("1", r.header("X-Real-Thing"));
        }
    }

    @Test
    void aBodilessRequestGetsNoFramingHeaderAndAnEmptyPostKeepsItsZeroLength() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status());
            }
            RecordedRequest get = up.onlyRequest();
            assertFalse(get.has("Content-Length"), "a GET without a body is sent without a Content-Length, as clients send it");
            assertFalse(get.has("Transfer-Encoding"));
        }
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
                assertEquals(200, raw.readHead().status());
            }
            assertEquals("0", up.onlyRequest().header("Content-Length"), "an empty POST keeps the Content-Length: 0 its client sent");
        }
    }

    @Test
    void clientIpHeadersAreStripped() throws Exception {
        List<String> names = List.of("X-Real-IP", "True-Client-IP", "CF-Connecting-IP", "X-Client-IP", "X-Cluster-Client-IP",
                "Fastly-Client-IP");
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                StringBuilder head = new StringBuilder("GET /v1/x HTTP/1.1\r\nHost: x\r\n");
                names.forEach(n -> head.append(n).append(": 10.1.2.3\r\n"));
                raw.send(head.append("X-Client-Version: 7\r\n\r\n").toString());
                assertEquals(200, raw.readHead().status());
            }
            RecordedRequest r = up.onlyRequest();
            for (String name : names) {
                assertFalse(r.has(name), "client IP header leaked: " + name);
            }
            assertEquals("7", r.header("X-Client-Version"), "only the listed fields go");
        }
    }

    @Test
    void clientHeaderNameCaseIsPreserved() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\nanthropic-version: 2023-06-01\r\nX-Mixed-Case: a\r\nAccept: text/event-stream\r\n\r\n");
                raw.readHead();
            }
            List<String> names = up.onlyRequest().headers().stream().map(RecordedRequest.Header::name).toList();
            assertTrue(names.contains("anthropic-version") && names.contains("X-Mixed-Case"), names.toString());
        }
    }

    @Test
    void hopByHopResponseHeadersAreRemovedAndNoServerHeaderInvented() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, "ok",
                "Connection: X-Upstream-Hop", "X-Upstream-Hop: secret", "Keep-Alive: timeout=5",
                "Proxy-Authenticate: Basic", "Trailer: X-Sum", "X-Kept: yes"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttp.Head head = raw.readHead();
                assertEquals(200, head.status());
                for (String gone : List.of("X-Upstream-Hop", "Keep-Alive", "Proxy-Authenticate", "Trailer", "Server", "Via")) {
                    assertNull(head.header(gone), gone + " must not reach the client: " + head.headers());
                }
                assertEquals("yes", head.header("X-Kept"));
                assertEquals("2", head.header("Content-Length"));
            }
        }
    }

    @Test
    void upstreamChunkedResponseReachesClientChunked() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Transfer-Encoding: chunked", "Content-Type: text/plain");
                ex.chunk("hello ");
                ex.chunk("world");
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/x HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttp.Head head = raw.readHead();
                assertEquals("chunked", head.header("Transfer-Encoding"));
                assertNull(head.header("Content-Length"));
                StringBuilder body = new StringBuilder();
                String chunk;
                while ((chunk = raw.readChunk()) != null) {
                    body.append(chunk);
                }
                assertEquals("hello world", body.toString());
            }
        }
    }
}
