package shaper.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TestNet;

/** Retry decisions and breaker transitions get one line each; the log can be diverted; -log-file errors never stop it. */
class LogLinesTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static int post(RunningShaper shaper, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void eachRetryDecisionAndEachBreakerTransitionHasOneLine() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(500, "{\"error\":\"boom\"}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "1", "-retry-wait-min", "1ms",
                     "-retry-wait-max", "2ms", "-cb-threshold", "2", "-cb-open-timeout", "1m")) {
            assertEquals(500, post(shaper, "/v1/messages?key=s3cr3t"));
            RunningShaper.await("exchange line", BOUND, () -> !shaper.logLines(" exchange ").isEmpty());
            List<String> retries = shaper.logLines(" retry provider=default method=POST path=/v1/messages attempt=1 reason=server_error delay=");
            assertEquals(1, retries.size(), shaper.stdout());
            assertEquals(1, shaper.logLines(" retry-give-up provider=default method=POST path=/v1/messages attempt=2 reason=attempts_exhausted").size(),
                    shaper.stdout());
            RunningShaper.await("breaker line", BOUND, () -> !shaper.logLines(" breaker provider=default from=closed to=open").isEmpty());
            assertEquals(1, shaper.logLines(" breaker ").size(), "one line per transition: " + shaper.stdout());
            assertTrue(shaper.logLines(" exchange ").getFirst().contains(" attempts=2 "), shaper.stdout());
            assertEquals(503, post(shaper, "/v1/messages"));
            RunningShaper.await("rejection logged", BOUND, () -> shaper.logLines(" exchange ").size() == 2);
            assertTrue(shaper.logLines(" exchange ").get(1).endsWith(" attempts=0 reason=circuit_open outcome=failed"), shaper.stdout());
            assertFalse(shaper.stdout().contains("s3cr3t"), "no query reaches the log");
        }
    }

    @Test
    void divertedLinesSkipStdoutWhileTheLogFileMirrorKeepsThem() throws Exception {
        Path file = Files.createTempFile("shaper-mirror", ".log");
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-log-file", file.toString())) {
            RunningShaper.await("startup logged", BOUND, () -> !shaper.logLines("listening").isEmpty());
            List<String> tab = new CopyOnWriteArrayList<>();
            shaper.server().log().divertTo(tab::add);
            assertEquals(200, post(shaper, "/v1/diverted"));
            RunningShaper.await("diverted line", BOUND, () -> tab.stream().anyMatch(l -> l.contains("path=/v1/diverted")));
            RunningShaper.await("mirrored line", BOUND, () -> TestNet.read(file).contains("path=/v1/diverted"));
            assertTrue(shaper.logLines("path=/v1/diverted").isEmpty(), "a diverted line is not printed over the screen");
            shaper.server().log().restore();
            assertEquals(200, post(shaper, "/v1/back"));
            RunningShaper.await("stdout again", BOUND, () -> !shaper.logLines("path=/v1/back").isEmpty());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void aFailingLogFileIsReportedOnceAndNeverStopsTheProxy() throws Exception {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "needs /dev/full");
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-log-file", full.toString())) {
            for (int i = 0; i < 5; i++) {
                assertEquals(200, post(shaper, "/v1/n" + i));
                int n = i;
                RunningShaper.await("line " + i, BOUND, () -> !shaper.logLines("path=/v1/n" + n).isEmpty());
            }
            RunningShaper.await("write error reported", BOUND, () -> shaper.stderr().contains("-log-file"));
            assertEquals(1, shaper.stderr().lines().filter(l -> l.contains("-log-file")).count(), shaper.stderr());
        }
    }
}
