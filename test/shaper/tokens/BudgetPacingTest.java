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
 * Bursts from 8 clients beyond what the upstream allows a minute: a plain proxy relays the
 * upstream's 429s, a paced one (static budget, or learned from the headers) holds the excess in its
 * queue until the bucket refills and draws none. (The burst sizes are chosen so the outcome does
 * not depend on how fast the machine sends them: the plain burst outruns a refill of one request
 * per 10 s; the paced ones need about 10 s of refill.)
 */
class BudgetPacingTest {
    private static final String BODY = "{\"model\":\"claude-pace\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    /** Sends {@code requests} to an upstream allowing {@code rpm}; the statuses by count: [200s, 429s, others]. */
    private static int[] burst(TokenFixture f, int rpm, int requests) throws Exception {
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger limited = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                sent.add(clients.submit(() -> {
                    HttpResponse<String> r = f.post("/v1/messages?rpm=" + rpm + "&itpm=1000000&otpm=1000000", BODY);
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
            int[] s = burst(f, 6, 10);
            assertTrue(s[1] > 0, "the upstream refused the excess: " + java.util.Arrays.toString(s));
            assertEquals(s[1], upstream429s(f));
        }
    }

    @Test
    void aStaticBudgetDrawsNo429() throws Exception {
        // 95 % of the account's limit: the upstream counts a request a little after the proxy admits it
        try (TokenFixture f = TokenFixture.start("/ratelimited", "-retry", "0", "-rpm", "57")) {
            int[] s = burst(f, 60, 66);
            assertEquals(66, s[0], java.util.Arrays.toString(s));
            assertEquals(0, upstream429s(f));
            String m = f.metrics();
            assertTrue(TokenFixture.value(m, "shaper_budget_level{kind=\"requests\",provider=\"default\"}") < 57, m);
        }
    }

    @Test
    void aBudgetLearnedFromTheHeadersDrawsNo429() throws Exception {
        try (TokenFixture f = TokenFixture.start("/ratelimited", "-retry", "0", "-budget-from-headers")) {
            int[] s = burst(f, 60, 70);
            assertEquals(70, s[0], java.util.Arrays.toString(s));
            assertEquals(0, upstream429s(f));
        }
    }
}
