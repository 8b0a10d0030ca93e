package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.ScriptedUpstream;

/** {@code SHAPER_CONFIG}: the launcher's detached shaper is started from the file, on the launcher's port. */
class LauncherConfigTest {
    @TempDir
    Path dir;

    @Test
    void theDetachedShaperRunsFromTheFile() throws Exception {
        int port = InProcessLaunch.freePort();
        try (ScriptedUpstream upstream = ScriptedUpstream.ok("from-the-file")) {
            Path file = Files.writeString(dir.resolve("shaper.yaml"), "upstream: " + upstream.url() + "/base\nconcurrency: 2\n");
            FakeClaude claude = FakeClaude.exiting(dir, 0);
            InProcessLaunch launch = new InProcessLaunch(dir, claude, port).with("SHAPER_CONFIG", file.toString())
                    .with("SHAPER_UPSTREAM", "http://127.0.0.1:1");
            try {
                InProcessLaunch.Result r = launch.run("-p", "hi");
                assertEquals(0, r.exitCode(), r.stderr());
                long pid = DetachedShapers.pid(port).orElseThrow(() -> new AssertionError("no shaper answers after the launch"));
                String args = DetachedShapers.commandLine(pid);
                assertTrue(args.contains("-config " + file + " -bind 127.0.0.1:" + port), args);
                HttpResponse<String> res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/models"))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, res.statusCode());
                assertEquals("from-the-file", res.body());
                assertEquals("/base/v1/models", upstream.onlyRequest().target());
            } finally {
                DetachedShapers.stop(port);
            }
        }
    }
}
