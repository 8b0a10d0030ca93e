package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import shaper.observe.InFlight;
import shaper.observe.RetryWait;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * An exchange waiting out a retry backoff is visible as such: the journal's in-flight view names
 * the next attempt, when it goes and why; the dashboard's row reads "↻ retry" with the same words;
 * the stop note counts it. Under {@code -retry -1} it would otherwise look like any long request.
 */
class RetryBackoffRowTest {
    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void aRequestInRetryBackoffShowsItsNextAttemptWhenAndWhy() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(429,
                "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}", "Retry-After: 60"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "-1", "-retry-skip-429=false",
                     "-retry-wait-max", "1s", "-retry-keepalive", "0")) {
            HttpClient client = HttpClient.newHttpClient();
            CompletableFuture<HttpResponse<String>> waiting = client.sendAsync(HttpRequest.newBuilder(shaper.uri("/v1/messages"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            RunningShaper.await("the request in its backoff", BOUND,
                    () -> shaper.server().journal("default").inFlight().stream().anyMatch(f -> f.retryWait().isPresent()));
            InFlight view = shaper.server().journal("default").inFlight().getFirst();
            RetryWait wait = view.retryWait().orElseThrow();
            assertEquals(2, wait.nextAttempt());
            assertEquals("rate-limit wording in the upstream's error", wait.why());
            assertTrue(wait.nextTryIn().compareTo(Duration.ofSeconds(50)) > 0 && wait.nextTryIn().compareTo(Duration.ofSeconds(60)) <= 0,
                    "Retry-After sets the wait: " + wait.nextTryIn());

            List<InFlightRow> rows = JournalRows.inFlight(shaper.server().journal("default"));
            String line = DashboardView.inFlight(Theme.dark(), rows.getFirst(), 140).toString().stripTrailing();
            assertTrue(line.contains("↻ retry") && line.contains("retry 2 in ") && line.endsWith(": rate-limit wording in the upstream's error"), line);

            assertEquals("stopping: in-flight exchanges have up to 30s, 1 of them retrying (q again cuts them)",
                    ProxyStop.of(shaper.server(), Duration.ofSeconds(30)).note());
            waiting.cancel(true);
        }
    }

    @Test
    void theStopNoteLeavesOutRetriesWhenThereAreNone() {
        assertEquals("stopping: in-flight exchanges have up to 5s (q again cuts them)", ProxyStop.note(Duration.ofSeconds(5), 0));
    }
}
