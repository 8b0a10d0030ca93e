package shaper.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import shaper.main.ShaperMain;
import shaper.testing.RunningShaper;

/**
 * Mistakes a newcomer makes on the first command line end at once with one line that says what to
 * change: a taken listen port, an upstream port out of range, a typo in a flag's name. Each runs
 * the proxy's real entry point in this JVM; a run that would keep serving is bounded by a timeout.
 */
class StartupErrorsTest {
    private record Result(int code, String out, String err) {
    }

    /** Runs the entry point on its own thread: a start that wrongly succeeds would block until stopped. */
    private static Result run(String... argv) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> ShaperMain.run(argv,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        int c = code.get(60, TimeUnit.SECONDS); // a TimeoutException here is the bug: the proxy claimed the port and stayed up
        return new Result(c, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aTakenBindPortExitsOneWithOneLineNamingTheFlagAndTheCause() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String bind = "127.0.0.1:" + taken.getLocalPort();
            Result r = run("-upstream", "http://127.0.0.1:1", "-bind", bind);
            assertEquals(1, r.code(), r.err());
            assertEquals("shaper: -bind " + bind + ": cannot listen: address already in use (another shaper? see http://" + bind
                    + "/__shaper/health)\n", r.err());
            assertFalse(r.out().contains("listening"), "it never claims to listen: " + r.out());
        }
    }

    @Test
    void aTakenMetricsPortExitsOneAndLeavesTheProxyPortFree() throws Exception {
        int proxyPort = shaper.testing.TestNet.freePort();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String bind = "127.0.0.1:" + taken.getLocalPort();
            Result r = run("-upstream", "http://127.0.0.1:1", "-bind", "127.0.0.1:" + proxyPort, "-metrics-bind", bind);
            assertEquals(1, r.code(), r.err());
            assertTrue(r.err().startsWith("shaper: -metrics-bind " + bind + ": cannot listen: address already in use"), r.err());
        }
        try (ServerSocket again = new ServerSocket(proxyPort, 1, InetAddress.getLoopbackAddress())) {
            assertEquals(proxyPort, again.getLocalPort(), "the proxy listener was closed before the error");
        }
    }

    @Test
    void anUpstreamPortOutOfRangeIsASemanticError() throws Exception {
        Result r = run("-upstream", "http://127.0.0.1:99999");
        assertEquals(1, r.code(), r.err());
        assertEquals("shaper: -upstream port 99999 is out of range (expected 1..65535)\n", r.err());
    }

    @Test
    void anUpstreamEndingInV1WarnsOfTheDoubledPath() {
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:1/api/v1")) {
            assertTrue(shaper.stderr().contains("WARNING: -upstream http://127.0.0.1:1/api/v1 ends in /v1 and clients' paths start with /v1:"
                    + " /v1/messages goes to http://127.0.0.1:1/api/v1/v1/messages."), shaper.stderr());
        }
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:1/api")) {
            assertFalse(shaper.stderr().contains("WARNING"), shaper.stderr());
        }
    }

    @Test
    void aMistypedFlagSuggestsTheNearestAndDoesNotCallItsValueAFlag() throws Exception {
        Result r = run("-upstream", "http://127.0.0.1:1", "-concurency", "2");
        assertEquals(2, r.code(), r.err());
        assertEquals("shaper: unknown flag -concurency (did you mean -concurrency?)\n"
                + "Run './jbang Shaper.java -h' for the flag reference.\n", r.err());
    }

    @Test
    void aWordNearNoFlagGetsNoGuess() throws Exception {
        Result r = run("-upstream", "http://127.0.0.1:1", "-zzzzzzzzzz");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("shaper: unknown flag -zzzzzzzzzz\n"), r.err());
    }

    @Test
    void aMistypedFlagInAProviderSectionIsNamedWithItsSection() throws Exception {
        Result r = run("--provider=a", "-upstream", "http://127.0.0.1:1", "-prefix", "/a", "-retyr", "3");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("shaper: provider \"a\": unknown flag -retyr (did you mean -retry?)\n"), r.err());
    }

    @Test
    void anUnreachableUpstreamIsOneLogLineAtStartAndTheProxyStillServes() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        try (RunningShaper shaper = RunningShaper.start("-upstream", "http://127.0.0.1:" + closed)) {
            shaper.server().checkUpstreams();
            RunningShaper.await("the upstream check's line", java.time.Duration.ofSeconds(10),
                    () -> !shaper.logLines("upstream check:").isEmpty());
            assertEquals(java.util.List.of("upstream check: provider=default -upstream http://127.0.0.1:" + closed
                    + " cannot be reached: connection refused (the proxy runs; its requests fail until the upstream is up)"),
                    shaper.logLines("upstream check:").stream().map(l -> l.substring(l.indexOf("upstream check:"))).toList());
            assertTrue(shaper.server().port() > 0, "the check never stops the start");
        }
        try (shaper.testing.ScriptedUpstream up = shaper.testing.ScriptedUpstream.ok("up");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            shaper.server().checkUpstreams();
            RunningShaper.await("the check's connection", java.time.Duration.ofSeconds(10), () -> up.connections() >= 1);
            assertTrue(shaper.logLines("upstream check:").isEmpty(), "a reachable upstream is not mentioned");
        }
    }
}
