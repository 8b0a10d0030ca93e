package shaper.proxy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * A request body on its way upstream: absent, streamed from the client as it arrives, or buffered
 * in memory (so the client connection can be watched while the request waits, and so the body can
 * be inspected). Buffering is bounded; a larger body keeps streaming.
 */
public sealed interface RequestBody {
    /** {@code -1} when the length is unknown (chunked). */
    long length();

    /** The bytes, from the start. A streamed body can be opened once. */
    InputStream open();

    /** The whole body when buffered, else null. */
    default byte[] bytes() {
        return null;
    }

    record None() implements RequestBody {
        @Override
        public long length() {
            return 0;
        }

        @Override
        public InputStream open() {
            return InputStream.nullInputStream();
        }
    }

    record Streamed(InputStream in, long length) implements RequestBody {
        @Override
        public InputStream open() {
            return in;
        }
    }

    /** A body in memory; {@code chunked} keeps the client's framing (no Content-Length) when it is sent on. */
    record Buffered(byte[] bytes, boolean chunked) implements RequestBody {
        public Buffered(byte[] bytes) {
            this(bytes, false);
        }

        @Override
        public long length() {
            return chunked ? -1 : bytes.length;
        }

        @Override
        public InputStream open() {
            return new ByteArrayInputStream(bytes);
        }
    }

    /** The client's body: none, or an empty one when it declared {@code Content-Length: 0} (sent on as declared), or a stream. */
    static RequestBody of(ServerRequest req) {
        if (!req.content().hasEntity()) {
            return req.headers().contains(HeaderNames.CONTENT_LENGTH) ? new Buffered(new byte[0], false) : new None();
        }
        return new Streamed(req.content().inputStream(), req.headers().contentLength().orElse(-1L));
    }

    /**
     * Reads a streamed body into memory when it is at most {@code limit} bytes; otherwise returns a
     * stream that replays what was read and continues with the rest.
     *
     * @throws StreamCopy.SourceFailed when the client breaks off while sending it
     */
    static RequestBody buffer(RequestBody body, int limit) {
        if (!(body instanceof Streamed s) || (s.length() > limit)) {
            return body;
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream(s.length() > 0 ? (int) s.length() : 8192);
        byte[] chunk = new byte[StreamCopy.BUFFER];
        try {
            int n;
            while ((n = s.in().read(chunk)) >= 0) {
                buf.write(chunk, 0, n);
                if (buf.size() > limit) {
                    return new Streamed(new SequenceInputStream(new ByteArrayInputStream(buf.toByteArray()), s.in()), s.length());
                }
            }
        } catch (IOException | UncheckedIOException e) {
            throw new StreamCopy.SourceFailed(e);
        } catch (RuntimeException e) {
            throw new StreamCopy.SourceFailed(e);
        }
        return new Buffered(buf.toByteArray(), s.length() < 0);
    }

    /**
     * The first bytes of a body, read to classify the request before admission, and the body to send
     * on, which still carries every byte.
     *
     * @param body   buffered when the whole body fit, else a stream that replays the prefix first
     * @param prefix the bytes read; {@code length} of them are valid
     * @param length how many bytes of {@code prefix} were read
     */
    record Peek(RequestBody body, byte[] prefix, int length) {
    }

    /**
     * Reads at most {@code limit} bytes of a streamed body (nothing for a buffered or absent one).
     *
     * @throws StreamCopy.SourceFailed when the client breaks off while sending it
     */
    static Peek peek(RequestBody body, int limit) {
        if (body instanceof Buffered b) {
            return new Peek(b, b.bytes(), b.bytes().length);
        }
        if (!(body instanceof Streamed s)) {
            return new Peek(body, new byte[0], 0);
        }
        byte[] prefix = new byte[(int) (s.length() >= 0 ? Math.min(limit, s.length()) : limit)];
        int n = 0;
        try {
            while (n < prefix.length) {
                int r = s.in().read(prefix, n, prefix.length - n);
                if (r < 0) {
                    return new Peek(new Buffered(java.util.Arrays.copyOf(prefix, n), s.length() < 0), prefix, n);
                }
                n += r;
            }
        } catch (IOException | RuntimeException e) {
            throw new StreamCopy.SourceFailed(e);
        }
        if (s.length() >= 0 && n == s.length()) {
            return new Peek(new Buffered(prefix), prefix, n);
        }
        return new Peek(new Streamed(new SequenceInputStream(new ByteArrayInputStream(prefix, 0, n), s.in()), s.length()), prefix, n);
    }
}
