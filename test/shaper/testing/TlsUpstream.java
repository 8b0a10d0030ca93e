package shaper.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * An HTTPS upstream on a loopback port, built on the JDK's {@link SSLServerSocket} from key stores
 * openssl made ({@link TestCerts#keyStore}), never from the proxy's own PEM code: it presents a
 * server certificate, optionally demands a client certificate signed by a given CA
 * ({@code setNeedClientAuth(true)}), and answers every request head with {@code 200} and a fixed
 * body, keeping the connection. It records the subject of each client certificate it saw and each
 * handshake failure. Every read is bounded; {@link #close()} stops the accept loop and its connections.
 */
public final class TlsUpstream implements AutoCloseable {
    private static final int READ_BOUND_MS = 30_000;

    private final SSLServerSocket server;
    private final String body;
    private final List<String> clientSubjects = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final List<SSLSocket> open = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    /**
     * @param identity   the server's certificate and key (password {@code test})
     * @param clientCa   the CA a client certificate must chain to, or null to ask for none
     * @param body       what every answer carries
     */
    public TlsUpstream(KeyStore identity, KeyStore clientCa, String body) throws Exception {
        this.body = body;
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(identity, "test".toCharArray());
        TrustManagerFactory tmf = null;
        if (clientCa != null) {
            tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(clientCa);
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
        server = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        server.setNeedClientAuth(clientCa != null);
        acceptor = Thread.ofVirtual().name("tls-upstream-accept").start(this::acceptLoop);
    }

    /** A trust store holding {@code certs}' certificate {@code name} alone. */
    public static KeyStore trusting(TestCerts certs, String name) throws Exception {
        KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
        ks.load(null, null);
        ks.setCertificateEntry(name, certs.keyStore(name).getCertificate("1"));
        return ks;
    }

    public String url() {
        return "https://127.0.0.1:" + server.getLocalPort();
    }

    /** The subject of every client certificate presented, one per handshake that completed with one. */
    public List<String> clientSubjects() {
        return clientSubjects;
    }

    /** The message of every handshake that failed on this side. */
    public List<String> failures() {
        return failures;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                SSLSocket s = (SSLSocket) server.accept();
                open.add(s);
                Thread.ofVirtual().name("tls-upstream-conn").start(() -> serve(s));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(SSLSocket s) {
        try (s) {
            s.setSoTimeout(READ_BOUND_MS);
            try {
                s.startHandshake();
            } catch (IOException e) {
                failures.add(String.valueOf(e.getMessage()));
                return;
            }
            if (s.getNeedClientAuth()) { // else getPeerCertificates throws: no certificate was asked for
                clientSubjects.add(((java.security.cert.X509Certificate) s.getSession().getPeerCertificates()[0])
                        .getSubjectX500Principal().getName());
            }
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] answer = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length() + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.US_ASCII);
            while (readHead(in)) {
                out.write(answer);
                out.flush();
            }
        } catch (SocketTimeoutException e) {
            // an idle kept connection: done
        } catch (IOException e) {
            failures.add(String.valueOf(e.getMessage()));
        } finally {
            open.remove(s);
        }
    }

    /** Reads one request head (no body: the tests send none); false at end of stream. */
    private static boolean readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                return true;
            }
            if (n > 64 * 1024) {
                throw new IOException("request head over 64 KiB");
            }
        }
        return false;
    }

    @Override
    public void close() throws Exception {
        server.close();
        for (SSLSocket s : open) {
            s.close();
        }
        acceptor.join(READ_BOUND_MS);
    }
}
