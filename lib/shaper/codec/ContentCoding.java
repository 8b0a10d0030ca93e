package shaper.codec;

import java.util.Locale;
import java.util.Optional;

/**
 * The content codings this proxy can undo, by their tokens in the IANA HTTP Content Coding
 * Registry (RFC 9110 §8.4.1, §16.6.1; {@code zstd} from RFC 9659). Tokens are case-insensitive.
 * {@code compress}/{@code x-compress} (LZW), {@code aes128gcm}, {@code exi}, {@code pack200-gzip},
 * {@code dcb}, {@code dcz} and anything unregistered are not decoded.
 */
public enum ContentCoding {
    /** No transformation (RFC 9110 §8.4.1): skipped wherever it appears. */
    IDENTITY("identity"),
    /** RFC 9110 §8.4.1.3; {@code x-gzip} is its registered alias. */
    GZIP("gzip"),
    /** RFC 9110 §8.4.1.2: zlib-wrapped per the RFC; raw DEFLATE is accepted too, as many clients send it. */
    DEFLATE("deflate"),
    /** Brotli, RFC 7932. */
    BROTLI("br"),
    /** Zstandard, RFC 8878 / RFC 9659. */
    ZSTD("zstd");

    private final String token;

    ContentCoding(String token) {
        this.token = token;
    }

    /** The registered token. */
    public String token() {
        return token;
    }

    /** The coding a token names, empty when it is not one this proxy decodes. */
    public static Optional<ContentCoding> of(String token) {
        String t = token.trim().toLowerCase(Locale.ROOT);
        if (t.equals("x-gzip")) {
            return Optional.of(GZIP);
        }
        for (ContentCoding c : values()) {
            if (c.token.equals(t)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
