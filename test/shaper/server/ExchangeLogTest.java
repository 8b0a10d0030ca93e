package shaper.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** One log line per exchange and a startup line naming the bind address and upstream. */
class ExchangeLogTest {
    private static final Pattern LINE = Pattern.compile(
            "^\\S+ exchange provider=default method=PUT path=/v1/files/abc status=409 duration=\\d+\\.\\dms queue_wait=\\d+\\.\\dms attempts=1 outcome=clean$");

    @Test
    void everyExchangeLogsMethodPathStatusDurationAndOutcomeOnce() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(409, "conflict"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            HttpClient.newHttpClient().send(HttpRequest.newBuilder(shaper.uri("/v1/files/abc?sig=s3cr3t"))
                    .PUT(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            RunningShaper.await("log line", java.time.Duration.ofSeconds(5), () -> !shaper.logLines(" exchange ").isEmpty());
            List<String> lines = shaper.logLines(" exchange ");
            assertEquals(1, lines.size(), shaper.stdout());
            assertTrue(LINE.matcher(lines.getFirst()).matches(), lines.getFirst());
        }
    }

    @Test
    void startupLineNamesBindAddressAndUpstreamWithoutItsQuery() {
        try (ScriptedUpstream up = ScriptedUpstream.ok("x");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url() + "/base?key=k")) {
            RunningShaper.await("startup logged", java.time.Duration.ofSeconds(5), () -> !shaper.logLines("listening").isEmpty());
            String startup = shaper.logLines("listening").getFirst();
            assertTrue(startup.contains("127.0.0.1:" + shaper.port()), startup);
            assertTrue(startup.contains("upstream=" + up.url() + "/base"), startup);
            assertTrue(!startup.contains("key=k"), startup);
        }
    }
}
