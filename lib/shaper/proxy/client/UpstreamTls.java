package shaper.proxy.client;

import java.io.IOException;
import java.net.Socket;
import java.util.Arrays;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

import shaper.tls.TlsFiles;

/**
 * TLS over a connected upstream socket, the one way the proxy speaks it: host name verified, ALPN
 * {@code http/1.1}, handshake done; with the JDK's default trust, or the trust and client key of
 * {@code -upstream-ca}, {@code -upstream-ca-only}, {@code -upstream-client-cert} and
 * {@code -upstream-client-key}. Equal instances come from the same files with the same content,
 * which is how a reload tells whether an upstream's pools can stay.
 *
 * @param factory null for the JDK's default factory, read when used (tests may change the default)
 * @param digest  what the files held ({@link TlsFiles#digest()}); empty for {@link #SYSTEM}
 * @param watch   without a client certificate of our own, notes an upstream that asked for one; else null
 */
public record UpstreamTls(SSLSocketFactory factory, byte[] digest, CertificateWatch watch) {
    /** No file given: the JDK's default context (its system trust, no client certificate). */
    public static final UpstreamTls SYSTEM = new UpstreamTls(null, new byte[0], null);

    /** The context of {@code files}, read now; {@link #SYSTEM} when none is given. */
    public static UpstreamTls of(TlsFiles files) {
        if (!files.any()) {
            return SYSTEM;
        }
        KeyManager[] keys = files.keyManagers();
        CertificateWatch watch = keys == null ? new CertificateWatch() : null;
        SSLSocketFactory factory = files.context(keys == null ? new KeyManager[] {watch} : keys).getSocketFactory();
        return new UpstreamTls(factory, files.digest(), watch);
    }

    /** Whether the upstream behind {@code ssl} asked for a client certificate that this setup has none of; asked once per socket. */
    boolean certificateWanted(SSLSocket ssl) {
        return watch != null && watch.asked(ssl);
    }

    /** Layers TLS on {@code plain} (closed with it) and completes the handshake; the caller closes {@code plain} on failure. */
    public SSLSocket over(Socket plain, String host, int port) throws IOException {
        SSLSocketFactory f = factory != null ? factory : (SSLSocketFactory) SSLSocketFactory.getDefault();
        SSLSocket ssl = (SSLSocket) f.createSocket(plain, host, port, true);
        SSLParameters params = ssl.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        params.setApplicationProtocols(new String[] {"http/1.1"}); // an upgrade or a plain request: never h2
        ssl.setSSLParameters(params);
        ssl.startHandshake();
        return ssl;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UpstreamTls other && Arrays.equals(digest, other.digest) && (factory == null) == (other.factory == null);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(digest);
    }
}
