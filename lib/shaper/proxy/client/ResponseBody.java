package shaper.proxy.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * An upstream answer's body as the client reads it, framed by the head (RFC 9112 section 6.3): a
 * {@code Content-Length}, chunked transfer coding (chunk extensions and trailer fields read and
 * dropped), or everything until the upstream closes. {@link #complete()} turns true once the last
 * byte has been read, which is what lets the connection go back to the pool. An upstream that
 * closes before its declared end fails the read with {@link EOFException}.
 */
abstract sealed class ResponseBody extends InputStream {
    private static final int MAX_CHUNK_LINE = 8 * 1024;

    final WireInput in;
    boolean complete;

    private ResponseBody(WireInput in) {
        this.in = in;
    }

    /** True once the body was read to its end. */
    final boolean complete() {
        return complete;
    }

    @Override
    public final int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    static ResponseBody empty(WireInput in) {
        return new Length(in, 0);
    }

    static ResponseBody ofLength(WireInput in, long length) {
        return new Length(in, length);
    }

    static ResponseBody chunked(WireInput in) {
        return new Chunked(in);
    }

    static ResponseBody untilClose(WireInput in) {
        return new UntilClose(in);
    }

    private static final class Length extends ResponseBody {
        private long left;

        Length(WireInput in, long length) {
            super(in);
            this.left = length;
            this.complete = length == 0;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("upstream closed its answer " + left + " bytes before the declared Content-Length");
            }
            left -= n;
            complete = left == 0;
            return n;
        }

        @Override
        public int available() throws IOException {
            return left == 0 ? 0 : (int) Math.min(left, in.available());
        }
    }

    private static final class Chunked extends ResponseBody {
        /** Bytes left in the current chunk; 0 between chunks. */
        private long left;
        /** The CRLF after a chunk's data is read with the next size line, so a chunk's bytes are handed on the moment they arrive. */
        private boolean afterChunk;

        Chunked(WireInput in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (complete) {
                return -1;
            }
            if (left == 0) {
                if (afterChunk) {
                    endOfChunk();
                }
                if (!nextChunk()) {
                    return -1;
                }
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException("upstream closed its chunked answer mid-chunk");
            }
            left -= n;
            afterChunk = left == 0;
            return n;
        }

        /** Reads the next chunk's size line; false (and complete) after the last chunk and the trailer. */
        private boolean nextChunk() throws IOException {
            long size = in.chunkSize(MAX_CHUNK_LINE);
            if (size == 0) {
                ResponseHead.fields(in, 0, ResponseHead.MAX_FIELDS); // the trailer section: validated, bounded, not relayed
                complete = true;
                return false;
            }
            left = size;
            return true;
        }

        private void endOfChunk() throws IOException {
            afterChunk = false;
            in.crlf();
        }

        @Override
        public int available() throws IOException {
            return left == 0 ? 0 : (int) Math.min(left, in.buffered());
        }
    }

    private static final class UntilClose extends ResponseBody {
        UntilClose(WireInput in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n < 0) {
                complete = true;
            }
            return n;
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }
    }
}
