package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.testing.TestCerts;
import shaper.testing.TlsUpstream;

/**
 * The upstream's TLS files reload with the configuration file: a CA bundle rotated in place (same
 * path, new content) is read again at the reload, so an upstream refused under the old bundle is
 * trusted under the new one, and a client certificate added by a reload is presented.
 */
class UpstreamTlsReloadTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static int status(LiveShaper s) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(s.uri("/v1/models")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void aBundleRotatedInPlaceIsReadAgainAtTheReload() throws Exception {
        TestCerts certs = TestCerts.generate();
        Path trust = certs.dir.resolve("trust.pem");
        Files.copy(certs.pem("other-ca"), trust);
        String yaml = "retry: 0\nupstream-ca: " + trust + "\nupstream-ca-only: true\n";
        try (TlsUpstream up = new TlsUpstream(certs.keyStore("server"), null, "rotated");
             LiveShaper s = LiveShaper.start(certs.dir.resolve("shaper.yaml"), "upstream: " + up.url() + "\n" + yaml)) {
            assertEquals(502, status(s), s.log());
            Files.copy(certs.pem("ca"), trust, StandardCopyOption.REPLACE_EXISTING);
            assertTrue(s.reloadWith("upstream: " + up.url() + "\n" + yaml + "# the CA rotated\n"), s.log());
            assertEquals(200, status(s), s.log());
        }
    }

    @Test
    void aClientCertificateAddedByAReloadIsPresented() throws Exception {
        TestCerts certs = TestCerts.generate();
        String yaml = "retry: 0\nupstream-ca: " + certs.pem("ca") + "\n";
        try (TlsUpstream up = new TlsUpstream(certs.keyStore("server"), TlsUpstream.trusting(certs, "ca"), "mutual");
             LiveShaper s = LiveShaper.start(certs.dir.resolve("shaper.yaml"), "upstream: " + up.url() + "\n" + yaml)) {
            assertEquals(502, status(s), s.log());
            assertTrue(s.reloadWith("upstream: " + up.url() + "\n" + yaml + "upstream-client-cert: " + certs.pem("client")
                    + "\nupstream-client-key: " + certs.key("client") + "\n"), s.log());
            assertEquals(200, status(s), s.log());
            assertEquals(java.util.List.of("CN=client"), up.clientSubjects());
        }
    }
}
