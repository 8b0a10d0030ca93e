package shaper.usage;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A body stream that shows every byte it delivers to a reader (a {@link UsageScanner}, the relay's
 * early-error watch) as it goes: the relay reads and writes exactly as before; the reader only looks.
 * Belongs to the relaying thread.
 */
public final class ScannedStream extends FilterInputStream {
    /** What looks at the bytes: it must neither keep {@code b} nor change it. */
    @FunctionalInterface
    public interface Reader {
        void feed(byte[] b, int off, int n);
    }

    private final Reader scanner;

    public ScannedStream(InputStream in, Reader scanner) {
        super(in);
        this.scanner = scanner;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            scanner.feed(new byte[] {(byte) b}, 0, 1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            scanner.feed(b, off, n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // skipped bytes would be invisible to the scanner: read them instead
        byte[] buf = new byte[(int) Math.min(8192, Math.max(0, n))];
        long skipped = 0;
        while (skipped < n) {
            int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }
}
