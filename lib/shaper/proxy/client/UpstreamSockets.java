package shaper.proxy.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.channels.SocketChannel;
import java.time.Duration;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * Opens a connection to an upstream, plain or TLS (host name verified, ALPN {@code http/1.1}), with
 * TCP_NODELAY, on a {@link SocketChannel}: the one way the proxy dials an upstream, for plain
 * requests ({@link UpstreamConnection}) and for upgrade tunnels alike.
 */
public final class UpstreamSockets {
    private UpstreamSockets() {
    }

    /** A connected socket (TLS, or the channel's own) and the channel under it. */
    public record Opened(SocketChannel channel, Socket socket) {
    }

    /** Connects to {@code base}'s host and port (80/443 by default) within {@code connectTimeout}, and for {@code https} completes the handshake. */
    public static Opened open(URI base, Duration connectTimeout) throws IOException {
        return open(UpstreamAddress.of(base), connectTimeout);
    }

    static Opened open(UpstreamAddress address, Duration connectTimeout) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Socket plain = channel.socket();
            plain.connect(new InetSocketAddress(address.host(), address.port()), (int) Math.max(1, Math.min(Integer.MAX_VALUE, connectTimeout.toMillis())));
            if (!address.tls()) {
                return new Opened(channel, plain);
            }
            SSLSocket ssl = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                    .createSocket(plain, address.host(), address.port(), true);
            SSLParameters params = ssl.getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            params.setApplicationProtocols(new String[] {"http/1.1"});
            ssl.setSSLParameters(params);
            ssl.startHandshake();
            return new Opened(channel, ssl);
        } catch (IOException | RuntimeException e) {
            try {
                channel.close();
            } catch (IOException ignored) {
                e.addSuppressed(ignored);
            }
            throw e;
        }
    }
}
