package shaper.proxy;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import shaper.observe.BodyPreview;

/**
 * Passes a response body through while keeping its first {@link BodyPreview#LIMIT} bytes for the
 * journal. Past the limit it only delegates, so a long stream pays nothing more than the wrapper.
 */
final class PreviewStream extends FilterInputStream {
    /** Grown on demand up to the limit: a 1 KiB answer costs 1 KiB, not the whole limit. */
    private byte[] head = new byte[0];
    private int kept;
    private boolean more;

    PreviewStream(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            keep(new byte[]{(byte) b}, 0, 1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            keep(b, off, n);
        }
        return n;
    }

    private void keep(byte[] b, int off, int n) {
        int room = BodyPreview.LIMIT - kept;
        if (room <= 0) {
            more = true;
            return;
        }
        int take = Math.min(room, n);
        if (kept + take > head.length) {
            head = java.util.Arrays.copyOf(head, Math.min(BodyPreview.LIMIT, Math.max(kept + take, head.length * 2)));
        }
        System.arraycopy(b, off, head, kept, take);
        kept += take;
        more |= take < n;
    }

    /** What was kept so far. */
    BodyPreview preview() {
        return kept == 0 ? BodyPreview.NONE : new BodyPreview(java.util.Arrays.copyOf(head, kept), more);
    }
}
