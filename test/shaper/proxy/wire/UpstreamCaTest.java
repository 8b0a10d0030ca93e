package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.TestCerts;
import shaper.testing.TlsUpstream;

/**
 * {@code -upstream-ca} and {@code -upstream-ca-only}: an https upstream whose certificate a test CA
 * (made by openssl here) signed is refused with the system trust alone, trusted once the CA's PEM
 * bundle is added, and refused again when only another CA is trusted; a file that cannot serve is
 * named with its flag at startup.
 */
class UpstreamCaTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static TestCerts certs;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certs = TestCerts.generate();
    }

    static HttpResponse<String> get(RunningShaper shaper) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/models")).timeout(HostileUpstream.BOUND).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String firstError(RunningShaper shaper) {
        RunningShaper.await("the failure logged", HostileUpstream.BOUND, () -> !shaper.logLines("upstream error").isEmpty());
        return shaper.logLines("upstream error").getFirst();
    }

    @Test
    void theSystemTrustAloneRefusesAPrivateCa() throws Exception {
        try (TlsUpstream up = new TlsUpstream(certs.keyStore("server"), null, "private");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0")) {
            assertEquals(502, get(shaper).statusCode());
            assertTrue(firstError(shaper).contains("certification path") && firstError(shaper).contains("-upstream-ca"), shaper.stdout());
        }
    }

    @Test
    void anAddedBundleIsTrusted() throws Exception {
        try (TlsUpstream up = new TlsUpstream(certs.keyStore("server"), null, "private");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-upstream-ca", certs.pem("ca").toString())) {
            HttpResponse<String> r = get(shaper);
            assertEquals(200, r.statusCode(), shaper.stdout());
            assertEquals("private", r.body());
        }
    }

    @Test
    void onlyTheBundleIsTrustedWithCaOnly() throws Exception {
        try (TlsUpstream up = new TlsUpstream(certs.keyStore("server"), null, "private")) {
            try (RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0",
                    "-upstream-ca", certs.pem("other-ca").toString(), "-upstream-ca-only")) {
                assertEquals(502, get(shaper).statusCode());
                assertTrue(firstError(shaper).contains("certification path") && firstError(shaper).contains("-upstream-ca"), shaper.stdout());
            }
            try (RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0",
                    "-upstream-ca", certs.pem("ca").toString(), "-upstream-ca-only=true")) {
                assertEquals(200, get(shaper).statusCode(), shaper.stdout());
            }
        }
    }

    @Test
    void theHostNameIsCheckedWithAnAddedBundleToo() throws Exception {
        try (TlsUpstream up = new TlsUpstream(certs.keyStore("wronghost"), null, "elsewhere");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-upstream-ca", certs.pem("ca").toString())) {
            assertEquals(502, get(shaper).statusCode());
            assertTrue(firstError(shaper).contains("127.0.0.1"), shaper.stdout());
        }
    }

    @Test
    void aFileThatCannotServeIsNamedWithItsFlagAtStartup() throws Exception {
        String missing = certs.dir.resolve("missing.pem").toString();
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> RunningShaper.start("-upstream", "https://127.0.0.1:1", "-upstream-ca", missing).close());
        assertTrue(e.getMessage().contains("-upstream-ca " + missing) && e.getMessage().contains("cannot read"), e.getMessage());

        // a key where a CA bundle belongs: named, and none of the key's bytes in the message
        String key = certs.key("client").toString();
        e = assertThrows(RuntimeException.class, () -> RunningShaper.start("-upstream", "https://127.0.0.1:1", "-upstream-ca", key).close());
        assertTrue(e.getMessage().contains("-upstream-ca " + key) && e.getMessage().contains("BEGIN CERTIFICATE"), e.getMessage());
        String keyBody = Files.readAllLines(certs.key("client")).get(1);
        assertFalse(e.getMessage().contains(keyBody), e.getMessage());

        e = assertThrows(RuntimeException.class, () -> RunningShaper.start("-upstream", "https://127.0.0.1:1", "-upstream-ca-only").close());
        assertTrue(e.getMessage().contains("-upstream-ca-only needs -upstream-ca"), e.getMessage());
    }
}
