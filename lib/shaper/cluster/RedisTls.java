package shaper.cluster;

import java.nio.file.Path;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;

import shaper.tls.TlsFiles;

/**
 * The TLS side of a {@code rediss://} link, built once at startup from PEM files: the trust
 * (the JDK's system trust store, or only the CA certificates of {@code -limiter-redis-ca}), the
 * optional client certificate and key for mutual TLS ({@code -limiter-redis-cert},
 * {@code -limiter-redis-key}: a PKCS#8 key, {@code BEGIN PRIVATE KEY}, RSA or EC), and the server
 * name check (the certificate must name the host or IP the URL gives, as HTTPS checks it). A file
 * that cannot be read or parsed is a {@link shaper.config.ConfigException} naming the flag.
 *
 * @param socketFactory TLS sockets with that trust and key
 * @param parameters    hostname verification on
 */
public record RedisTls(SSLSocketFactory socketFactory, SSLParameters parameters) {
    private static final TlsFiles.Flags FLAGS = new TlsFiles.Flags("-limiter-redis-ca", "-limiter-redis-cert", "-limiter-redis-key");

    /**
     * @param ca   PEM CA certificates to trust instead of the system store; null for the system store
     * @param cert PEM client certificate chain, or null (then {@code key} must be null too)
     * @param key  PEM PKCS#8 private key of {@code cert}
     */
    public static RedisTls of(Path ca, Path cert, Path key) {
        TlsFiles files = new TlsFiles(ca, TlsFiles.Trust.ONLY, cert, key, FLAGS);
        SSLParameters params = new SSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        return new RedisTls(files.context().getSocketFactory(), params);
    }
}
