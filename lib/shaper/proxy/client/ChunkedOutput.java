package shaper.proxy.client;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writes a request body of unknown length in chunked transfer coding: one chunk per write, then the last chunk on {@link #finish()}. */
final class ChunkedOutput extends OutputStream {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST = {'0', '\r', '\n', '\r', '\n'};

    private final OutputStream out;

    ChunkedOutput(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return; // a zero-size chunk would end the body
        }
        out.write(Integer.toHexString(len).getBytes(StandardCharsets.ISO_8859_1));
        out.write(CRLF);
        out.write(b, off, len);
        out.write(CRLF);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Ends the body; the caller flushes. Closing this stream does nothing else. */
    void finish() throws IOException {
        out.write(LAST);
    }
}
