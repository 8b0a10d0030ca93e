package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.observe.ExchangeRecord;
import shaper.observe.Outcome;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * What a person sees when a transcoded request goes wrong: the record, the log line and README
 * agree that a local refusal is the proxy's own failed answer; log lines name the setting that
 * fixes a refusal and the upstream URL behind a 404; loss decisions are logged once per distinct
 * set; errors in the Responses dialect carry {@code x-request-id}.
 */
class TranscodeAnswersTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String MESSAGES = TranscodeProxyTest.MESSAGES;

    private static HttpResponse<String> post(RunningShaper s, String path, String body) throws Exception {
        return TranscodeProxyTest.post(s, path, body);
    }

    private static ScriptedUpstream completions() {
        return ScriptedUpstream.start((req, ex) -> ex.respond(200, TranscodeProxyTest.COMPLETION, "Content-Type: application/json"));
    }

    @Test
    void aLocalRefusalIsRecordedAndLoggedAsAFailedLocalAnswer() throws Exception {
        try (ScriptedUpstream up = completions();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat")) {
            assertEquals(400, post(shaper, "/v1/messages", MESSAGES.replace("\"max_tokens\"", "\"bogus\":1,\"max_tokens\"")).statusCode());
            RunningShaper.await("the exchange recorded", BOUND, () -> shaper.server().journal("default").recent().size() == 1);
            ExchangeRecord r = shaper.server().journal("default").recent().getFirst();
            assertEquals(Outcome.FAILED, r.outcome(), r.toString());
            RunningShaper.await("the exchange line", BOUND, () -> !shaper.logLines(" status=400").isEmpty());
            String line = shaper.logLines(" status=400").getFirst();
            assertTrue(line.contains("outcome=failed"), line);
            assertEquals(1, shaper.server().counters("default").snapshot().failed());
        }
    }

    @Test
    void refusalsLogTheSettingThatWouldLetTheRequestThrough() throws Exception {
        try (ScriptedUpstream up = completions();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-transcode-max-request-mb", "1")) {
            HttpResponse<String> stop = post(shaper, "/v1/messages",
                    Mappings.request("[{\"role\":\"user\",\"content\":\"x\"}]", "\"stop_sequences\":[\"END\"]"));
            assertEquals(400, stop.statusCode(), stop.body());
            RunningShaper.await("the refusal's line", BOUND, () -> !shaper.logLines("uses unsupported feature").isEmpty());
            String line = shaper.logLines("uses unsupported feature").getFirst();
            assertTrue(line.contains("-transcode-chat-capability stop_sequences"), line);
            assertTrue(line.contains("-transcode-allow-loss stop_sequences"), line);

            String big = Mappings.request("[{\"role\":\"user\",\"content\":\"" + "x".repeat(1_200_000) + "\"}]", "");
            assertEquals(413, post(shaper, "/v1/messages", big).statusCode());
            RunningShaper.await("the 413's line", BOUND, () -> !shaper.logLines("request body too large").isEmpty());
            String tooLarge = shaper.logLines("request body too large").getFirst();
            assertTrue(tooLarge.contains("1 MiB") && tooLarge.contains("-transcode-max-request-mb"), tooLarge);
            assertEquals(0, up.requests().size());
        }
    }

    @Test
    void anUpstream404OnATranscodedRouteLogsTheUrlItCalled() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(404, "{\"error\":{\"message\":\"not found\"}}",
                "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url() + "/v1", "-transcode-messages-chat", "-retry", "0")) {
            assertEquals(404, post(shaper, "/v1/messages", MESSAGES).statusCode());
            RunningShaper.await("the 404's line", BOUND, () -> !shaper.logLines("upstream answered 404 for").isEmpty());
            String line = shaper.logLines("upstream answered 404 for").getFirst();
            assertTrue(line.contains(up.url() + "/v1/v1/chat/completions"), "the doubled /v1 is visible: " + line);
        }
    }

    @Test
    void theSameLossDecisionsAreLoggedOnce() throws Exception {
        try (ScriptedUpstream up = completions();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat")) {
            for (int i = 0; i < 3; i++) {
                assertEquals(200, post(shaper, "/v1/messages", MESSAGES).statusCode());
            }
            RunningShaper.await("three exchanges logged", BOUND, () -> shaper.logLines(" exchange ").size() >= 3);
            List<String> reports = shaper.logLines(": report ");
            assertEquals(1, reports.size(), shaper.stdout());
            assertTrue(reports.getFirst().contains("usage_cache"), reports.getFirst());
        }
    }

    @Test
    void errorsInTheResponsesDialectCarryXRequestId() throws Exception {
        try (ScriptedUpstream up = completions();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-responses-chat")) {
            HttpResponse<String> r = post(shaper, "/v1/responses", "{\"model\":\"m\",\"input\":\"hi\",\"bogus\":1}");
            assertEquals(400, r.statusCode(), r.body());
            assertTrue(r.headers().firstValue("x-request-id").orElse("").startsWith("req_"), r.headers().map().toString());
            assertEquals(0, up.requests().size());
        }
    }
}
