package shaper.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import shaper.config.ConfigException;

/**
 * The TLS side of a {@code rediss://} link, built once at startup from PEM files: the trust
 * (the JDK's system trust store, or only the CA certificates of {@code -limiter-redis-ca}), the
 * optional client certificate and key for mutual TLS ({@code -limiter-redis-cert},
 * {@code -limiter-redis-key}: a PKCS#8 key, {@code BEGIN PRIVATE KEY}, RSA or EC), and the server
 * name check (the certificate must name the host or IP the URL gives, as HTTPS checks it). A file
 * that cannot be read or parsed is a {@link ConfigException} naming the flag.
 *
 * @param socketFactory TLS sockets with that trust and key
 * @param parameters    hostname verification on
 */
public record RedisTls(SSLSocketFactory socketFactory, SSLParameters parameters) {
    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]+)-----END \\1-----");

    /**
     * @param ca   PEM CA certificates to trust instead of the system store; null for the system store
     * @param cert PEM client certificate chain, or null (then {@code key} must be null too)
     * @param key  PEM PKCS#8 private key of {@code cert}
     */
    public static RedisTls of(Path ca, Path cert, Path key) {
        if ((cert == null) != (key == null)) {
            throw new ConfigException("-limiter-redis-cert and -limiter-redis-key go together (mutual TLS needs both)");
        }
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (ca == null) {
                tmf.init((KeyStore) null);
            } else {
                KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
                trust.load(null, null);
                List<X509Certificate> cas = certificates(ca, "-limiter-redis-ca");
                for (int i = 0; i < cas.size(); i++) {
                    trust.setCertificateEntry("ca" + i, cas.get(i));
                }
                tmf.init(trust);
            }
            KeyManagerFactory kmf = null;
            if (cert != null) {
                KeyStore keys = KeyStore.getInstance(KeyStore.getDefaultType());
                keys.load(null, null);
                char[] none = new char[0];
                keys.setKeyEntry("client", privateKey(key), none,
                        certificates(cert, "-limiter-redis-cert").toArray(Certificate[]::new));
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, none);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            SSLParameters params = new SSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            return new RedisTls(ctx.getSocketFactory(), params);
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigException("Redis TLS setup failed: " + e.getMessage());
        }
    }

    private static List<X509Certificate> certificates(Path file, String flag) {
        List<X509Certificate> out = new ArrayList<>();
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            for (byte[] der : blocks(file, flag, "CERTIFICATE")) {
                out.add((X509Certificate) cf.generateCertificate(new java.io.ByteArrayInputStream(der)));
            }
        } catch (GeneralSecurityException e) {
            throw new ConfigException(flag + " " + file + ": not a valid PEM certificate (" + e.getMessage() + ")");
        }
        if (out.isEmpty()) {
            throw new ConfigException(flag + " " + file + ": no \"BEGIN CERTIFICATE\" block found (a PEM file is expected)");
        }
        return out;
    }

    private static PrivateKey privateKey(Path file) {
        List<byte[]> der = blocks(file, "-limiter-redis-key", "PRIVATE KEY");
        if (der.size() != 1) {
            throw new ConfigException("-limiter-redis-key " + file + ": expected one \"BEGIN PRIVATE KEY\" block (PKCS#8);"
                    + " convert another format with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
        }
        for (String alg : List.of("RSA", "EC", "Ed25519")) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der.getFirst()));
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw new ConfigException("-limiter-redis-key " + file + ": not an RSA, EC or Ed25519 PKCS#8 key");
    }

    private static List<byte[]> blocks(Path file, String flag, String type) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new ConfigException(flag + " " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
        }
        List<byte[]> out = new ArrayList<>();
        Matcher m = PEM.matcher(text);
        while (m.find()) {
            if (m.group(1).equals(type)) {
                try {
                    out.add(Base64.getMimeDecoder().decode(m.group(2)));
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(flag + " " + file + ": broken base64 in a PEM block");
                }
            }
        }
        return out;
    }
}
