package shaper.proxy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.util.Set;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import shaper.proxy.client.UpstreamResponse;
import io.helidon.webserver.http.ServerResponse;
import shaper.observe.EndReason;
import shaper.observe.ExchangeTrace;
import shaper.observe.Outcome;
import shaper.usage.ScannedStream;
import shaper.usage.UsageScanner;

/**
 * Writes the accepted upstream answer to the client: status and filtered headers, then the body,
 * streamed and flushed per read. Bytes already read for a retry decision are replayed first, as
 * received. A body decoded for inspection goes out decoded, without {@code Content-Encoding} and
 * {@code Content-Length}. On a stream committed early only a 2xx body is appended; an error answer
 * ends that stream with one error event carrying the upstream's type and message.
 *
 * <p>{@link #whole} and {@link #appended} relay the accepted answer {@code in} by {@code plan}, for the
 * exchange so far {@code so}, and throw {@link RelayBroke} when the client or the upstream fails after
 * the answer was committed.
 */
record ResponseRelay(UpstreamResponse in, Carriage c, Plan plan, ExchangeResult so) implements ClientSink.Delivery<ExchangeResult> {
    /** Bodies of known length up to this size are read whole and sent in one write with their head. */
    static final int SMALL_BODY = 16 * 1024;
    private static final Set<String> DROPPED_WHEN_DECODED = Set.of("content-encoding", "content-length", "content-md5",
            "digest", "content-digest", "repr-digest", "etag");

    /**
     * What was already read of the body and how the answer is adjusted.
     *
     * @param prefix         bytes read for the retry decision (possibly empty)
     * @param rest           the remaining body
     * @param decoded        prefix and rest are the decoded body (the encoding headers go)
     * @param status         status to send instead of the upstream's (0 = the upstream's)
     * @param retryAfter     {@code Retry-After} to add when the upstream sent none (retries exhausted), or null
     * @param location       rewritten {@code Location}, or null to keep the upstream's
     */
    record Plan(byte[] prefix, InputStream rest, boolean decoded, int status, String retryAfter, String location) {
        static Plan asIs(UpstreamResponse in) {
            return read(new byte[0], in.inputStream(), false, 0);
        }

        /** {@code prefix} already read (decoded when {@code decoded}), then {@code rest}; {@code status} 0 keeps the upstream's. */
        static Plan read(byte[] prefix, InputStream rest, boolean decoded, int status) {
            return new Plan(prefix, rest, decoded, status, null, null);
        }

        /** The whole body, the read prefix first, decoded when it is in a coding decoded here. */
        InputStream decodedBody(UpstreamResponse in) {
            InputStream all = prefix.length == 0 ? rest : new SequenceInputStream(new ByteArrayInputStream(prefix), rest);
            String encoding = decoded ? null : in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
            if (encoding == null || !BodyPeek.decodable(encoding)) {
                return all;
            }
            try {
                return BodyPeek.decode(all, encoding);
            } catch (IOException e) {
                throw new StreamCopy.SourceFailed(e);
            }
        }

        /** This plan with its remaining body shown to {@code reader} as the relay passes it on. */
        Plan watchedBy(ScannedStream.Reader reader) {
            return new Plan(prefix, new ScannedStream(rest, reader), decoded, status, retryAfter, location);
        }

        Plan withRetryAfter(String seconds) {
            return new Plan(prefix, rest, decoded, status, seconds, location);
        }

        Plan withLocation(String rewritten) {
            return new Plan(prefix, rest, decoded, status, retryAfter, rewritten);
        }

        /**
         * This plan with its remaining body read by a {@link UsageScanner} as the relay passes it on
         * (see {@code shaper.usage}): the bytes already read are shown to it first. The scanner is kept
         * on the exchange's trace, where the settlement finds it whichever way the exchange ends.
         * Passthrough and transcoded answers alike: the scanner reads the upstream's dialect.
         */
        Plan tapped(UpstreamResponse in, ExchangeTrace trace) {
            String type = in.headers().first(HeaderNames.CONTENT_TYPE).orElse(null);
            String encoding = decoded ? null : in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
            UsageScanner scanner = UsageScanner.forEncodedBody(type, encoding);
            trace.usageScanner(scanner);
            scanner.feed(prefix, 0, prefix.length);
            return watchedBy(scanner::feed);
        }
    }

    @Override
    public ExchangeResult whole(ServerResponse res) {
        String method = c.exchange().method();
        ExchangeTrace trace = c.trace();
        int code = plan.status() > 0 ? plan.status() : in.status().code();
        ExchangeResult committed = so.committed(code);
        res.status(plan.status() > 0 ? Status.create(code) : in.status());
        boolean lengthKept = !plan.decoded() && plan.status() == 0;
        HeaderPolicy.forEachResponseHeader(in.headers(), field -> {
            String lower = field.headerName().lowerCase();
            if ((plan.decoded() && DROPPED_WHEN_DECODED.contains(lower)) || (plan.location() != null && lower.equals("location"))) {
                return;
            }
            res.header(field);
        });
        if (plan.location() != null) {
            res.header(HeaderNames.LOCATION, plan.location());
        }
        if (plan.retryAfter() != null && !in.headers().contains(HeaderNames.RETRY_AFTER)) {
            res.header(HeaderNames.RETRY_AFTER, plan.retryAfter());
        }
        long length = lengthKept ? in.headers().contentLength().orElse(-1L) : -1L;
        trace.clientHeaders();
        if (!hasBody(method, code) || length == 0) {
            if (length >= 0 && method.equalsIgnoreCase("HEAD")) {
                res.header(HeaderNames.CONTENT_LENGTH, Long.toString(length));
            }
            RelayBroke.guard(committed, res::send);
            trace.responseBytes(0);
            return committed.outcome(Outcome.CLEAN);
        }
        if (length > 0) {
            res.header(HeaderNames.CONTENT_LENGTH, Long.toString(length));
        }
        if (length > 0 && length <= SMALL_BODY && plan.prefix().length == 0) {
            RelayBroke.guard(committed, () -> sendWhole(plan.rest(), res, (int) length, trace));
            return committed.outcome(Outcome.CLEAN);
        }
        RelayBroke.guard(committed, () -> stream(res.outputStream(), plan, length, trace));
        return committed.outcome(Outcome.CLEAN);
    }

    private static void stream(OutputStream sink, Plan plan, long length, ExchangeTrace trace) {
        PreviewStream body = new PreviewStream(body(plan));
        long copied;
        try {
            copied = StreamCopy.copy(body, sink, length);
        } finally {
            trace.responseBody(body.preview());
        }
        trace.responseBytes(copied);
        if (length >= 0 && copied < length) {
            throw new StreamCopy.SourceFailed(new EOFException("upstream body ended at " + copied + " of " + length + " bytes"));
        }
        closeSink(sink);
    }

    @Override
    public ExchangeResult appended(EarlyStream early, Dialect dialect) {
        ExchangeTrace trace = c.trace();
        ExchangeResult committed = so.committed(200);
        int code = in.status().code();
        if (code < 200 || code > 299 || plan.status() > 0) {
            byte[] prefix = plan.prefix().length > 0 ? plan.prefix() : BodyPeek.prefix(plan.rest(), BodyPeek.ERROR_PREFIX);
            Json.ErrorInfo info = Json.errorInfo(prefix).orElse(new Json.ErrorInfo("api_error", "upstream answered HTTP " + code));
            early.fail(dialect, "upstream", info.type(), info.message());
            trace.responseBody(shaper.observe.BodyPreview.of(prefix, prefix.length));
            return committed.ended(EndReason.UPSTREAM_ERROR_EVENT, Outcome.ABORTED, 0);
        }
        trace.clientHeaders();
        RelayBroke.guard(committed, () -> {
            PreviewStream body = new PreviewStream(body(plan));
            try {
                trace.responseBytes(StreamCopy.copy(body, early.sink(), -1));
            } finally {
                trace.responseBody(body.preview());
            }
            closeSink(early.sink());
        });
        return committed.outcome(Outcome.CLEAN);
    }

    /**
     * A small body of known length goes out in one piece with its head: no response stream, no
     * flushes, one write. It is read to end of stream so the upstream connection returns to the
     * pool. An upstream that breaks off midway gets what the streaming path gives it: the head
     * and the bytes that arrived are committed, then the connection is aborted.
     */
    private static void sendWhole(InputStream in, ServerResponse res, int length, ExchangeTrace trace) {
        byte[] body = new byte[length];
        int got = 0;
        Exception failure = null;
        try {
            int n;
            while (got < length && (n = in.read(body, got, length - got)) >= 0) {
                got += n;
            }
            if (got == length) {
                in.read(new byte[1], 0, 1); // end of stream: the client sees the response consumed
            }
        } catch (java.io.IOException | RuntimeException e) {
            failure = e;
        }
        trace.responseBody(shaper.observe.BodyPreview.ofOwned(body, got)); // body is only sent from here on
        trace.responseBytes(got);
        if (got < length) {
            OutputStream sink = res.outputStream();
            try {
                sink.write(body, 0, got);
                sink.flush();
            } catch (java.io.IOException | RuntimeException e) {
                throw new StreamCopy.SinkFailed(e);
            }
            throw new StreamCopy.SourceFailed(failure != null ? failure
                    : new EOFException("upstream body ended at " + got + " of " + length + " bytes"));
        }
        try {
            res.send(body);
        } catch (RuntimeException e) {
            throw new StreamCopy.SinkFailed(e);
        }
    }

    private static InputStream body(Plan plan) {
        return plan.prefix().length == 0 ? plan.rest() : new SequenceInputStream(new ByteArrayInputStream(plan.prefix()), plan.rest());
    }

    private static void closeSink(OutputStream sink) {
        try {
            sink.close();
        } catch (Exception e) {
            throw new StreamCopy.SinkFailed(e);
        }
    }

    private static boolean hasBody(String method, int status) {
        return !method.equalsIgnoreCase("HEAD") && status >= 200 && status != 204 && status != 304;
    }
}
