package shaper.proxy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

import io.helidon.http.HeaderNames;
import shaper.proxy.client.UpstreamResponse;
import shaper.sse.EarlyErrorInspector;
import shaper.sse.InspectorVerdict;

/**
 * Bounded looks at the start of an upstream body, for retry decisions. Upstream error bodies are
 * read up to {@link #ERROR_PREFIX} bytes and kept as received (a decoded copy is what gets matched);
 * an HTTP 200 event stream is decoded if compressed and fed to the early-error inspector
 * ({@link SsePeek}).
 */
final class BodyPeek {
    static final int ERROR_PREFIX = 16 * 1024;

    private BodyPeek() {
    }

    /**
     * What was read of an answer before it is judged.
     *
     * @param plan          how to relay it if it is accepted: the bytes read first, then the rest
     * @param errorPrefix   the decoded start of an error body, for matching; null when none was read
     * @param earlySseError a 2xx event stream carried an {@code error} / {@code response.failed} frame first
     */
    record Read(ResponseRelay.Plan plan, byte[] errorPrefix, boolean earlySseError) {
    }

    /**
     * Reads what a retry decision needs of {@code in}: nothing unless its request could be replayed;
     * then the start of a 2xx event stream ({@code inspectSse}) or of an error body.
     */
    static Read read(UpstreamResponse in, boolean replayable, boolean inspectSse) throws IOException {
        int code = in.status().code();
        String encoding = in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
        if (replayable && code >= 200 && code < 300 && inspectSse && SsePeek.applies(in, encoding)) {
            SsePeek peek = SsePeek.of(in, encoding);
            return new Read(peek.plan(), null, peek.hiddenError());
        }
        if (replayable && code >= 400) {
            byte[] raw = prefix(in.inputStream(), ERROR_PREFIX);
            return new Read(ResponseRelay.Plan.read(raw, in.inputStream(), false, 0), decodedCopy(raw, encoding), false);
        }
        return new Read(ResponseRelay.Plan.asIs(in), null, false);
    }

    /** Up to {@code limit} bytes of {@code in}, as received. */
    static byte[] prefix(InputStream in, int limit) {
        try {
            return in.readNBytes(limit);
        } catch (IOException | UncheckedIOException e) {
            throw new StreamCopy.SourceFailed(e);
        } catch (RuntimeException e) {
            throw new StreamCopy.SourceFailed(e);
        }
    }

    /** Whether bodies in this encoding can be decoded here (identity, gzip, deflate). */
    static boolean decodable(String contentEncoding) {
        String e = contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
        return e.isEmpty() || e.equals("identity") || e.equals("gzip") || e.equals("x-gzip") || e.equals("deflate");
    }

    /** A decoding view of {@code in}; call only when {@link #decodable}. */
    static InputStream decode(InputStream in, String contentEncoding) throws IOException {
        String e = contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
        return switch (e) {
            case "gzip", "x-gzip" -> new GZIPInputStream(in, StreamCopy.BUFFER);
            case "deflate" -> new InflaterInputStream(in);
            default -> in;
        };
    }

    /** A decoded copy of a (possibly truncated) compressed prefix, for matching only; the raw bytes when it cannot be decoded. */
    static byte[] decodedCopy(byte[] raw, String contentEncoding) {
        if (contentEncoding == null || contentEncoding.isBlank() || !decodable(contentEncoding)) {
            return raw;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = decode(new ByteArrayInputStream(raw), contentEncoding)) {
            byte[] buf = new byte[4096];
            int n;
            while (out.size() < 4 * ERROR_PREFIX && (n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            // a truncated prefix decodes as far as it goes
        }
        return out.size() > 0 ? out.toByteArray() : raw;
    }

    /** Reads (already decoded) stream bytes until the inspector decides; end of stream decides too. */
    static InspectorVerdict inspect(InputStream decoded) {
        EarlyErrorInspector inspector = new EarlyErrorInspector();
        byte[] buf = new byte[StreamCopy.BUFFER];
        while (true) {
            int n;
            try {
                n = decoded.read(buf);
            } catch (IOException | RuntimeException e) {
                throw new StreamCopy.SourceFailed(e);
            }
            InspectorVerdict v = n < 0 ? inspector.finish() : inspector.feed(buf, 0, n);
            if (!(v instanceof InspectorVerdict.Undecided)) {
                return v;
            }
        }
    }

    /** Whether the answer is an event stream. */
    static boolean isEventStream(UpstreamResponse in) {
        return in.headers().first(HeaderNames.CONTENT_TYPE)
                .map(t -> t.regionMatches(true, 0, "text/event-stream", 0, "text/event-stream".length())).orElse(false);
    }

    /** Reads up to {@code limit} bytes of a discarded body so its connection can be reused; closing drops it otherwise. */
    static void drain(UpstreamResponse in, int limit) {
        try {
            InputStream rest = in.inputStream();
            byte[] buf = new byte[1024];
            int total = 0;
            int n;
            while (total < limit && (n = rest.read(buf)) >= 0) {
                total += n;
            }
        } catch (IOException | RuntimeException e) {
            // discarded anyway
        }
    }

    /**
     * {@code -inspect-sse}: the start of a 2xx event stream, decoded if compressed, read until the
     * early-error inspector decides, so that an error the upstream sent under 200 can be retried before
     * the client has seen a byte. The bytes read are replayed first by the relay plan either way.
     *
     * @param plan        how to relay the answer if it is accepted: the read bytes, then the rest; status
     *                    502 when it carries a hidden error (what the client gets once retries run out)
     * @param hiddenError a recognized {@code error} / {@code response.failed} frame came before any output
     */
    record SsePeek(ResponseRelay.Plan plan, boolean hiddenError) {
        /** Whether {@code in} is an answer to inspect: an event stream in a coding decoded here. */
        static boolean applies(UpstreamResponse in, String encoding) {
            return isEventStream(in) && decodable(encoding);
        }

        /** Reads the stream's start; call only when {@link #applies}. */
        static SsePeek of(UpstreamResponse in, String encoding) throws IOException {
            InputStream decoded = decode(in.inputStream(), encoding);
            if (decoded != in.inputStream()) {
                in.closeWith(decoded);
            }
            boolean wasDecoded = encoding != null && !encoding.isBlank() && !encoding.equalsIgnoreCase("identity");
            return switch (inspect(decoded)) {
                case InspectorVerdict.Retry hidden -> new SsePeek(ResponseRelay.Plan.read(hidden.buffered(), decoded, wasDecoded, 502), true);
                case InspectorVerdict.Forward forward -> new SsePeek(ResponseRelay.Plan.read(forward.buffered(), decoded, wasDecoded, 0), false);
                // inspect() reads to a decision (the end of the stream decides too)
                case InspectorVerdict.Undecided undecided -> new SsePeek(ResponseRelay.Plan.asIs(in), false);
            };
        }
    }
}
