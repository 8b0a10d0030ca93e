package shaper.usage;

import java.io.ByteArrayOutputStream;
import java.util.Locale;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses a {@code gzip} or {@code deflate} body pushed to it in pieces, for a scanner that
 * sees the bytes the client gets while they are still compressed. Anything it cannot decode makes
 * it stop quietly: the usage is then estimated, the relayed bytes are never touched. Not
 * thread-safe; {@link #close} frees the native inflater.
 */
final class PushInflater implements AutoCloseable {
    /** A gzip header is 10 bytes plus optional fields; more than this is not a header we read. */
    private static final int MAX_HEADER = 64 * 1024;

    interface Sink {
        void accept(byte[] b, int off, int n);
    }

    private final boolean gzip;
    private final Inflater inflater;
    private final Sink sink;
    private final byte[] out = new byte[16 * 1024];
    private ByteArrayOutputStream header;
    private boolean failed;

    private PushInflater(boolean gzip, Sink sink) {
        this.gzip = gzip;
        this.inflater = new Inflater(gzip); // gzip: raw deflate after the header we parse ourselves
        this.sink = sink;
        this.header = gzip ? new ByteArrayOutputStream() : null;
    }

    /** An inflater for {@code contentEncoding}, or null when it is none of gzip, x-gzip, deflate. */
    static PushInflater of(String contentEncoding, Sink sink) {
        String e = contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
        return switch (e) {
            case "gzip", "x-gzip" -> new PushInflater(true, sink);
            case "deflate" -> new PushInflater(false, sink);
            default -> null;
        };
    }

    void feed(byte[] b, int off, int n) {
        if (failed || inflater.finished()) {
            return;
        }
        if (header != null) {
            header.write(b, off, n);
            byte[] h = header.toByteArray();
            int end = gzipHeaderEnd(h);
            if (end == -1) {
                failed = h.length > MAX_HEADER;
                return;
            }
            header = null;
            if (end < 0) {
                failed = true;
                return;
            }
            inflate(h, end, h.length - end);
            return;
        }
        inflate(b, off, n);
    }

    private void inflate(byte[] b, int off, int n) {
        inflater.setInput(b, off, n);
        try {
            while (!inflater.finished()) {
                int got = inflater.inflate(out);
                if (got > 0) {
                    sink.accept(out, 0, got);
                } else if (inflater.needsInput() || inflater.needsDictionary()) {
                    return;
                }
            }
        } catch (DataFormatException e) {
            failed = true;
        }
    }

    /** Where the deflate data starts; -1 when more bytes are needed; -2 when it is not a gzip header. */
    static int gzipHeaderEnd(byte[] h) {
        if (h.length < 10) {
            return -1;
        }
        if ((h[0] & 0xFF) != 0x1F || (h[1] & 0xFF) != 0x8B || h[2] != 8) {
            return -2;
        }
        int flags = h[3] & 0xFF;
        int i = 10;
        if ((flags & 4) != 0) {
            if (h.length < i + 2) {
                return -1;
            }
            i += 2 + ((h[i] & 0xFF) | (h[i + 1] & 0xFF) << 8);
        }
        for (int bit : new int[] {8, 16}) {
            if ((flags & bit) != 0) {
                while (i < h.length && h[i] != 0) {
                    i++;
                }
                if (i >= h.length) {
                    return -1;
                }
                i++;
            }
        }
        if ((flags & 2) != 0) {
            i += 2;
        }
        return i <= h.length ? i : -1;
    }

    @Override
    public void close() {
        inflater.end();
    }
}
