package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import shaper.testing.EgressDaemon;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * {@code -upstream-proxy-auth}: a real squid that demands Basic credentials (Debian's
 * {@code basic_ncsa_auth}) carries the tunnel when the proxy presents them from {@code env:} or
 * {@code file:}, and answers {@code 407} without them or with a wrong password, which the error names
 * with the flag that fixes it; the password never reaches the log.
 */
class EgressProxyAuthTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String USER = "shaper";
    private static final String PASSWORD = "pr0xy-s3cret";

    private static HttpResponse<String> get(RunningShaper shaper) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/models")).timeout(HostileUpstream.BOUND).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String firstError(RunningShaper shaper) {
        RunningShaper.await("the error logged", HostileUpstream.BOUND, () -> !shaper.logLines("upstream error").isEmpty());
        return shaper.logLines("upstream error").getFirst();
    }

    @Test
    void credentialsFromTheEnvironmentOpenTheTunnel() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("via a login");
             EgressDaemon squid = EgressDaemon.squidWithLogin(USER, PASSWORD);
             RunningShaper shaper = RunningShaper.withEnvironment(Map.of("PROXY_LOGIN", USER + ":" + PASSWORD), "-upstream", up.url(),
                     "-retry", "0", "-upstream-proxy", "http://127.0.0.1:" + squid.port(), "-upstream-proxy-auth", "env:PROXY_LOGIN")) {
            HttpResponse<String> r = get(shaper);
            assertEquals(200, r.statusCode(), shaper.stdout());
            assertEquals("via a login", r.body());
            assertTrue(shaper.stdout().contains("login=env:PROXY_LOGIN"), shaper.stdout());
            assertFalse(shaper.stdout().contains(PASSWORD), "the password is never logged");
        }
    }

    @Test
    void credentialsFromAFileOpenTheTunnel() throws Exception {
        Path file = Files.createTempFile("proxy-login", ".txt");
        try (ScriptedUpstream up = ScriptedUpstream.ok("via a file");
             EgressDaemon squid = EgressDaemon.squidWithLogin(USER, PASSWORD)) {
            Files.writeString(file, USER + ":" + PASSWORD + "\n");
            try (RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0",
                    "-upstream-proxy", "http://127.0.0.1:" + squid.port(), "-upstream-proxy-auth", "file:" + file)) {
                assertEquals(200, get(shaper).statusCode(), shaper.stdout());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void withoutCredentialsThe407IsNamed() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("never");
             EgressDaemon squid = EgressDaemon.squidWithLogin(USER, PASSWORD);
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-upstream-proxy", "http://127.0.0.1:" + squid.port())) {
            assertEquals(502, get(shaper).statusCode());
            String error = firstError(shaper);
            assertTrue(error.contains("refused CONNECT") && error.contains("407") && error.contains("-upstream-proxy-auth"), error);
            assertEquals(0, up.requests().size());
        }
    }

    @Test
    void aWrongPasswordIsNamedAndNeverLogged() throws Exception {
        String wrong = "not-the-" + PASSWORD;
        try (ScriptedUpstream up = ScriptedUpstream.ok("never");
             EgressDaemon squid = EgressDaemon.squidWithLogin(USER, PASSWORD);
             RunningShaper shaper = RunningShaper.withEnvironment(Map.of("PROXY_LOGIN", USER + ":" + wrong), "-upstream", up.url(),
                     "-retry", "0", "-upstream-proxy", "http://127.0.0.1:" + squid.port(), "-upstream-proxy-auth", "env:PROXY_LOGIN")) {
            assertEquals(502, get(shaper).statusCode());
            String error = firstError(shaper);
            assertTrue(error.contains("407") && error.contains("refused the credentials of -upstream-proxy-auth"), error);
            assertFalse(shaper.stdout().contains(wrong), "no password in the log");
            assertEquals(0, up.requests().size());
        }
    }

    @Test
    void aLiteralSecretOrAnUnsetVariableIsRefusedAtStartup() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> RunningShaper.start("-upstream", "http://127.0.0.1:1",
                "-upstream-proxy", "http://127.0.0.1:3128", "-upstream-proxy-auth", USER + ":" + PASSWORD).close());
        assertTrue(e.getMessage().contains("-upstream-proxy-auth"), e.getMessage());
        assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());

        e = assertThrows(RuntimeException.class, () -> RunningShaper.withEnvironment(Map.of(), "-upstream", "http://127.0.0.1:1",
                "-upstream-proxy", "http://127.0.0.1:3128", "-upstream-proxy-auth", "env:NO_SUCH_LOGIN_VAR").close());
        assertTrue(e.getMessage().contains("-upstream-proxy-auth env:NO_SUCH_LOGIN_VAR"), e.getMessage());
    }
}
