package shaper.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import org.brotli.dec.BrotliInputStream;

/**
 * Undoes a body's content codings with a bound on the decoded size, enforced in the read loop: a
 * decompression bomb stops one buffer past the limit, never after. Works on bodies already in
 * memory (the proxy reads a body only once it has buffered it). Stateless; every native or
 * inflater resource is released before a call returns.
 */
public final class BodyDecoder {
    /** RFC 9659 §3: a zstd Content-Encoding window never exceeds 8 MiB (2^23), so a larger one is refused unallocated. */
    static final int ZSTD_WINDOW_LOG_MAX = 23;
    private static final int BUFFER = 16 * 1024;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    private BodyDecoder() {
    }

    /**
     * The decoded body.
     *
     * @param raw     the body as received
     * @param codings its {@code Content-Encoding}; {@link ContentCodings#IDENTITY} returns {@code raw} itself
     * @param limit   the most decoded bytes accepted (the path's own bound, e.g. {@code -transcode-max-request-mb})
     * @throws CodingException.Unsupported before any decoding when a coding is not supported;
     *         {@link CodingException.TooLarge} past {@code limit}; {@link CodingException.Corrupt} for bad data
     */
    public static byte[] decode(byte[] raw, ContentCodings codings, long limit) throws CodingException {
        if (codings.isIdentity()) {
            if (raw.length > limit) {
                throw new CodingException.TooLarge(limit);
            }
            return raw;
        }
        long bound = Math.min(limit, MAX_ARRAY);
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(bound, Math.max(BUFFER, raw.length * 4L)));
        long total = read(raw, codings, bound, out);
        if (total > bound) {
            throw new CodingException.TooLarge(limit);
        }
        return out.toByteArray();
    }

    /**
     * The decoded size, counted without keeping the bytes, up to {@code cap}: what an estimate needs
     * when it only asks "at least this large?".
     *
     * @return the decoded size, or {@code cap} once it is reached (decoding stops there)
     */
    public static long decodedLength(byte[] raw, ContentCodings codings, long cap) throws CodingException {
        if (codings.isIdentity()) {
            return Math.min(raw.length, cap);
        }
        return Math.min(read(raw, codings, cap - 1, null), cap);
    }

    /** Reads the decoded stream into {@code out} (null: count only); stops once more than {@code bound} bytes came. */
    private static long read(byte[] raw, ContentCodings codings, long bound, ByteArrayOutputStream out) throws CodingException {
        String unsupported = codings.firstUnsupported();
        if (unsupported != null) {
            throw new CodingException.Unsupported(unsupported);
        }
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            InputStream in = new ByteArrayInputStream(raw);
            List<String> tokens = codings.tokens();
            for (int i = tokens.size() - 1; i >= 0; i--) { // the last coding applied is undone first
                in = open(ContentCoding.of(tokens.get(i)).orElseThrow(), in, opened);
            }
            byte[] buf = new byte[BUFFER];
            long total = 0;
            int n;
            while ((n = in.read(buf)) != -1) {
                total += n;
                if (total > bound) {
                    return total;
                }
                if (out != null) {
                    out.write(buf, 0, n);
                }
            }
            return total;
        } catch (IOException | RuntimeException e) {
            // the decoders report bad input as IOException, and some (brotli) as runtime exceptions
            throw new CodingException.Corrupt(codings.toString());
        } finally {
            for (int i = opened.size() - 1; i >= 0; i--) {
                try {
                    opened.get(i).close();
                } catch (Exception e) {
                    // releasing only
                }
            }
        }
    }

    private static InputStream open(ContentCoding coding, InputStream in, List<AutoCloseable> opened) throws IOException {
        return switch (coding) {
            case IDENTITY -> in;
            case GZIP -> new GZIPInputStream(in, BUFFER);
            case DEFLATE -> inflating(in, opened);
            case BROTLI -> new BrotliInputStream(in);
            case ZSTD -> {
                ZstdInputStreamNoFinalizer z = new ZstdInputStreamNoFinalizer(in);
                opened.add(z);
                z.setLongMax(ZSTD_WINDOW_LOG_MAX);
                yield z;
            }
        };
    }

    /**
     * {@code deflate} is zlib-wrapped (RFC 1950) by the RFC, but some clients send raw DEFLATE
     * (RFC 1951): a zlib header is two bytes whose big-endian value is a multiple of 31 with
     * compression method 8 and a window of at most 32 KiB, which raw data starts with only by chance.
     */
    private static InputStream inflating(InputStream in, List<AutoCloseable> opened) throws IOException {
        PushbackInputStream peek = new PushbackInputStream(in, 2);
        byte[] head = peek.readNBytes(2);
        peek.unread(head);
        boolean zlib = head.length == 2 && (head[0] & 0x0F) == 8 && (head[0] & 0xF0) <= 0x70
                && (((head[0] & 0xFF) << 8) | (head[1] & 0xFF)) % 31 == 0;
        Inflater inflater = new Inflater(!zlib);
        opened.add(inflater::end);
        return new InflaterInputStream(peek, inflater, BUFFER);
    }
}
