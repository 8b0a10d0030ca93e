package shaper.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made at test time with {@code openssl}: a test CA, a server certificate for
 * 127.0.0.1 and localhost, one for another host name, a client certificate, and a second CA that
 * signed nothing here. Keys are PKCS#8 PEM ({@code BEGIN PRIVATE KEY}); {@link #keyStore} gives a
 * certificate and its key as a JDK key store, for a TLS server made without the proxy's PEM code.
 */
public final class TestCerts {
    public final Path dir;

    private TestCerts(Path dir) {
        this.dir = dir;
    }

    public static TestCerts generate() throws Exception {
        TestCerts c = new TestCerts(Files.createTempDirectory("shaper-certs"));
        c.ca("ca");
        c.ca("other-ca");
        c.signed("server", "ca", "subjectAltName=IP:127.0.0.1,DNS:localhost");
        c.signed("wronghost", "ca", "subjectAltName=DNS:elsewhere.invalid");
        c.signed("client", "ca", "extendedKeyUsage=clientAuth");
        return c;
    }

    public Path pem(String name) {
        return dir.resolve(name + ".pem");
    }

    public Path key(String name) {
        return dir.resolve(name + ".key");
    }

    /** {@code redis-server} arguments serving TLS on {@code port} with {@code cert}, asking clients for a certificate or not. */
    public List<String> serverArgs(int port, String cert, boolean clientCerts) {
        return List.of("--port", "0", "--tls-port", Integer.toString(port), "--tls-cert-file", pem(cert).toString(),
                "--tls-key-file", key(cert).toString(), "--tls-ca-cert-file", pem("ca").toString(),
                "--tls-auth-clients", clientCerts ? "yes" : "no");
    }

    /** {@code name}'s certificate and key as a PKCS#12 store (password {@code test}, alias {@code 1}), made by openssl. */
    public java.security.KeyStore keyStore(String name) throws Exception {
        Path p12 = dir.resolve(name + ".p12");
        if (!Files.exists(p12)) {
            openssl("pkcs12", "-export", "-in", pem(name).toString(), "-inkey", key(name).toString(), "-out", p12.toString(),
                    "-passout", "pass:test", "-name", "1");
        }
        java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
        try (java.io.InputStream in = Files.newInputStream(p12)) {
            ks.load(in, "test".toCharArray());
        }
        return ks;
    }

    private void ca(String name) throws Exception {
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key(name).toString(), "-out", pem(name).toString(),
                "-days", "2", "-subj", "/CN=shaper test " + name);
    }

    private void signed(String name, String ca, String extension) throws Exception {
        Path csr = dir.resolve(name + ".csr");
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, extension + "\n");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key(name).toString(), "-out", csr.toString(), "-subj", "/CN=" + name);
        openssl("x509", "-req", "-in", csr.toString(), "-CA", pem(ca).toString(), "-CAkey", key(ca).toString(), "-CAcreateserial",
                "-out", pem(name).toString(), "-days", "2", "-extfile", ext.toString());
    }

    private void openssl(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("openssl"));
        argv.addAll(List.of(args));
        Path out = dir.resolve("openssl.log");
        Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("openssl " + args[0] + " took over 60 s");
        }
        if (p.exitValue() != 0) {
            throw new IOException("openssl " + String.join(" ", args) + " failed: " + Files.readString(out));
        }
    }
}
