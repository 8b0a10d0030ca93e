package shaper.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The HTTP 200 event-stream fixtures: early errors, recovery, slow streams, and the slow completion. */
class ProbeStreamFixturesTest {
    private static final String STREAM_BODY = "{\"model\":\"claude-test\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final List<String> FULL_SEQUENCE = List.of("message_start", "content_block_start", "ping",
            "content_block_delta", "content_block_delta", "content_block_delta",
            "content_block_stop", "message_delta", "message_stop");

    @Test
    void sse200LimitIsA200StreamWithAnEarlyRateLimitErrorEveryTime() {
        try (RunningProbe probe = RunningProbe.start()) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = probe.post("/sse200limit/v1/messages", STREAM_BODY);
                assertEquals(200, r.statusCode());
                assertEquals("text/event-stream; charset=utf-8", r.headers().firstValue("content-type").orElseThrow());
                SseFrames sse = SseFrames.parse(r.body());
                assertEquals(List.of("message_start", "error"), sse.events());
                SseFrames.Frame error = sse.named("error").getFirst();
                assertEquals("rate_limit_error", error.data().path("error").path("type").asText());
                assertTrue(error.data().path("error").path("message").asText().contains("too_many_requests"));
            }
        }
    }

    @Test
    void earlyErrorUsesTheResponsesEnvelopeOnResponsesPaths() {
        try (RunningProbe probe = RunningProbe.start()) {
            SseFrames sse = SseFrames.parse(probe.post("/sse200limit/v1/responses", STREAM_BODY).body());
            assertEquals(List.of("response.created", "response.failed"), sse.events());
            var failed = sse.named("response.failed").getFirst().data().path("response");
            assertEquals("failed", failed.path("status").asText());
            assertEquals("rate_limit_exceeded", failed.path("error").path("code").asText());
        }
    }

    @Test
    void flakySse200FailsEarlyPerPathThenStreamsNormally() {
        try (RunningProbe probe = RunningProbe.start()) {
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> r = probe.post("/flakysse200/v1/messages", STREAM_BODY);
                assertEquals(200, r.statusCode());
                SseFrames sse = SseFrames.parse(r.body());
                assertEquals(List.of("message_start", "error"), sse.events());
                assertEquals("Upstream service unavailable", sse.named("error").getFirst().data().path("error").path("message").asText());
            }
            SseFrames other = SseFrames.parse(probe.post("/flakysse200/other", STREAM_BODY).body());
            assertEquals(List.of("message_start", "error"), other.events(), "another path starts its own count");
            SseFrames ok = SseFrames.parse(probe.post("/flakysse200/v1/messages", STREAM_BODY).body());
            assertEquals(FULL_SEQUENCE, ok.events());
            assertEquals("Hello from ProbeServer.", ok.text());
        }
    }

    @Test
    void slowSseSpacesEveryDeltaByTheInterval() {
        RecordingSleeper sleeper = new RecordingSleeper();
        try (RunningProbe probe = RunningProbe.start(sleeper, "-sse-interval", "150ms")) {
            SseFrames sse = SseFrames.parse(probe.post("/slowsse?events=5", "{}").body());
            assertEquals(5, sse.named("content_block_delta").size());
            assertEquals(5, sse.named("message_delta").getFirst().data().path("usage").path("output_tokens").asInt());
            assertEquals("Hello from ProbeServer. Hello from", sse.text());
            assertEquals(Collections.nCopies(5, Duration.ofMillis(150)), sleeper.waits());

            SseFrames custom = SseFrames.parse(probe.post("/slowsse/v1/messages?interval=1s&events=2", "{}").body());
            assertEquals(2, custom.named("content_block_delta").size());
            assertEquals(Duration.ofSeconds(1), sleeper.waits().getLast());
        }
    }

    @Test
    void slowSseFlushesEachEventBeforeTheNextWait() throws Exception {
        GatedSleeper gate = new GatedSleeper();
        try (RunningProbe probe = RunningProbe.start(gate)) {
            HttpRequest req = HttpRequest.newBuilder(probe.uri("/slowsse?events=2")).timeout(Duration.ofSeconds(10))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
            HttpResponse<java.io.InputStream> r = probe.client().send(req, HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                // The server is parked before the first delta: the preamble must already be readable.
                String line;
                while (!(line = in.readLine()).equals("event: ping")) {
                    assertTrue(line.isEmpty() || line.startsWith("event: ") || line.startsWith("data: "), line);
                }
                gate.awaitWaiting(1);
                gate.open();
                String rest = in.lines().collect(Collectors.joining("\n"));
                assertTrue(rest.contains("event: message_stop"), rest);
            }
        }
    }

    @Test
    void slowWaitsTheDelayThenAnswersWithJsonEvenWhenAskedToStream() {
        RecordingSleeper sleeper = new RecordingSleeper();
        try (RunningProbe probe = RunningProbe.start(sleeper, "-slow-delay", "3s")) {
            HttpResponse<String> r = probe.post("/slow/v1/messages", STREAM_BODY);
            assertEquals(200, r.statusCode());
            assertEquals("application/json", r.headers().firstValue("content-type").orElseThrow());
            assertEquals("message", RunningProbe.json(r.body()).path("type").asText());
            probe.post("/slow?delay=250ms", "{}");
            assertEquals(List.of(Duration.ofSeconds(3), Duration.ofMillis(250)), sleeper.waits());
        }
    }
}
