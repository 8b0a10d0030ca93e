package shaper.tokens;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * Against an upstream that enforces 120 requests a minute, a burst of 130 from 8 clients: a plain
 * proxy relays the upstream's 429s, a paced one (static budget, or learned from the headers)
 * holds the excess in its queue until the bucket refills and draws none.
 */
class BudgetPacingTest {
    private static final String BODY = "{\"model\":\"claude-pace\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final int REQUESTS = 130;

    /** Sends the burst; the statuses by count: [200s, 429s, others]. */
    private static int[] burst(TokenFixture f) throws Exception {
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger limited = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                sent.add(clients.submit(() -> {
                    HttpResponse<String> r = f.post("/v1/messages?rpm=120&itpm=1000000&otpm=1000000", BODY);
                    (r.statusCode() == 200 ? ok : r.statusCode() == 429 ? limited : other).incrementAndGet();
                    return null;
                }));
            }
            for (Future<?> s : sent) {
                s.get(60, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        return new int[] {ok.get(), limited.get(), other.get()};
    }

    private static long upstream429s(TokenFixture f) throws Exception {
        String counts = TokenFixture.CLIENT.send(java.net.http.HttpRequest.newBuilder(f.probe.uri("/__probe/ratelimited")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(counts).path("rejected").asLong();
    }

    @Test
    void aPlainProxyRelaysTheUpstreams429s() throws Exception {
        try (TokenFixture f = TokenFixture.start("/ratelimited", "-retry", "0")) {
            int[] s = burst(f);
            assertTrue(s[1] > 0, "the upstream refused the excess: " + java.util.Arrays.toString(s));
            assertEquals(s[1], upstream429s(f));
        }
    }

    @Test
    void aStaticBudgetDrawsNo429() throws Exception {
        try (TokenFixture f = TokenFixture.start("/ratelimited", "-retry", "0", "-rpm", "120")) {
            int[] s = burst(f);
            assertEquals(REQUESTS, s[0], java.util.Arrays.toString(s));
            assertEquals(0, upstream429s(f));
            String m = f.metrics();
            assertTrue(TokenFixture.value(m, "shaper_budget_waits_total{kind=\"requests\",provider=\"default\"}") > 0, m);
            assertTrue(TokenFixture.value(m, "shaper_budget_level{kind=\"requests\",provider=\"default\"}") < 120, m);
        }
    }

    @Test
    void aBudgetLearnedFromTheHeadersDrawsNo429() throws Exception {
        try (TokenFixture f = TokenFixture.start("/ratelimited", "-retry", "0", "-budget-from-headers")) {
            int[] s = burst(f);
            assertEquals(REQUESTS, s[0], java.util.Arrays.toString(s));
            assertEquals(0, upstream429s(f));
        }
    }
}
