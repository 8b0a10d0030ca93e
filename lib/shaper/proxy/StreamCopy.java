package shaper.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Copies a body from one side of the proxy to the other, reporting which side broke.
 *
 * <p>Flushing: after each read the copy flushes only when the source has nothing more buffered
 * ({@code available() == 0}), so an SSE event leaves the proxy the moment the upstream's bytes run
 * dry, while a fast bulk body is written in large pieces. A body whose length is known is not
 * flushed at its end; closing the sink does that.
 *
 * <p>Read sizes: a read never asks for more than can come: a known length asks for what is left
 * (and 1 byte for the final end-of-stream read), an unknown length starts at
 * {@value #FIRST_UNKNOWN} bytes and doubles up to {@value #BUFFER} while reads come back full
 * (an SSE event is small; a bulk body grows to large reads), so a small answer costs a small buffer.
 */
public final class StreamCopy {
    static final int BUFFER = 16 * 1024;
    static final int FIRST_UNKNOWN = 2 * 1024;

    private StreamCopy() {
    }

    /** The source failed (for a response: the upstream broke off; for a request: the client left). */
    public static final class SourceFailed extends RuntimeException {
        SourceFailed(Throwable cause) {
            super(cause);
        }
    }

    /** The sink failed (for a response: the client left; for a request: the upstream broke off). */
    public static final class SinkFailed extends RuntimeException {
        SinkFailed(Throwable cause) {
            super(cause);
        }
    }

    /**
     * Copies until end of stream. {@code expected} (the declared length, or -1) only tells the copy
     * not to flush at the known end; reading on to end of stream is what lets an HTTP client see
     * its response consumed and pool the connection.
     *
     * @return bytes copied
     * @throws SourceFailed when reading fails
     * @throws SinkFailed   when writing or flushing fails
     */
    public static long copy(InputStream in, OutputStream out, long expected) {
        byte[] buf = new byte[expected >= 0 ? (int) Math.min(BUFFER, Math.max(1, expected)) : FIRST_UNKNOWN];
        long total = 0;
        while (true) {
            int want = expected >= 0 ? (int) Math.min(buf.length, Math.max(1, expected - total)) : buf.length;
            int n = read(in, buf, want);
            if (n < 0) {
                break;
            }
            total += n;
            try {
                out.write(buf, 0, n);
                boolean atKnownEnd = expected >= 0 && total >= expected;
                if (!atKnownEnd && available(in) == 0) {
                    out.flush();
                }
            } catch (IOException | UncheckedIOException e) {
                throw new SinkFailed(e);
            } catch (RuntimeException e) {
                // Helidon reports a vanished peer with its own unchecked types.
                throw new SinkFailed(e);
            }
            if (n == buf.length && buf.length < BUFFER && (expected < 0 || expected - total > buf.length)) {
                buf = new byte[Math.min(BUFFER, buf.length * 2)];
            }
        }
        return total;
    }

    private static int read(InputStream in, byte[] buf, int len) {
        try {
            return in.read(buf, 0, len);
        } catch (IOException | RuntimeException e) {
            throw new SourceFailed(e);
        }
    }

    private static int available(InputStream in) {
        try {
            return in.available();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
