package shaper.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import shaper.testing.EgressDaemon;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;

/**
 * An {@code https://} upstream: the request and its streamed answer pass through a verified TLS
 * connection that is kept for the next request, and a certificate issued for another name is
 * refused (a 502, logged as a failed TLS handshake) even though the test trusts it.
 *
 * <p>The certificates are made here with {@code keytool} (the running JDK's): one for IP 127.0.0.1,
 * one for {@code elsewhere.invalid}. The proxy runs in this JVM and opens TLS connections with the
 * default {@link SSLContext}, so the class makes one that trusts both certificates the default while
 * it runs and puts the previous one back afterwards (test classes run one at a time).
 */
class UpstreamTlsTest {
    private static final String PASSWORD = "changeit";
    private static final Duration BOUND = Duration.ofSeconds(30);

    private static Path dir;
    private static SSLContext previousDefault;
    private static KeyStore forLoopback;
    private static KeyStore forElsewhere;

    @BeforeAll
    static void certificates() throws Exception {
        dir = Files.createTempDirectory("shaper-tls-upstream");
        forLoopback = keyPair("loopback", "IP:127.0.0.1");
        forElsewhere = keyPair("elsewhere", "DNS:elsewhere.invalid");
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("loopback", forLoopback.getCertificate("upstream"));
        trust.setCertificateEntry("elsewhere", forElsewhere.getCertificate("upstream"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext trusting = SSLContext.getInstance("TLS");
        trusting.init(null, tmf.getTrustManagers(), null);
        previousDefault = SSLContext.getDefault();
        SSLContext.setDefault(trusting);
    }

    @AfterAll
    static void restore() throws IOException {
        if (previousDefault != null) {
            SSLContext.setDefault(previousDefault);
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** A PKCS#12 key store holding a fresh EC key pair and its self-signed certificate for {@code san}, alias {@code upstream}. */
    private static KeyStore keyPair(String name, String san) throws Exception {
        Path store = dir.resolve(name + ".p12");
        Path log = dir.resolve(name + ".log");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "upstream", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + name, "-ext", "SAN=" + san, "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD, "-noprompt")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("keytool took over 60 s");
        }
        if (p.exitValue() != 0) {
            throw new IOException("keytool failed: " + Files.readString(log));
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }

    /** An HTTPS upstream on loopback presenting {@code identity}; answers as {@code handler} says. */
    private static HttpsServer upstream(KeyStore identity, com.sun.net.httpserver.HttpHandler handler) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(identity, PASSWORD.toCharArray());
        SSLContext serving = SSLContext.getInstance("TLS");
        serving.init(kmf.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serving));
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", handler);
        server.start();
        return server;
    }

    private static String url(HttpsServer server) {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    private static boolean seen(CountDownLatch latch) throws IOException {
        try {
            return latch.await(BOUND.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted");
        }
    }

    @Test
    void theRequestAndItsStreamedAnswerCrossAVerifiedConnectionThatIsKept() throws Exception {
        CountDownLatch firstEventSeen = new CountDownLatch(1);
        List<Integer> proxyPorts = new CopyOnWriteArrayList<>();
        HttpsServer server = upstream(forLoopback, ex -> {
            proxyPorts.add(ex.getRemoteAddress().getPort());
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/event-stream");
            ex.sendResponseHeaders(200, 0); // chunked
            try (OutputStream out = ex.getResponseBody()) {
                out.write(("data: echo " + body + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                // the second event only after the client saw the first: a relay that buffered would never finish
                if (proxyPorts.size() == 1 && !seen(firstEventSeen)) {
                    throw new IOException("the client never saw the first event");
                }
                out.write("data: done\n\n".getBytes(StandardCharsets.UTF_8));
            }
        });
        try (RunningShaper shaper = RunningShaper.start("-upstream", url(server), "-retry", "0");
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nhello tls");
            RawHttp.Head head = raw.readHead();
            assertEquals(200, head.status());
            StringBuilder seen = new StringBuilder();
            String chunk;
            while ((chunk = raw.readChunk()) != null) {
                seen.append(chunk);
                if (seen.toString().contains("data: echo hello tls\n\n")) {
                    firstEventSeen.countDown();
                }
            }
            assertEquals("data: echo hello tls\n\ndata: done\n\n", seen.toString());

            raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nagain");
            assertEquals(200, raw.readHead().status());
            StringBuilder second = new StringBuilder();
            while ((chunk = raw.readChunk()) != null) {
                second.append(chunk);
            }
            assertEquals("data: echo again\n\ndata: done\n\n", second.toString());
            assertEquals(2, proxyPorts.size());
            assertEquals(proxyPorts.get(0), proxyPorts.get(1), "the second request went out on the kept TLS connection");
            assertEquals(List.of(), shaper.logLines("upstream error"), shaper.stdout());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aCertificateForAnotherNameIsRefusedWithA502() throws Exception {
        List<String> reached = new CopyOnWriteArrayList<>();
        HttpsServer server = upstream(forElsewhere, ex -> {
            reached.add(ex.getRequestURI().toString());
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        try (RunningShaper shaper = RunningShaper.start("-upstream", url(server), "-retry", "0");
             RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(502, raw.readHead().status());
            RunningShaper.await("the failure logged", BOUND, () -> !shaper.logLines("upstream error").isEmpty());
            String line = shaper.logLines("upstream error").getFirst();
            assertTrue(line.contains("TLS handshake failed"), line);
            assertEquals(List.of(), reached, "no request crosses a connection to the wrong host");
        } finally {
            server.stop(0);
        }
    }

    /** TLS runs end to end inside the egress proxy's tunnel: the certificate is checked against the upstream, as without one. */
    @Test
    void aTlsUpstreamIsReachedThroughSquidsConnectTunnelAndDantesSocks5() throws Exception {
        HttpsServer server = upstream(forLoopback, ex -> {
            byte[] body = "tunnelled".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        try (EgressDaemon squid = EgressDaemon.squid("");
             EgressDaemon dante = EgressDaemon.dante()) {
            for (String proxy : List.of("http://127.0.0.1:" + squid.port(), "socks5://127.0.0.1:" + dante.port())) {
                try (RunningShaper shaper = RunningShaper.start("-upstream", url(server), "-retry", "0", "-upstream-proxy", proxy);
                     RawHttp raw = new RawHttp(shaper.port())) {
                    raw.send("GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n");
                    RawHttp.Head head = raw.readHead();
                    assertEquals(200, head.status(), proxy + ": " + shaper.stdout());
                    assertEquals("tunnelled", raw.readBytes(Integer.parseInt(head.header("Content-Length"))));
                }
            }
            RunningShaper.await("squid logged the tunnel", BOUND,
                    () -> squid.log().contains("CONNECT 127.0.0.1:" + server.getAddress().getPort()));
        } finally {
            server.stop(0);
        }
    }
}
