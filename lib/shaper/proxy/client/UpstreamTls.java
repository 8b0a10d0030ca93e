package shaper.proxy.client;

import java.io.IOException;
import java.net.Socket;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/** TLS over a connected upstream socket, the one way the proxy speaks it: host name verified, ALPN {@code http/1.1}, handshake done. */
public final class UpstreamTls {
    private UpstreamTls() {
    }

    /** Layers TLS on {@code plain} (closed with it) and completes the handshake; the caller closes {@code plain} on failure. */
    public static SSLSocket over(Socket plain, String host, int port) throws IOException {
        SSLSocket ssl = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(plain, host, port, true);
        SSLParameters params = ssl.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        params.setApplicationProtocols(new String[] {"http/1.1"}); // an upgrade or a plain request: never h2
        ssl.setSSLParameters(params);
        ssl.startHandshake();
        return ssl;
    }
}
