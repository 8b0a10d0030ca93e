package shaper.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import shaper.observe.EndReason;
import shaper.observe.ExchangeRecord;
import shaper.observe.Outcome;
import shaper.testing.ResponsesSocketClient;
import shaper.testing.ResponsesSocketUpstream;
import shaper.testing.RunningShaper;

/**
 * A Responses WebSocket session is terminated in the proxy and each generating {@code response.create}
 * is one exchange: it waits for a slot like a {@code POST /v1/responses}, holds it until its terminal
 * event, and is one record with {@code transport=ws}; a prewarm takes no slot.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketTurnAdmissionTest {
    static final String CREATE = "{\"type\":\"response.create\",\"model\":\"fake-1\",\"input\":[{\"type\":\"message\",\"role\":\"user\","
            + "\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}]}";
    static final String PREWARM = "{\"type\":\"response.create\",\"model\":\"fake-1\",\"generate\":false,\"input\":[]}";
    private static final Duration BOUND = Duration.ofSeconds(15);

    static List<ExchangeRecord> turns(RunningShaper shaper) {
        return shaper.server().journal("default").recent().stream().filter(r -> r.transport().equals("ws")).toList();
    }

    @Test
    void threeSessionsUnderConcurrencyOneHaveOneResponseInFlightAndOneRecordPerTurn() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-concurrency", "1", "-release-cooldown", "0s")) {
            up.holdTurns();
            List<ResponsesSocketClient> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    ResponsesSocketClient c = ResponsesSocketClient.open(java.net.URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses"));
                    clients.add(c);
                    c.send(PREWARM);
                    c.until("response.completed", BOUND);
                    c.send(CREATE);
                }
                for (int served = 0; served < 3; served++) {
                    int done = served;
                    RunningShaper.await("a turn at the fake", BOUND, () -> up.inFlight() == 1);
                    RunningShaper.await("the other turns queued", BOUND,
                            () -> shaper.server().journal("default").inFlight().stream().filter(f -> f.state().name().equals("QUEUED")).count() == 2 - done);
                    assertEquals(1, up.inFlight(), "one response in flight at the upstream");
                    up.release(1);
                    RunningShaper.await("the turn recorded", BOUND, () -> turns(shaper).size() == done + 1);
                }
                for (ResponsesSocketClient c : clients) {
                    List<String> events = c.until("response.completed", BOUND);
                    assertTrue(events.stream().anyMatch(e -> e.contains("hello")), events.toString());
                }
            } finally {
                clients.forEach(ResponsesSocketClient::close);
            }
            assertEquals(1, up.maxInFlight(), "never more than one response in flight at the upstream");
            List<ExchangeRecord> turns = turns(shaper);
            assertEquals(3, turns.size(), turns.toString());
            for (ExchangeRecord r : turns) {
                assertEquals("POST", r.method());
                assertEquals("/v1/responses", r.path());
                assertEquals(200, r.status());
                assertEquals(Outcome.CLEAN, r.outcome());
                assertEquals(EndReason.COMPLETED, r.reason());
                assertEquals(11, r.usage().allInput(), r.usage().toString());
                assertEquals(7, r.usage().output(), r.usage().toString());
            }
            assertTrue(turns.stream().anyMatch(r -> r.timings().queueWait().toMillis() > 0), "turns waited for the slot");
            RunningShaper.await("one log line per turn", BOUND, () -> shaper.logLines("transport=ws").size() == 3);
        }
    }

    @Test
    void aGaugeCountsOpenSessionsAndAPrewarmIsNoExchange() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-metrics-bind", "127.0.0.1:0", "-limit-all",
                     "-concurrency", "1", "-release-cooldown", "0s")) {
            java.net.URI metrics = java.net.URI.create("http://127.0.0.1:" + shaper.server().metricsPort().orElseThrow() + "/metrics");
            up.holdTurns();
            try (ResponsesSocketClient holding = ResponsesSocketClient.open(java.net.URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses"));
                 ResponsesSocketClient warming = ResponsesSocketClient.open(java.net.URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses"))) {
                holding.send(CREATE);
                RunningShaper.await("the slot taken", BOUND, () -> up.inFlight() == 1);
                warming.send(PREWARM);
                warming.until("response.completed", BOUND); // at once: a prewarm takes no slot
                assertTrue(scrape(metrics).contains("shaper_websocket_sessions{provider=\"default\"} 2.0"), scrape(metrics));
                up.release(1);
                holding.until("response.completed", BOUND);
            }
            RunningShaper.await("the sessions closed", BOUND, () -> scrape(metrics).contains("shaper_websocket_sessions{provider=\"default\"} 0.0"));
            assertEquals(1, turns(shaper).size(), "the prewarm is no exchange: " + turns(shaper));
        }
    }

    private static String scrape(java.net.URI metrics) {
        try {
            return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(metrics).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theHandshakesPriorityHeaderClassesEveryTurnAndIsNotForwarded() throws Exception {
        try (ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-limit-all", "-priority-class", "interactive=4",
                     "-priority-class", "background=1", "-priority-default", "interactive");
             ResponsesSocketClient c = ResponsesSocketClient.open(java.net.URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses"),
                     "X-Shaper-Priority", "background")) {
            c.send(CREATE);
            c.until("response.completed", BOUND);
            RunningShaper.await("the turn recorded", BOUND, () -> turns(shaper).size() == 1);
            assertEquals("background", turns(shaper).getFirst().priorityClass());
            assertTrue(up.handshakes().getFirst().first(io.helidon.http.HeaderNames.create("X-Shaper-Priority")).isEmpty(),
                    "the priority header is the proxy's alone");
            RunningShaper.await("the turn's log line", BOUND, () -> shaper.logLines("class=background").size() == 1);
        }
    }
}
