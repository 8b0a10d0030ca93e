package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * SOCKS5 with a user and password (RFC 1929) from {@code -upstream-proxy-auth}: a SOCKS5 listener
 * written here (dante checks passwords against system accounts, which a test must not create)
 * that accepts only the username/password method checks the bytes the proxy sends and relays the
 * tunnel to the upstream; a wrong password is refused and named.
 */
class Socks5LoginTest {
    /** A one-connection-at-a-time SOCKS5 server on loopback demanding {@code user}/{@code password}; records what it was sent. */
    private static final class LoginSocks implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        final List<String> logins = new CopyOnWriteArrayList<>();
        private final String password;

        LoginSocks(String password) throws IOException {
            this.password = password;
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        Thread.ofVirtual().start(() -> serve(s));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        private void serve(Socket client) {
            try (client) {
                client.setSoTimeout(30_000);
                InputStream in = client.getInputStream();
                OutputStream out = client.getOutputStream();
                byte[] greeting = in.readNBytes(2);
                byte[] methods = in.readNBytes(greeting[1]);
                boolean offered = new String(methods, StandardCharsets.ISO_8859_1).indexOf(2) >= 0;
                out.write(new byte[] {5, offered ? (byte) 2 : (byte) 0xFF});
                if (!offered) {
                    return;
                }
                in.read(); // subnegotiation version 1
                String user = new String(in.readNBytes(in.read()), StandardCharsets.UTF_8);
                String pass = new String(in.readNBytes(in.read()), StandardCharsets.UTF_8);
                logins.add(user + ":" + pass);
                boolean ok = pass.equals(password);
                out.write(new byte[] {1, ok ? (byte) 0 : (byte) 1});
                if (!ok) {
                    return;
                }
                byte[] head = in.readNBytes(5); // 5 1 0 3 len
                String host = new String(in.readNBytes(head[4]), StandardCharsets.US_ASCII);
                byte[] port = in.readNBytes(2);
                try (Socket up = new Socket(host, ((port[0] & 0xFF) << 8) | (port[1] & 0xFF))) {
                    out.write(new byte[] {5, 0, 0, 1, 127, 0, 0, 1, 0, 0});
                    out.flush();
                    Thread copy = Thread.ofVirtual().start(() -> {
                        try {
                            in.transferTo(up.getOutputStream());
                        } catch (IOException ignored) {
                            // the client went
                        }
                    });
                    up.getInputStream().transferTo(out);
                    copy.join(30_000);
                }
            } catch (IOException | InterruptedException | RuntimeException ignored) {
                // the connection ended
            }
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    @Test
    void theUserAndPasswordAreSentAndTheTunnelCarriesTheRequest() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("via socks login");
             LoginSocks socks = new LoginSocks("s0cks-pass");
             RunningShaper shaper = RunningShaper.withEnvironment(Map.of("SOCKS_LOGIN", "shaper:s0cks-pass"), "-upstream", up.url(),
                     "-retry", "0", "-upstream-proxy", "socks5://127.0.0.1:" + socks.port(), "-upstream-proxy-auth", "env:SOCKS_LOGIN")) {
            var r = UpstreamCaTest.get(shaper);
            assertEquals(200, r.statusCode(), shaper.stdout());
            assertEquals("via socks login", r.body());
            assertEquals(List.of("shaper:s0cks-pass"), socks.logins);
        }
    }

    @Test
    void aRefusedPasswordIsNamed() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("never");
             LoginSocks socks = new LoginSocks("s0cks-pass");
             RunningShaper shaper = RunningShaper.withEnvironment(Map.of("SOCKS_LOGIN", "shaper:wrong"), "-upstream", up.url(),
                     "-retry", "0", "-upstream-proxy", "socks5://127.0.0.1:" + socks.port(), "-upstream-proxy-auth", "env:SOCKS_LOGIN")) {
            assertEquals(502, UpstreamCaTest.get(shaper).statusCode());
            String error = UpstreamCaTest.firstError(shaper);
            assertTrue(error.contains("refused the credentials of -upstream-proxy-auth (SOCKS5)"), error);
            assertEquals(0, up.requests().size());
        }
    }
}
