package shaper.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;

import com.aayushatharva.brotli4j.Brotli4jLoader;
import com.aayushatharva.brotli4j.encoder.Encoder;
import com.github.luben.zstd.Zstd;

/**
 * Test-side encoders for every content coding the proxy decodes: the JDK for gzip and deflate,
 * zstd-jni for zstd, brotli4j for br (the proxy's own brotli library only decodes).
 */
public final class Codings {
    private Codings() {
    }

    /** Encodes {@code plain} with one coding token ({@code gzip}, {@code x-gzip}, {@code deflate}, {@code deflate-raw}, {@code br}, {@code zstd}). */
    public static byte[] encode(String token, byte[] plain) {
        return switch (token) {
            case "gzip", "x-gzip" -> gzip(plain);
            case "deflate" -> deflate(plain, false);
            case "deflate-raw" -> deflate(plain, true);
            case "br" -> brotli(plain);
            case "zstd" -> Zstd.compress(plain, 3);
            default -> throw new IllegalArgumentException("no test encoder for " + token);
        };
    }

    public static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** zlib-wrapped (RFC 1950) or raw DEFLATE (RFC 1951). */
    public static byte[] deflate(byte[] plain, boolean raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, raw);
        try (DeflaterOutputStream d = new DeflaterOutputStream(out, deflater)) {
            d.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deflater.end();
        }
        return out.toByteArray();
    }

    public static byte[] brotli(byte[] plain) {
        Brotli4jLoader.ensureAvailability();
        try {
            return Encoder.compress(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] zstd(byte[] plain) {
        return Zstd.compress(plain, 3);
    }

    /** {@code n} zero bytes: what a decompression bomb expands to. */
    public static byte[] zeros(int n) {
        return new byte[n];
    }
}
