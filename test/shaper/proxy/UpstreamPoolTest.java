package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.testing.ConnectionOrder;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The upstream client's keep-alive pool, seen at the upstream's socket: a connection the upstream
 * closed while it idled is not used again, a request a dead pooled connection swallowed is sent once
 * more on a fresh one only when its body is in memory, and an answer that ends the connection
 * ({@code Connection: close}, HTTP/1.0) never goes back to the pool.
 */
class UpstreamPoolTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration BOUND = Duration.ofSeconds(30);

    private static HttpResponse<String> get(RunningShaper shaper, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(RunningShaper shaper, String path, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> put(RunningShaper shaper, String path, String body) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(BOUND).PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Answers every request with the connection it came on; closes connection 1 (a FIN, no {@code Connection: close}) after its first answer. */
    private static ScriptedUpstream closingAfterFirstAnswer(ConnectionOrder order, CountDownLatch closed) {
        return ScriptedUpstream.start((req, ex) -> {
            int conn = order.arrived(ex);
            ex.respond(200, req.method() + " " + req.bodyText() + " on connection " + conn);
            if (conn == 1) {
                ex.socket().close();
                closed.countDown();
            }
        });
    }

    private static void awaitLatch(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(BOUND.toSeconds(), TimeUnit.SECONDS), "timed out waiting for: " + what);
    }

    @Test
    void aConnectionTheUpstreamClosedWhileIdleIsNotUsedAgain() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        CountDownLatch closed = new CountDownLatch(1);
        try (ScriptedUpstream up = closingAfterFirstAnswer(order, closed);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            assertEquals("GET  on connection 1", get(shaper, "/v1/first").body());
            awaitLatch(closed, "the upstream closing its idle connection");

            HttpResponse<String> second = get(shaper, "/v1/second");
            assertEquals(200, second.statusCode());
            assertEquals("GET  on connection 2", second.body());
            assertEquals(List.of(1, 2), order.arrivals(), "one copy of the second request, on a new connection");
            assertEquals(List.of(), shaper.logLines("upstream error"), shaper.stdout());
        }
    }

    /**
     * Without retries the body streams from the client and cannot be sent twice, so only the check
     * made when a pooled connection is taken keeps this request from going onto the closed one.
     */
    @Test
    void aStreamedBodyAfterAnIdleCloseGoesOutOnceOnAFreshConnection() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        CountDownLatch closed = new CountDownLatch(1);
        try (ScriptedUpstream up = closingAfterFirstAnswer(order, closed);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            assertEquals(200, post(shaper, "/v1/first", "one").statusCode());
            awaitLatch(closed, "the upstream closing its idle connection");

            HttpResponse<String> second = post(shaper, "/v1/second", "two");
            assertEquals(200, second.statusCode(), second.body());
            assertEquals("POST two on connection 2", second.body());
            assertEquals(List.of(1, 2), order.arrivals());
            assertEquals(List.of(), shaper.logLines("upstream error"), shaper.stdout());
        }
    }

    /** A reset while idle (after the client had its whole answer, so the proxy had read it all) is found the same way. */
    @Test
    void aConnectionTheUpstreamResetWhileIdleIsNotUsedAgain() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        CountDownLatch answered = new CountDownLatch(1);
        CountDownLatch reset = new CountDownLatch(1);
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                int conn = order.arrived(ex);
                ex.respond(200, req.bodyText() + " on connection " + conn);
                if (conn == 1) {
                    if (answered.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                        ex.reset();
                    }
                    reset.countDown();
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            assertEquals("one on connection 1", post(shaper, "/v1/first", "one").body());
            answered.countDown();
            awaitLatch(reset, "the upstream resetting its idle connection");

            HttpResponse<String> second = post(shaper, "/v1/second", "two");
            assertEquals(200, second.statusCode(), second.body());
            assertEquals("two on connection 2", second.body());
            assertEquals(List.of(1, 2), order.arrivals());
            assertEquals(List.of(), shaper.logLines("upstream error"), shaper.stdout());
        }
    }

    /** Connection 1 answers its first request, then reads the second and closes without a byte of answer. */
    private static ScriptedUpstream swallowingSecondRequest(ConnectionOrder order) {
        return ScriptedUpstream.start((req, ex) -> {
            int conn = order.arrived(ex);
            if (conn == 1 && order.requestsOn(1) == 2) {
                ex.socket().close();
                return;
            }
            ex.respond(200, req.bodyText() + " answered on connection " + conn);
        });
    }

    /** An idempotent request (here a PUT with its body in memory); the rule for others is {@code ResendRuleTest}'s. */
    @Test
    void aRequestADeadPooledConnectionSwallowedIsSentOnceMoreOnAFreshOne() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = swallowingSecondRequest(order);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-circuit-breaker")) {
            assertEquals("one answered on connection 1", put(shaper, "/v1/messages", "one").body());

            HttpResponse<String> second = put(shaper, "/v1/messages", "two");
            assertEquals(200, second.statusCode());
            assertEquals("two answered on connection 2", second.body());
            assertEquals(List.of(1, 1, 2), order.arrivals(), "the second copy went out on a new connection");
            assertEquals("two", up.requests().get(2).bodyText());
            // the client's own retry, not the attempt loop's (which logs the transport error and backs off)
            assertEquals(List.of(), shaper.logLines("upstream error"), shaper.stdout());
            assertEquals(0, shaper.server().breaker("default").consecutiveFailures(), "the breaker never hears of the dead connection");
            RunningShaper.await("both exchanges recorded", BOUND, () -> shaper.server().journal("default").recent().size() == 2);
            assertEquals(1, shaper.server().journal("default").recent().getFirst().attempts(), "nor does the retry budget: one attempt");
        }
    }

    @Test
    void aStreamedBodyADeadPooledConnectionSwallowedIsNeverSentTwice() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = swallowingSecondRequest(order);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            assertEquals(200, post(shaper, "/v1/messages", "one").statusCode());

            HttpResponse<String> second = post(shaper, "/v1/messages", "two");
            assertEquals(502, second.statusCode());
            assertEquals(List.of(1, 1), order.arrivals(), "a body read from the client once is sent once");
            RunningShaper.await("the transport error logged", BOUND, () -> !shaper.logLines("upstream error").isEmpty());
            assertTrue(shaper.logLines("upstream error").getFirst().contains("the upstream closed the connection before answering"),
                    shaper.stdout());
        }
    }

    /** The upstream keeps every connection open; only the proxy can end one. */
    private static void assertNextRequestOnANewConnection(String firstAnswerHead) throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                int conn = order.arrived(ex);
                if (conn == 1) {
                    ex.write(firstAnswerHead + "Content-Length: 5\r\n\r\nfirst");
                } else {
                    ex.respond(200, "later");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                raw.send("GET /v1/a HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status());
                assertEquals("first", raw.readBytes(5));
                raw.send("GET /v1/b HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, raw.readHead().status());
                assertEquals("later", raw.readBytes(5));
            }
            assertEquals(List.of(1, 2), order.arrivals(), "the connection the upstream asked to end went back to the pool");
        }
    }

    @Test
    void anAnswerWithConnectionCloseEndsItsConnection() throws Exception {
        assertNextRequestOnANewConnection("HTTP/1.1 200 OK\r\nConnection: close\r\n");
    }

    @Test
    void anHttp10AnswerEndsItsConnection() throws Exception {
        assertNextRequestOnANewConnection("HTTP/1.0 200 OK\r\n");
    }
}
