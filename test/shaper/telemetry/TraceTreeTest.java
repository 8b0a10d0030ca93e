package shaper.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.testing.OtlpReceiver.attribute;
import static shaper.testing.OtlpReceiver.hex;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.opentelemetry.proto.trace.v1.Span;
import shaper.limit.LimiterSnapshot;
import shaper.testing.OtlpReceiver;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * One queued, retried and transcoded Messages request, traced: the OTLP export a local collector
 * receives holds the client's trace with our SERVER span as the child of the client's span, the
 * queue wait, both upstream attempts (the first retried, the second answered) and the two
 * conversions under it, with the GenAI attributes; and each attempt's upstream request carries
 * that attempt's own span context, so the upstream's spans join the same trace.
 */
class TraceTreeTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String CLIENT_SPAN = "b7ad6b7169203331";
    private static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"gpt-x-2026\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"hello back\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2}}";

    private static String messages(String text) {
        return "{\"model\":\"claude-x\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}";
    }

    private static CompletableFuture<HttpResponse<String>> post(RunningShaper s, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(s.uri("/v1/messages")).timeout(BOUND)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int waiters(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum();
    }

    private static Span one(List<Span> spans, String name) {
        List<Span> found = spans.stream().filter(s -> s.getName().equals(name)).toList();
        assertEquals(1, found.size(), "spans named " + name + " in " + spans.stream().map(Span::getName).toList());
        return found.getFirst();
    }

    @Test
    void queuedRetriedTranscodedRequestIsOneTreeUnderTheClientsSpan() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger traced = new AtomicInteger();
        try (OtlpReceiver collector = OtlpReceiver.start();
             ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (req.bodyText().contains("hold")) {
                     if (!release.await(20, TimeUnit.SECONDS)) {
                         throw new java.io.IOException("never released");
                     }
                     ex.respond(200, COMPLETION, "Content-Type: application/json");
                 } else if (traced.getAndIncrement() == 0) {
                     ex.respond(503, "{\"error\":{\"message\":\"overloaded\"}}", "Content-Type: application/json");
                 } else {
                     ex.respond(200, COMPLETION, "Content-Type: application/json");
                 }
             })) {
            List<RecordedRequest> seen;
            try (RunningShaper shaper = RunningShaper.start("-otel", "-otel-endpoint", collector.url(), "-upstream", up.url(),
                    "-transcode-messages-chat", "-limit-all", "-concurrency", "1", "-release-cooldown", "0",
                    "-retry", "2", "-retry-wait-min", "10ms", "-retry-wait-max", "20ms", "-client-id", "session")) {
                CompletableFuture<HttpResponse<String>> holder = post(shaper, messages("hold"));
                RunningShaper.await("holder upstream", BOUND, () -> up.inFlight() == 1);
                CompletableFuture<HttpResponse<String>> queued = post(shaper, messages("hi"),
                        "traceparent", "00-" + TRACE + "-" + CLIENT_SPAN + "-01", "tracestate", "vendor=abc",
                        "x-claude-code-session-id", "session-7");
                RunningShaper.await("queued behind the holder", BOUND, () -> waiters(shaper) == 1);
                release.countDown();
                assertEquals(200, holder.get(20, TimeUnit.SECONDS).statusCode());
                HttpResponse<String> answer = queued.get(20, TimeUnit.SECONDS);
                assertEquals(200, answer.statusCode(), answer.body());
                assertTrue(answer.body().contains("hello back"), answer.body());
                seen = up.requests();
            } // closing the proxy flushes the export
            List<Span> all = collector.awaitSpans(8, BOUND);
            List<Span> trace = all.stream().filter(s -> hex(s.getTraceId()).equals(TRACE)).toList();

            Span server = one(trace, "chat claude-x");
            assertEquals(Span.SpanKind.SPAN_KIND_SERVER, server.getKind());
            assertEquals(CLIENT_SPAN, hex(server.getParentSpanId()), "the client's span is our SERVER span's parent");
            assertEquals("vendor=abc", server.getTraceState());
            var a = server.getAttributesList();
            assertEquals("chat", attribute(a, "gen_ai.operation.name"));
            assertEquals("anthropic", attribute(a, "gen_ai.provider.name"));
            assertEquals("claude-x", attribute(a, "gen_ai.request.model"));
            assertEquals("5", attribute(a, "gen_ai.usage.input_tokens"));
            assertEquals("2", attribute(a, "gen_ai.usage.output_tokens"));
            assertEquals("0", attribute(a, "gen_ai.usage.cache_read.input_tokens"));
            // the upstream's own answer is what the usage scan reads on a transcoded route: its model and its wording
            assertEquals("gpt-x-2026", attribute(a, "gen_ai.response.model"));
            assertEquals("stop", attribute(a, "gen_ai.response.finish_reasons"));
            assertEquals("200", attribute(a, "http.response.status_code"));
            assertEquals("2", attribute(a, "shaper.attempts"));
            assertEquals("clean", attribute(a, "shaper.outcome"));
            String serverId = hex(server.getSpanId());

            Span queue = one(trace, "shaper.queue_wait");
            assertEquals(serverId, hex(queue.getParentSpanId()));
            assertEquals("1", attribute(queue.getAttributesList(), "shaper.queue.position"));
            assertNotNull(attribute(queue.getAttributesList(), "shaper.queue.limiter"));
            assertEquals("session-7", attribute(queue.getAttributesList(), "shaper.client"), "who waited: the client identity");
            assertTrue(queue.getEndTimeUnixNano() - queue.getStartTimeUnixNano() > 0);

            List<Span> attempts = trace.stream().filter(s -> s.getName().equals("upstream attempt"))
                    .sorted(java.util.Comparator.comparingLong(Span::getStartTimeUnixNano)).toList();
            assertEquals(2, attempts.size(), "one CLIENT span per attempt");
            Span first = attempts.get(0);
            Span second = attempts.get(1);
            for (Span attempt : attempts) {
                assertEquals(Span.SpanKind.SPAN_KIND_CLIENT, attempt.getKind());
                assertEquals(serverId, hex(attempt.getParentSpanId()));
                assertTrue(attempt.getStartTimeUnixNano() >= queue.getEndTimeUnixNano(), "attempts start after the queue wait");
            }
            assertEquals("503", attribute(first.getAttributesList(), "http.response.status_code"));
            assertEquals("server_error", attribute(first.getAttributesList(), "shaper.retry.reason"));
            assertNotNull(attribute(first.getAttributesList(), "shaper.retry.backoff_s"));
            assertEquals("200", attribute(second.getAttributesList(), "http.response.status_code"));
            assertEquals("2", attribute(second.getAttributesList(), "shaper.attempt"));

            assertEquals(serverId, hex(one(trace, "shaper.transcode request").getParentSpanId()));
            assertEquals(hex(second.getSpanId()), hex(one(trace, "shaper.transcode response").getParentSpanId()),
                    "the answer's conversion runs inside the attempt that answered");

            List<RecordedRequest> tracedCalls = seen.stream().filter(r -> !r.bodyText().contains("hold")).toList();
            assertEquals(2, tracedCalls.size());
            assertEquals("00-" + TRACE + "-" + hex(first.getSpanId()) + "-01", tracedCalls.get(0).header("traceparent"));
            assertEquals("00-" + TRACE + "-" + hex(second.getSpanId()) + "-01", tracedCalls.get(1).header("traceparent"),
                    "the upstream's spans become children of the attempt that called it");
            assertEquals("vendor=abc", tracedCalls.get(1).header("tracestate"));

            RecordedRequest held = seen.stream().filter(r -> r.bodyText().contains("hold")).findFirst().orElseThrow();
            assertNotEquals(TRACE, held.header("traceparent").substring(3, 35), "a request without a trace starts its own");
            assertEquals("ai-concurrency-shaper", collector.serviceNames().getFirst());
        }
    }
}
