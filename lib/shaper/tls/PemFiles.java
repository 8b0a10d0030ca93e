package shaper.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import shaper.config.ConfigException;

/**
 * Certificates and a private key from PEM text (RFC 7468). Every error names the flag and the
 * file; a key's content is never put in a message. Files over {@value #MAX_BYTES} bytes are refused
 * rather than read whole: a PEM bundle with every public root CA is about 220 KiB.
 */
public final class PemFiles {
    static final int MAX_BYTES = 4 * 1024 * 1024;
    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]+)-----END \\1-----");

    private PemFiles() {
    }

    /**
     * Every {@code BEGIN CERTIFICATE} block of {@code file}, in order; at least one.
     *
     * @param flag the flag that named the file, for messages
     */
    public static List<X509Certificate> certificates(Path file, String flag) {
        List<X509Certificate> out = new ArrayList<>();
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            for (byte[] der : blocks(file, flag, "CERTIFICATE")) {
                out.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(der)));
            }
        } catch (GeneralSecurityException e) {
            throw new ConfigException(flag + " " + file + ": not a valid PEM certificate (" + e.getMessage() + ")");
        }
        if (out.isEmpty()) {
            throw new ConfigException(flag + " " + file + ": no \"BEGIN CERTIFICATE\" block found (a PEM file is expected)");
        }
        return out;
    }

    /**
     * The one unencrypted PKCS#8 key ({@code BEGIN PRIVATE KEY}) of {@code file}: RSA, EC or Ed25519.
     * An encrypted or a traditional OpenSSL key ({@code BEGIN RSA PRIVATE KEY}, {@code BEGIN EC PRIVATE KEY})
     * is refused with the command that converts it.
     */
    public static PrivateKey privateKey(Path file, String flag) {
        List<byte[]> der = blocks(file, flag, "PRIVATE KEY");
        if (der.size() != 1) {
            throw new ConfigException(flag + " " + file + ": expected one \"BEGIN PRIVATE KEY\" block (unencrypted PKCS#8);"
                    + " convert another format with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
        }
        for (String alg : List.of("RSA", "EC", "Ed25519")) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(der.getFirst()));
            } catch (GeneralSecurityException e) {
                // not this algorithm: try the next one
            }
        }
        throw new ConfigException(flag + " " + file + ": not an RSA, EC or Ed25519 PKCS#8 key");
    }

    /** The raw bytes of {@code file}, bounded; what a reload compares to see whether the file changed. */
    static byte[] read(Path file, String flag) {
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new ConfigException(flag + " " + file + ": larger than " + MAX_BYTES + " bytes (a PEM file is expected)");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ConfigException(flag + " " + file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static List<byte[]> blocks(Path file, String flag, String type) {
        String text = new String(read(file, flag), StandardCharsets.US_ASCII);
        List<byte[]> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
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
