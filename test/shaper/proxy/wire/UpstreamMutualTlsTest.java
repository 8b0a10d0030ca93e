package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.TestCerts;
import shaper.testing.TlsUpstream;

/**
 * Mutual TLS to the upstream ({@code -upstream-client-cert}, {@code -upstream-client-key}): an
 * upstream that demands a client certificate signed by the test CA accepts the proxy's and serves
 * two requests on the kept connection; without one it refuses the handshake, which the proxy
 * answers with a 502 and a log line saying what the upstream wanted; a key without its certificate,
 * or a file in the wrong format, stops the start naming the flag and the file, never the key.
 */
class UpstreamMutualTlsTest {
    private static TestCerts certs;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certs = TestCerts.generate();
    }

    private static TlsUpstream demanding() throws Exception {
        return new TlsUpstream(certs.keyStore("server"), TlsUpstream.trusting(certs, "ca"), "mutual");
    }

    @Test
    void theRightClientCertificateIsAccepted() throws Exception {
        try (TlsUpstream up = demanding();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-upstream-ca", certs.pem("ca").toString(),
                     "-upstream-client-cert", certs.pem("client").toString(), "-upstream-client-key", certs.key("client").toString())) {
            HttpResponse<String> r = UpstreamCaTest.get(shaper);
            assertEquals(200, r.statusCode(), shaper.stdout());
            assertEquals("mutual", r.body());
            assertEquals(200, UpstreamCaTest.get(shaper).statusCode());
            assertEquals(List.of("CN=client"), up.clientSubjects(), "one handshake, with the client certificate; the second request reused it");
        }
    }

    @Test
    void withoutAClientCertificateTheUpstreamRefusesAndTheLogSaysWhy() throws Exception {
        try (TlsUpstream up = demanding();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-upstream-ca", certs.pem("ca").toString())) {
            assertEquals(502, UpstreamCaTest.get(shaper).statusCode());
            String error = UpstreamCaTest.firstError(shaper);
            assertTrue(error.contains("-upstream-client-cert"), error);
            assertEquals(List.of(), up.clientSubjects());
        }
    }

    @Test
    void aCertificateWithoutItsKeyOrAKeyInAnotherFormatStopsTheStart() throws Exception {
        RuntimeException e = assertThrows(RuntimeException.class, () -> RunningShaper.start("-upstream", "https://127.0.0.1:1",
                "-upstream-client-cert", certs.pem("client").toString()).close());
        assertTrue(e.getMessage().contains("-upstream-client-cert and -upstream-client-key go together"), e.getMessage());

        // the certificate given as the key: named, with what is accepted
        String notAKey = certs.pem("client").toString();
        e = assertThrows(RuntimeException.class, () -> RunningShaper.start("-upstream", "https://127.0.0.1:1",
                "-upstream-client-cert", certs.pem("client").toString(), "-upstream-client-key", notAKey).close());
        assertTrue(e.getMessage().contains("-upstream-client-key " + notAKey) && e.getMessage().contains("PKCS#8"), e.getMessage());

        // the key given as the certificate: its bytes never reach the message
        String key = certs.key("client").toString();
        e = assertThrows(RuntimeException.class, () -> RunningShaper.start("-upstream", "https://127.0.0.1:1",
                "-upstream-client-cert", key, "-upstream-client-key", key).close());
        assertTrue(e.getMessage().contains("-upstream-client-cert " + key), e.getMessage());
        for (String line : Files.readAllLines(certs.key("client"))) {
            if (!line.startsWith("-----")) {
                assertFalse(e.getMessage().contains(line), "no key bytes in: " + e.getMessage());
            }
        }
    }
}
