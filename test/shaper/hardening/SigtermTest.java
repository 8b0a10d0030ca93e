package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TestNet;

/** SIGTERM to the real script: the stream in flight finishes, then the process exits 0. */
class SigtermTest {
    private static final Duration START_BOUND = Duration.ofSeconds(180);

    @Test
    void sigtermLetsTheStreamInFlightFinishThenExitsZero() throws Exception {
        Path log = Files.createTempFile("shaper-sigterm", ".log");
        int port = TestNet.freePort();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < 10; i++) {
                    ex.chunk("data: " + i + "\n\n");
                    Thread.sleep(150);
                }
                ex.chunk("data: done\n\n");
                ex.endChunks();
            })) {
            Process p = new ProcessBuilder(List.of("./jbang", "Shaper.java", "-upstream", up.url(), "-bind", "127.0.0.1:" + port))
                    .directory(ProjectRoot.find().toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                URI health = URI.create("http://127.0.0.1:" + port + "/__shaper/health");
                RunningShaper.await("shaper health", START_BOUND, () -> p.isAlive() && TestNet.ok(health));
                try (RawHttp raw = new RawHttp(port)) {
                    raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                            + "Content-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"stream\":true}");
                    assertEquals(200, raw.readHead().status());
                    raw.readChunk();
                    p.destroy(); // SIGTERM
                    StringBuilder rest = new StringBuilder();
                    String chunk;
                    while ((chunk = raw.readChunk()) != null) {
                        rest.append(chunk);
                    }
                    assertTrue(rest.toString().endsWith("data: done\n\n"), rest.toString());
                }
                assertTrue(p.waitFor(30, TimeUnit.SECONDS), "exited");
                assertEquals(0, p.exitValue(), TestNet.read(log));
                assertTrue(TestNet.read(log).contains("stopping"), TestNet.read(log));
            } finally {
                p.destroyForcibly();
                Files.deleteIfExists(log);
            }
        }
    }
}
