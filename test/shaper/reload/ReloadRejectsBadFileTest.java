package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.ScriptedUpstream;

/** A file that does not load, or does not apply, changes nothing: the old configuration keeps serving. */
class ReloadRejectsBadFileTest {
    @TempDir
    Path dir;

    private static int get(LiveShaper s, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(s.uri(path)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void aBadFileKeepsTheRunningConfiguration() throws Exception {
        try (ScriptedUpstream upstream = ScriptedUpstream.ok("a");
             LiveShaper s = LiveShaper.start(dir.resolve("shaper.yaml"), "providers:\n  - name: a\n    upstream: " + upstream.url()
                     + "\n    prefix: /a\n")) {
            String original = s.server.live().status().fileHash().orElseThrow();
            assertFalse(s.reloadWith("providers:\n  - name: a\n    upstream: " + upstream.url() + "\n    prefix: /b\n    concurency: 2\n"));
            s.awaitLog("config reload failed, running configuration kept: " + s.file + ":5:5: unknown key \"concurency\"");
            assertFalse(s.reloadWith("providers:\n  - name: a\n    upstream: " + upstream.url() + "\n    prefix: /b\n"
                    + "    auth-source: env:SHAPER_TEST_UNSET_VARIABLE_FOR_RELOAD\n"));
            s.awaitLog("SHAPER_TEST_UNSET_VARIABLE_FOR_RELOAD"); // a secret that cannot be read is refused before anything changes
            assertEquals(200, get(s, "/a/x"), "the old mount still serves");
            assertEquals(404, get(s, "/b/x"));
            assertEquals(1, s.server.live().status().generation());
            assertEquals(2, s.server.live().status().failed());
            assertEquals(original, s.server.live().status().fileHash().orElseThrow());
        }
    }
}
