package shaper.usage;

import java.util.Arrays;

/**
 * The bytes of one payload (an SSE {@code data:} line or a JSON body), held whole up to
 * {@link #WHOLE} bytes; past that only its first {@link #HEAD} bytes (where a model is named) and
 * its last {@link #TAIL} bytes (where every dialect puts {@code usage}) are kept. Not thread-safe.
 */
final class PayloadWindow {
    static final int WHOLE = 64 * 1024;
    static final int HEAD = 8 * 1024;
    static final int TAIL = 32 * 1024;

    private byte[] buf = new byte[512];
    private int len;
    private long total;
    // Past WHOLE: buf keeps the head, tail is a ring of the last TAIL bytes.
    private byte[] tail;
    private int tailPos;

    void append(byte[] b, int off, int n) {
        total += n;
        if (tail == null && len + n <= WHOLE) {
            if (len + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.min(WHOLE, Math.max(buf.length * 2, len + n)));
            }
            System.arraycopy(b, off, buf, len, n);
            len += n;
            return;
        }
        if (tail == null) {
            tail = new byte[TAIL];
            byte[] kept = buf;
            int keptLen = len;
            buf = Arrays.copyOf(kept, HEAD);
            len = Math.min(HEAD, keptLen);
            int fromNew = Math.min(HEAD - len, n); // a head still short is completed from these bytes
            System.arraycopy(b, off, buf, len, fromNew);
            len += fromNew;
            ring(kept, Math.max(0, keptLen - TAIL), Math.min(keptLen, TAIL));
        }
        ring(b, off + Math.max(0, n - TAIL), Math.min(n, TAIL));
    }

    private void ring(byte[] b, int off, int n) {
        int first = Math.min(n, TAIL - tailPos);
        System.arraycopy(b, off, tail, tailPos, first);
        System.arraycopy(b, off + first, tail, 0, n - first);
        tailPos = (tailPos + n) % TAIL;
    }

    /** Whether every byte of the payload is held. */
    boolean whole() {
        return tail == null;
    }

    long total() {
        return total;
    }

    int length() {
        return len;
    }

    /** The whole payload ({@link #whole()}) or its head; valid up to {@link #length()}. */
    byte[] bytes() {
        return buf;
    }

    /** The last {@link #TAIL} bytes in order; only past {@link #WHOLE}. */
    byte[] tail() {
        byte[] out = new byte[TAIL];
        System.arraycopy(tail, tailPos, out, 0, TAIL - tailPos);
        System.arraycopy(tail, 0, out, TAIL - tailPos, tailPos);
        return out;
    }

    void clear() {
        len = 0;
        total = 0;
        tail = null;
        tailPos = 0;
        if (buf.length > 4096) {
            buf = new byte[512]; // one large event does not pin its buffer for the rest of the stream
        }
    }
}
