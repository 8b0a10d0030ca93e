package shaper.observe;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The first bytes of a request or response body, kept for the journal's detail view.
 *
 * @param head      at most {@link #LIMIT} bytes, owned by the preview: a copy, or an array nobody writes again
 * @param truncated the body was longer than {@code head}
 */
public record BodyPreview(byte[] head, boolean truncated) {
    /**
     * Bytes kept per body. The spec keeps up to {@code -retry-max-body-mb} per entry; a fixed 16 KiB
     * keeps the journal's memory small (about 1.6 MB at the 51-entry default) and still shows a
     * whole JSON error body or the first events of a stream.
     */
    public static final int LIMIT = 16 * 1024;
    public static final BodyPreview NONE = new BodyPreview(new byte[0], false);

    /** A preview of {@code bytes[0..length)}. */
    public static BodyPreview of(byte[] bytes, int length) {
        if (bytes == null || length <= 0) {
            return NONE;
        }
        int n = Math.min(length, LIMIT);
        return new BodyPreview(Arrays.copyOf(bytes, n), length > n);
    }

    /**
     * A preview of a whole body the caller has just read into {@code bytes} and will not write again
     * (it may still send it): kept as it is when it fits, so a small answer is not copied for the journal.
     */
    public static BodyPreview ofOwned(byte[] bytes, int length) {
        return bytes != null && length == bytes.length && length > 0 && length <= LIMIT ? new BodyPreview(bytes, false) : of(bytes, length);
    }

    @Override
    public byte[] head() {
        return head.clone();
    }

    public int size() {
        return head.length;
    }

    /** The bytes as UTF-8 text (malformed sequences replaced), for display. */
    public String text() {
        return new String(head, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BodyPreview p && p.truncated == truncated && Arrays.equals(p.head, head);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(head) * 31 + Boolean.hashCode(truncated);
    }

    @Override
    public String toString() {
        return "BodyPreview[" + head.length + " bytes" + (truncated ? ", truncated" : "") + "]";
    }
}
