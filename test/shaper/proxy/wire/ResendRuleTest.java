package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.testing.ConnectionOrder;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * RFC 9110 section 9.2.2: a request a reused connection swallowed (the upstream read it, or not,
 * and closed without a byte of answer) is sent once more on a fresh connection by the client only
 * when sending it twice is harmless: an idempotent method, or an {@code Idempotency-Key}, with the
 * body in memory. That resend is logged and spends nothing of the retry budget. Anything else
 * fails with the transport error, and only the attempt loop may retry it, within its budget.
 * Before, {@code -retry 0} resent a body-less POST.
 */
class ResendRuleTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** Connection 1 answers its first request, then reads the second and closes without a byte of answer. */
    private static ScriptedUpstream swallowingSecondRequest(ConnectionOrder order) {
        return ScriptedUpstream.start((req, ex) -> {
            int conn = order.arrived(ex);
            if (conn == 1 && order.requestsOn(1) == 2) {
                ex.socket().close();
                return;
            }
            ex.respond(200, req.method() + " answered on connection " + conn);
        });
    }

    private static HttpResponse<String> send(RunningShaper shaper, String method, HttpRequest.BodyPublisher body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(shaper.uri("/v1/things")).timeout(HostileUpstream.BOUND).method(method, body);
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> twice(RunningShaper shaper, String method, HttpRequest.BodyPublisher body, String... headers)
            throws Exception {
        assertEquals(200, send(shaper, method, body, headers).statusCode());
        return send(shaper, method, body, headers);
    }

    @Test
    void aBodylessPostIsNeverResentWithoutRetries() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = swallowingSecondRequest(order);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            HttpResponse<String> second = twice(shaper, "POST", HttpRequest.BodyPublishers.noBody());
            assertEquals(502, second.statusCode(), second.body());
            assertEquals(List.of(1, 1), order.arrivals(), "the upstream may have acted on it: sent once");
            assertEquals(List.of(), shaper.logLines("upstream resend"));
        }
    }

    @Test
    void anIdempotentRequestIsResentOnceOnAFreshConnectionLoggedAndOutsideTheBudget() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = swallowingSecondRequest(order);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            HttpResponse<String> second = twice(shaper, "GET", HttpRequest.BodyPublishers.noBody());
            assertEquals(200, second.statusCode());
            assertEquals("GET answered on connection 2", second.body());
            assertEquals(List.of(1, 1, 2), order.arrivals());
            RunningShaper.await("the resend logged", HostileUpstream.BOUND, () -> !shaper.logLines("upstream resend").isEmpty());
            assertTrue(shaper.logLines("upstream resend").getFirst().contains("method=GET"), shaper.stdout());
            assertEquals(List.of(), shaper.logLines("upstream error"), "not an attempt of the retry loop");
            assertEquals(0, shaper.server().breaker("default").consecutiveFailures());
        }
    }

    @Test
    void aPostWithAnIdempotencyKeyAndItsBodyInMemoryIsResent() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = swallowingSecondRequest(order);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            HttpResponse<String> second = twice(shaper, "POST", HttpRequest.BodyPublishers.ofString("{}"), "Idempotency-Key", "k-1");
            assertEquals(200, second.statusCode());
            assertEquals(List.of(1, 1, 2), order.arrivals());
            RunningShaper.await("both exchanges recorded", HostileUpstream.BOUND, () -> shaper.server().journal("default").recent().size() == 2);
            assertEquals(1, shaper.server().journal("default").recent().getFirst().attempts(), "one attempt: the resend is not a retry");
        }
    }

    /** With retries on, the POST is the attempt loop's to retry: logged as an upstream error, counted, within the budget. */
    @Test
    void aPostWithoutAKeyIsLeftToTheRetryBudget() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = swallowingSecondRequest(order);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "1", "-retry-wait-min", "10ms",
                     "-retry-wait-max", "20ms", "-cb-threshold", "1000")) {
            HttpResponse<String> second = twice(shaper, "POST", HttpRequest.BodyPublishers.ofString("{}"));
            assertEquals(200, second.statusCode());
            assertEquals(List.of(1, 1, 2), order.arrivals());
            assertEquals(List.of(), shaper.logLines("upstream resend"));
            RunningShaper.await("both exchanges recorded", HostileUpstream.BOUND, () -> shaper.server().journal("default").recent().size() == 2);
            assertEquals(2, shaper.server().journal("default").recent().getFirst().attempts(), "a second attempt of the budget");
            assertEquals(1, shaper.logLines("upstream error").size(), shaper.stdout());
        }
    }
}
