package shaper.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.testing.OtlpReceiver.attribute;
import static shaper.testing.OtlpReceiver.hex;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.opentelemetry.proto.trace.v1.Span;
import shaper.testing.OtlpReceiver;
import shaper.testing.ResponsesSocketClient;
import shaper.testing.ResponsesSocketUpstream;
import shaper.testing.RunningShaper;

/**
 * Each generating turn of a Responses WebSocket session is traced like an HTTP exchange: one SERVER
 * span per turn, a child for its queue wait and a CLIENT child for its one attempt, the GenAI
 * attributes read from the turn's {@code response.completed}; the session's handshake
 * {@code traceparent} is every turn's parent, and a session opened without one starts its own trace.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketTurnTraceTest {
    private static final Duration BOUND = Duration.ofSeconds(15);
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";
    private static final String CREATE = "{\"type\":\"response.create\",\"model\":\"fake-1\",\"input\":[{\"type\":\"message\",\"role\":\"user\","
            + "\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}]}";

    private static List<Span> named(List<Span> spans, String name, String parent) {
        return spans.stream().filter(s -> s.getName().equals(name) && hex(s.getParentSpanId()).equals(parent)).toList();
    }

    @Test
    void eachTurnIsASpanTreeUnderTheHandshakesTrace() throws Exception {
        try (OtlpReceiver collector = OtlpReceiver.start(); ResponsesSocketUpstream up = ResponsesSocketUpstream.start("hello")) {
            try (RunningShaper shaper = RunningShaper.start("-otel", "-otel-endpoint", collector.url(), "-upstream", up.url(),
                    "-limit-all", "-concurrency", "1", "-release-cooldown", "0s")) {
                URI ws = URI.create("ws://127.0.0.1:" + shaper.port() + "/v1/responses");
                up.holdTurns();
                try (ResponsesSocketClient holder = ResponsesSocketClient.open(ws);
                     ResponsesSocketClient traced = ResponsesSocketClient.open(ws,
                             "traceparent", "00-" + TRACE + "-" + CLIENT_SPAN + "-01", "tracestate", "vendor=ws")) {
                    holder.send(CREATE);
                    RunningShaper.await("the holder's turn at the fake", BOUND, () -> up.inFlight() == 1);
                    traced.send(CREATE);
                    RunningShaper.await("the traced turn queued", BOUND, () -> shaper.server().journal("default").inFlight().stream()
                            .anyMatch(f -> f.state().name().equals("QUEUED")));
                    up.release(1);
                    holder.until("response.completed", BOUND);
                    up.release(1);
                    traced.until("response.completed", BOUND);
                    traced.send(CREATE); // a second turn on the same socket: the same parent
                    up.release(1);
                    traced.until("response.completed", BOUND);
                    RunningShaper.await("three turns recorded", BOUND, () -> shaper.server().journal("default").recent().stream()
                            .filter(r -> r.transport().equals("ws")).count() == 3);
                }
            } // closing the proxy flushes the export
            List<Span> all = collector.awaitSpans(7, BOUND); // three turns: SERVER and CLIENT each, one queue wait at least
            List<Span> servers = named(all, "chat fake-1", CLIENT_SPAN);
            assertEquals(2, servers.size(), "one SERVER span per turn of the traced session: " + all.stream().map(Span::getName).toList());
            for (Span server : servers) {
                assertEquals(TRACE, hex(server.getTraceId()));
                assertEquals(Span.SpanKind.SPAN_KIND_SERVER, server.getKind());
                assertEquals("vendor=ws", server.getTraceState());
                var a = server.getAttributesList();
                assertEquals("ws", attribute(a, "shaper.transport"));
                assertEquals("chat", attribute(a, "gen_ai.operation.name"));
                assertEquals("openai", attribute(a, "gen_ai.provider.name"));
                assertEquals("fake-1", attribute(a, "gen_ai.request.model"));
                assertEquals("fake-1", attribute(a, "gen_ai.response.model"));
                assertEquals("11", attribute(a, "gen_ai.usage.input_tokens"));
                assertEquals("7", attribute(a, "gen_ai.usage.output_tokens"));
                assertEquals("clean", attribute(a, "shaper.outcome"));
                assertEquals("1", attribute(a, "shaper.attempts"));
                String id = hex(server.getSpanId());
                List<Span> attempts = named(all, "upstream attempt", id);
                assertEquals(1, attempts.size(), "one CLIENT span per turn");
                assertEquals(Span.SpanKind.SPAN_KIND_CLIENT, attempts.getFirst().getKind());
                assertEquals("200", attribute(attempts.getFirst().getAttributesList(), "http.response.status_code"));
            }
            Span first = servers.stream().min(java.util.Comparator.comparingLong(Span::getStartTimeUnixNano)).orElseThrow();
            List<Span> queue = named(all, "shaper.queue_wait", hex(first.getSpanId()));
            assertEquals(1, queue.size(), "the turn that waited for the slot has its queue wait");
            assertEquals("1", attribute(queue.getFirst().getAttributesList(), "shaper.queue.position"));
            assertTrue(queue.getFirst().getEndTimeUnixNano() > queue.getFirst().getStartTimeUnixNano());

            List<Span> untraced = all.stream().filter(s -> s.getName().equals("chat fake-1") && !hex(s.getTraceId()).equals(TRACE)).toList();
            assertEquals(1, untraced.size(), "the session without a traceparent: its turn in a trace of its own");
            assertNotEquals(CLIENT_SPAN, hex(untraced.getFirst().getParentSpanId()));
            assertEquals("ws", attribute(untraced.getFirst().getAttributesList(), "shaper.transport"));
        }
    }
}
