package shaper.proxy.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import shaper.auth.ProxyCredentials;

/**
 * A forward proxy the upstream connections go through (a corporate network's egress): an HTTP
 * proxy asked with {@code CONNECT host:port} (RFC 9110 section 9.3.6), or a SOCKS5 proxy (RFC 1928,
 * the host name resolved by the proxy). With credentials ({@code -upstream-proxy-auth}) a
 * {@code CONNECT} carries {@code Proxy-Authorization: Basic}, and SOCKS5 offers the
 * username/password method of RFC 1929 besides none. Either way the proxy only carries
 * bytes: TLS to an {@code https} upstream runs end to end inside the tunnel, host name checked as
 * without a proxy, and plain HTTP goes through the same kind of tunnel.
 *
 * @param kind how it is spoken to
 * @param host its host
 * @param port its port
 * @param credentials what it is logged in with, or null for none
 */
public record EgressProxy(Kind kind, String host, int port, ProxyCredentials credentials) {
    /** How the proxy is asked for a tunnel. */
    public enum Kind {
        HTTP, SOCKS5
    }

    /**
     * Parses {@code http://host[:port]} (port 80 by default; 3128 is only a habit) or
     * {@code socks5://host[:port]} (1080), with no path, query or credentials.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static EgressProxy parse(String url) {
        URI u;
        try {
            u = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a URL");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        Kind kind = switch (scheme) {
            case "http" -> Kind.HTTP;
            case "socks5", "socks5h" -> Kind.SOCKS5;
            default -> throw new IllegalArgumentException("scheme " + (scheme.isEmpty() ? "missing" : scheme)
                    + " (expected: http:// or socks5://)");
        };
        if (u.getRawUserInfo() != null) {
            throw new IllegalArgumentException("credentials in the URL are not accepted (they would show in argv and logs)");
        }
        if (u.getHost() == null || (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/"))
                || u.getRawQuery() != null) {
            throw new IllegalArgumentException("expected scheme://host[:port] and nothing more");
        }
        int port = u.getPort() >= 0 ? u.getPort() : (kind == Kind.HTTP ? 80 : 1080);
        return new EgressProxy(kind, u.getHost(), port, null);
    }

    /** The same proxy, logged in with {@code login}. */
    public EgressProxy withCredentials(ProxyCredentials login) {
        return new EgressProxy(kind, host, port, login);
    }

    /** The proxy as a log line or an error names it (it holds no secret). */
    public String display() {
        return (kind == Kind.HTTP ? "http" : "socks5") + "://" + host + ":" + port;
    }

    /**
     * Asks the proxy, on {@code s} (connected to it), for a tunnel to {@code target}; on return the
     * socket carries bytes to and from the target.
     *
     * @throws IOException naming the proxy when it refuses or breaks off
     */
    void tunnel(Socket s, UpstreamAddress target) throws IOException {
        if (kind == Kind.HTTP) {
            connect(s, target);
        } else {
            socks5(s, target);
        }
    }

    private void connect(Socket s, UpstreamAddress target) throws IOException {
        String authority = (target.host().indexOf(':') >= 0 ? "[" + target.host() + "]" : target.host()) + ":" + target.port();
        OutputStream out = s.getOutputStream();
        String login = credentials == null ? "" : "Proxy-Authorization: " + credentials.basic() + "\r\n";
        out.write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n" + login + "\r\n")
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
        // the tunnel's first bytes come only after ours (a TLS hello or the request): nothing is read past the head
        ResponseHead head = ResponseHead.read(new WireInput(new OneByteAtATime(s.getInputStream())));
        int code = head.status().code();
        if (code < 200 || code > 299) {
            throw new IOException("egress proxy " + display() + " refused CONNECT " + authority + ": " + code
                    + (code != 407 ? "" : credentials == null ? " (it wants credentials: give -upstream-proxy-auth)"
                    : " (it refused the credentials of -upstream-proxy-auth)"));
        }
    }

    private void socks5(Socket s, UpstreamAddress target) throws IOException {
        OutputStream out = s.getOutputStream();
        InputStream in = s.getInputStream();
        // version 5, then the methods offered: none, and username/password (2) when there are credentials
        out.write(credentials == null ? new byte[] {5, 1, 0} : new byte[] {5, 2, 0, 2});
        out.flush();
        byte[] chosen = in.readNBytes(2);
        if (chosen.length == 2 && chosen[0] == 5 && chosen[1] == 2 && credentials != null) {
            login(s);
        } else if (chosen.length < 2 || chosen[0] != 5 || chosen[1] != 0) {
            throw new IOException("egress proxy " + display() + " accepts no SOCKS5 connection "
                    + (credentials == null ? "without credentials (give -upstream-proxy-auth)" : "with the methods offered"));
        }
        byte[] name = target.host().getBytes(StandardCharsets.US_ASCII);
        if (name.length > 255) {
            throw new IOException("upstream host name too long for SOCKS5");
        }
        byte[] request = new byte[7 + name.length];
        request[0] = 5;
        request[1] = 1; // CONNECT
        request[3] = 3; // a domain name: the proxy resolves it, as it would for an HTTP proxy
        request[4] = (byte) name.length;
        System.arraycopy(name, 0, request, 5, name.length);
        request[5 + name.length] = (byte) (target.port() >> 8);
        request[6 + name.length] = (byte) target.port();
        out.write(request);
        out.flush();
        byte[] reply = in.readNBytes(4);
        if (reply.length < 4 || reply[0] != 5) {
            throw new IOException("egress proxy " + display() + " broke off the SOCKS5 handshake");
        }
        if (reply[1] != 0) {
            throw new IOException("egress proxy " + display() + " refused the SOCKS5 CONNECT to " + target.host() + ":" + target.port()
                    + " (reply " + reply[1] + ")");
        }
        int rest = switch (reply[3]) {
            case 1 -> 4;
            case 4 -> 16;
            case 3 -> in.read();
            default -> throw new IOException("egress proxy " + display() + " sent a SOCKS5 reply of unknown address type");
        };
        if (rest < 0 || in.readNBytes(rest + 2).length != rest + 2) {
            throw new IOException("egress proxy " + display() + " broke off the SOCKS5 handshake");
        }
    }

    /** RFC 1929: version 1, the user and the password each with a one-byte length; status 0 is success. */
    private void login(Socket s) throws IOException {
        byte[] user = credentials.user().getBytes(StandardCharsets.UTF_8);
        byte[] password = credentials.password().getBytes(StandardCharsets.UTF_8);
        if (user.length > 255 || password.length > 255) {
            throw new IOException("-upstream-proxy-auth: a SOCKS5 user and password are at most 255 bytes each");
        }
        java.io.ByteArrayOutputStream m = new java.io.ByteArrayOutputStream();
        m.write(1);
        m.write(user.length);
        m.write(user, 0, user.length);
        m.write(password.length);
        m.write(password, 0, password.length);
        s.getOutputStream().write(m.toByteArray());
        s.getOutputStream().flush();
        byte[] status = s.getInputStream().readNBytes(2);
        if (status.length < 2 || status[1] != 0) {
            throw new IOException("egress proxy " + display() + " refused the credentials of -upstream-proxy-auth (SOCKS5)");
        }
    }

    /** Reads byte by byte, so a CONNECT reply's head is read without taking a byte of the tunnel behind it. */
    private static final class OneByteAtATime extends InputStream {
        private final InputStream in;

        OneByteAtATime(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int c = in.read();
            if (c < 0) {
                return -1;
            }
            b[off] = (byte) c;
            return 1;
        }
    }
}
