package shaper.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import shaper.main.ShaperMain;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TestCerts;

/**
 * {@code rediss://} with an ACL user, as managed Redis services run it: the shared limit holds over
 * TLS, the password never reaches argv or the log, mutual TLS works, and a certificate or password
 * that does not fit gives a message naming the flag that fixes it.
 */
class RedisTlsTest {
    private static final String PASSWORD = "s3cret-over-tls";
    private static TestCerts certs;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certs = TestCerts.generate();
    }

    @AfterAll
    static void forgetCertificates() {
        certs = null;
    }

    /** A TLS server with {@code cert}, whose only user is the ACL user {@code shaper}, with README's rights. */
    private static RedisProcess tlsServer(String cert, boolean clientCerts) throws Exception {
        return RedisProcess.launch((port, dir) -> {
            List<String> argv = new ArrayList<>(RedisProcess.plain(port, dir));
            argv.addAll(certs.serverArgs(port, cert, clientCerts));
            argv.addAll(List.of("--user", "default", "off", "--user", "shaper", "on", ">" + PASSWORD, "~{*", "&*", "+@all", "-@dangerous"));
            return argv;
        }, RedisProcess.SERVER_READY);
    }

    private static Path authFile(String content) throws Exception {
        Path f = Files.createTempFile(certs.dir, "redis-auth", ".txt");
        Files.writeString(f, content);
        return f;
    }

    private static String url(RedisProcess r) {
        return "rediss://127.0.0.1:" + r.port();
    }

    @Test
    void aBurstOverTlsWithAnAclUserHoldsTheSharedLimit() throws Exception {
        try (RedisProcess redis = tlsServer("server", false); ScriptedUpstream up = SharedLimitBurst.slowUpstream()) {
            List<RunningShaper> shapers = SharedLimitBurst.instances(up, "-limiter-backend", url(redis),
                    "-limiter-redis-ca", certs.pem("ca").toString(),
                    "-limiter-redis-auth", "file:" + authFile("shaper:" + PASSWORD + "\n")); // the trailing newline is ignored
            try {
                SharedLimitBurst.run(up, shapers, 30);
                for (RunningShaper s : shapers) {
                    assertFalse((s.stdout() + s.stderr()).contains(PASSWORD), "the password never reaches the log");
                    assertEquals("rediss", s.server().limiterBackend("default").orElseThrow().kind());
                }
            } finally {
                SharedLimitBurst.closeAll(shapers);
            }
        }
    }

    @Test
    void mutualTlsNeedsTheClientCertificateAndSaysSoWithoutIt() throws Exception {
        try (RedisProcess redis = tlsServer("server", true); ScriptedUpstream up = ScriptedUpstream.ok("ok")) {
            String auth = "file:" + authFile("shaper:" + PASSWORD);
            try (RunningShaper withCert = RunningShaper.start("-upstream", up.url(), "-limiter-backend", url(redis),
                    "-limiter-redis-ca", certs.pem("ca").toString(), "-limiter-redis-cert", certs.pem("client").toString(),
                    "-limiter-redis-key", certs.key("client").toString(), "-limiter-redis-auth", auth);
                 RunningShaper without = RunningShaper.start("-upstream", up.url(), "-limiter-backend", url(redis),
                         "-limiter-redis-ca", certs.pem("ca").toString(), "-limiter-redis-auth", auth)) {
                RunningShaper.await("connected with a client certificate", SharedLimitBurst.BOUND,
                        () -> !withCert.logLines("cluster limiter: connected").isEmpty());
                RunningShaper.await("refused without one", SharedLimitBurst.BOUND, () -> !without.logLines("unreachable at start").isEmpty());
                String line = without.logLines("unreachable at start").getFirst();
                assertTrue(line.contains("TLS") && line.contains("-limiter-redis-cert"), line);
                assertEquals(200, Clients.get(withCert.uri("/v1/x")).statusCode());
            }
        }
    }

    @Test
    void anUntrustedOrMisnamedCertificateIsAClearStartupMessage() throws Exception {
        try (RedisProcess right = tlsServer("server", false); RedisProcess misnamed = tlsServer("wronghost", false);
             ScriptedUpstream up = ScriptedUpstream.ok("ok")) {
            String auth = "file:" + authFile("shaper:" + PASSWORD);
            try (RunningShaper untrusted = RunningShaper.start("-upstream", up.url(), "-limiter-backend", url(right),
                    "-limiter-redis-ca", certs.pem("other-ca").toString(), "-limiter-redis-auth", auth);
                 RunningShaper wrongName = RunningShaper.start("-upstream", up.url(), "-limiter-backend", url(misnamed),
                         "-limiter-redis-ca", certs.pem("ca").toString(), "-limiter-redis-auth", auth)) {
                for (RunningShaper s : List.of(untrusted, wrongName)) {
                    RunningShaper.await("startup message", SharedLimitBurst.BOUND, () -> !s.logLines("unreachable at start").isEmpty());
                    String line = s.logLines("unreachable at start").getFirst();
                    assertTrue(line.contains("TLS handshake failed") && line.contains("-limiter-redis-ca"), line);
                    assertFalse(s.server().limiterBackend("default").orElseThrow().up());
                    assertEquals(200, Clients.get(s.uri("/v1/on-the-fallback")).statusCode());
                }
                assertTrue(wrongName.logLines("unreachable at start").getFirst().toLowerCase().contains("127.0.0.1"),
                        "the name mismatch is named: " + wrongName.stdout());
            }
        }
    }

    @Test
    void aWrongPasswordIsNamedWithoutShowingIt() throws Exception {
        try (RedisProcess redis = tlsServer("server", false); ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper s = RunningShaper.start("-upstream", up.url(), "-limiter-backend", url(redis),
                     "-limiter-redis-ca", certs.pem("ca").toString(), "-limiter-redis-auth", "file:" + authFile("shaper:not-" + PASSWORD))) {
            RunningShaper.await("startup message", SharedLimitBurst.BOUND, () -> !s.logLines("unreachable at start").isEmpty());
            String line = s.logLines("unreachable at start").getFirst();
            assertTrue(line.contains("authentication refused") && line.contains("-limiter-redis-auth"), line);
            assertFalse(s.stdout().contains("not-" + PASSWORD), "the wrong password is not logged either");
            String health = Clients.get(s.uri("/__shaper/health")).body();
            assertTrue(health.contains("\"state\":\"fallback\"") && health.contains("authentication refused"), health);
        }
    }

    @Test
    void aPasswordInTheUrlOrABadCertificateFileStopsTheStartWithTheFlagToUse() throws Exception {
        String[] inUrl = {"-upstream", "http://127.0.0.1:1", "-limiter-backend", "rediss://shaper:hunter2@127.0.0.1:6380"};
        String err = exitMessage(1, inUrl);
        assertTrue(err.contains("-limiter-redis-auth") && !err.contains("hunter2"), err);

        String[] missingCa = {"-upstream", "http://127.0.0.1:1", "-limiter-backend", "rediss://127.0.0.1:6380",
                "-limiter-redis-ca", certs.dir.resolve("missing.pem").toString()};
        err = exitMessage(1, missingCa);
        assertTrue(err.contains("-limiter-redis-ca") && err.contains("missing.pem"), err);

        String[] keyAsCa = {"-upstream", "http://127.0.0.1:1", "-limiter-backend", "rediss://127.0.0.1:6380",
                "-limiter-redis-ca", certs.key("ca").toString()};
        err = exitMessage(1, keyAsCa);
        assertTrue(err.contains("-limiter-redis-ca") && err.contains("BEGIN CERTIFICATE"), err);

        String[] caOnPlain = {"-upstream", "http://127.0.0.1:1", "-limiter-backend", "redis://127.0.0.1:6380",
                "-limiter-redis-ca", certs.pem("ca").toString()};
        err = exitMessage(1, caOnPlain);
        assertTrue(err.contains("rediss://"), err);
    }

    private static String exitMessage(int expectedExit, String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ShaperMain.run(argv, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(expectedExit, code, text + out.toString(StandardCharsets.UTF_8));
        return text;
    }
}
