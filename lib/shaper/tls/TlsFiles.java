package shaper.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import shaper.config.ConfigException;

/**
 * The PEM files of one TLS client and the flags that named them; {@link #context()} reads them.
 *
 * @param ca    PEM CA certificates, or null for the system trust alone
 * @param trust whether {@code ca} is added to the system trust or replaces it (ignored without {@code ca})
 * @param cert  PEM client certificate chain for mutual TLS, or null; set exactly when {@code key} is
 * @param key   its unencrypted PKCS#8 PEM key
 * @param flags the flag names, for messages
 */
public record TlsFiles(Path ca, Trust trust, Path cert, Path key, Flags flags) {
    /**
     * What a CA bundle does to the system trust (the JDK's {@code cacerts}, or {@code javax.net.ssl.trustStore}):
     * {@code ADDED} trusts its CAs besides the system's (a corporate CA that re-signs traffic), {@code ONLY}
     * trusts nothing else (a private upstream whose certificates no public CA signs).
     */
    public enum Trust { ADDED, ONLY }

    /** The flag names errors cite. */
    public record Flags(String ca, String cert, String key) {
    }

    public TlsFiles {
        Objects.requireNonNull(trust, "trust");
        Objects.requireNonNull(flags, "flags");
        if ((cert == null) != (key == null)) {
            throw new ConfigException(flags.cert() + " and " + flags.key() + " go together (mutual TLS needs both)");
        }
    }

    /** Whether any file is given (otherwise the JDK's default context serves). */
    public boolean any() {
        return ca != null || cert != null;
    }

    /** A TLS context with this trust and client key, the files read now. */
    public SSLContext context() {
        return context(keyManagers());
    }

    /** A TLS context with this trust and {@code keys} (null: no client certificate), the CA file read now. */
    public SSLContext context(KeyManager[] keys) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(keys, trustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigException("TLS setup from " + describe() + " failed: " + e.getMessage());
        }
    }

    /** The client certificate and key as key managers, read now; null when there is none. */
    public KeyManager[] keyManagers() {
        if (cert == null) {
            return null;
        }
        try {
            KeyStore keys = emptyStore();
            char[] none = new char[0];
            keys.setKeyEntry("client", PemFiles.privateKey(key, flags.key()), none,
                    PemFiles.certificates(cert, flags.cert()).toArray(Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, none);
            return kmf.getKeyManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new ConfigException("TLS setup from " + describe() + " failed: " + e.getMessage());
        }
    }

    /**
     * A SHA-256 over the files' bytes: equal exactly when a reload finds the same files with the same
     * content, so a rotated certificate is picked up by a reload even when its path stayed.
     */
    public byte[] digest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(trust.name().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            add(sha, ca, flags.ca());
            add(sha, cert, flags.cert());
            add(sha, key, flags.key());
            return sha.digest();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static void add(MessageDigest sha, Path file, String flag) {
        sha.update((byte) 0); // a separator: the same bytes in another file are another setup
        if (file != null) {
            sha.update(PemFiles.read(file, flag));
        }
    }

    private TrustManager[] trustManagers() throws GeneralSecurityException, IOException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        if (ca == null) {
            tmf.init((KeyStore) null);
            return tmf.getTrustManagers();
        }
        KeyStore store = emptyStore();
        int n = 0;
        if (trust == Trust.ADDED) {
            for (X509Certificate system : systemIssuers()) {
                store.setCertificateEntry("system" + n++, system);
            }
        }
        List<X509Certificate> bundle = PemFiles.certificates(ca, flags.ca());
        for (X509Certificate c : bundle) {
            store.setCertificateEntry("bundle" + n++, c);
        }
        tmf.init(store);
        return tmf.getTrustManagers();
    }

    /** The CAs the system trust accepts, as the JDK's default trust manager lists them. */
    private static List<X509Certificate> systemIssuers() throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init((KeyStore) null);
        for (TrustManager tm : tmf.getTrustManagers()) {
            if (tm instanceof X509TrustManager x) {
                return List.of(x.getAcceptedIssuers());
            }
        }
        return List.of();
    }

    private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        return store;
    }

    private String describe() {
        StringBuilder b = new StringBuilder();
        if (ca != null) {
            b.append(flags.ca()).append(' ').append(ca);
        }
        if (cert != null) {
            b.append(b.isEmpty() ? "" : ", ").append(flags.cert()).append(' ').append(cert);
        }
        return b.toString();
    }
}
