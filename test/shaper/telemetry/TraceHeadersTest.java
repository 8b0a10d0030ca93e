package shaper.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.testing.OtlpReceiver;
import shaper.testing.RawHttp;
import shaper.testing.RecordedRequest;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** What the trace context headers look like upstream with tracing off and on. */
class TraceHeadersTest {
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    private static RecordedRequest forward(String... flags) throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}")) {
            String[] argv = new String[flags.length + 2];
            argv[0] = "-upstream";
            argv[1] = up.url();
            System.arraycopy(flags, 0, argv, 2, flags.length);
            try (RunningShaper shaper = RunningShaper.start(argv); RawHttp client = new RawHttp(shaper.port())) {
                client.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\ntraceparent: " + PARENT + "\r\nTraceState: a=1,b=2\r\n"
                        + "Content-Length: 2\r\n\r\n{}");
                assertEquals(200, client.readHead().status());
            }
            return up.onlyRequest();
        }
    }

    @Test
    void withTracingOffTheClientsTraceHeadersPassThroughUntouched() throws Exception {
        RecordedRequest seen = forward();
        assertEquals(PARENT, seen.header("traceparent"));
        assertEquals("a=1,b=2", seen.header("tracestate"));
        assertEquals(1, seen.values("traceparent").size());
    }

    @Test
    void withTracingOnTheUpstreamGetsOurAttemptAsParentInTheClientsTrace() throws Exception {
        try (OtlpReceiver collector = OtlpReceiver.start()) {
            RecordedRequest seen = forward("-otel", "-otel-endpoint", collector.url());
            String sent = seen.header("traceparent");
            assertTrue(sent.matches("00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01"), sent);
            assertNotEquals(PARENT, sent, "the span id is our attempt's, not the client's");
            assertEquals("a=1,b=2", seen.header("tracestate"));
            assertEquals(1, seen.values("traceparent").size(), "one traceparent, not the client's beside ours");
            String attempt = sent.substring(36, 52);
            assertTrue(collector.awaitSpans(2, Duration.ofSeconds(20)).stream()
                    .anyMatch(s -> OtlpReceiver.hex(s.getSpanId()).equals(attempt) && s.getKind() == io.opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_CLIENT),
                    "the span the upstream was told about is exported");
        }
    }
}
