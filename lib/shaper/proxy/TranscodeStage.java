package shaper.proxy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.observe.ExchangeLog;
import shaper.observe.Outcome;
import shaper.retry.FailureClass;
import shaper.transcode.EventSink;
import shaper.transcode.Prepared;
import shaper.transcode.Provenance;
import shaper.transcode.StreamConversion;
import shaper.transcode.TranscodeException;
import shaper.transcode.Transcoder;
import shaper.transcode.UpstreamError;

/**
 * A transcoded route's stage in the one request path: the adapter between {@link Forwarder} and the
 * pure {@link Transcoder}. {@link #prepare} turns the client body into the upstream request before
 * the first attempt (a local failure is answered here, in the client's dialect, and never reaches
 * the upstream or the breaker); {@link #relay} turns the accepted upstream answer into the client's.
 * Admission, limits, retries, the breaker and the exchange log stay the forwarder's.
 *
 * <p>Outcome: a body or stream that breaks the wire contract, or a stream/JSON negotiation mismatch,
 * sets {@link FailureClass#BODY_ERROR} (an upstream failure); a local response conversion failure
 * leaves the upstream's class and fails the exchange. Every failure is logged
 * {@code transcode: METHOD /path: [provenance] message}.
 */
final class TranscodeStage {
    private final Transcoder transcoder;
    private final HeaderRewrite rewrite;
    private final ExchangeLog log;

    /** One exchange's converted request and the headers step for it. */
    record Converted(Prepared prepared, RequestBody body, HeaderRewrite rewrite) {
    }

    TranscodeStage(Transcoder transcoder, HeaderRewrite rewrite, ExchangeLog log) {
        this.transcoder = transcoder;
        this.rewrite = rewrite;
        this.log = log;
    }

    /** @return the converted request, or null when the request was answered locally */
    Converted prepare(ServerRequest req, ServerResponse res, String rawPath, RequestBody body, EarlyStream early, Exchange ex) {
        long limit = transcoder.mapping().limits().requestBytes();
        RequestBody buffered = RequestBody.buffer(body, (int) Math.min(Integer.MAX_VALUE - 16, limit));
        try {
            if (!(buffered instanceof RequestBody.Buffered) && !(buffered instanceof RequestBody.None)) {
                throw new TranscodeException.TooLarge();
            }
            byte[] bytes = buffered.bytes() == null ? new byte[0] : buffered.bytes();
            Prepared p = transcoder.prepare(bytes, req.prologue().query().rawValue());
            return new Converted(p, new RequestBody.Buffered(p.body()), rewrite);
        } catch (TranscodeException e) {
            ex.localError = true;
            ex.outcome = Outcome.FAILED;
            logFailure(ex, req, rawPath, Provenance.LOCAL_REQUEST_CONVERSION_ERROR, e);
            if (e instanceof TranscodeException.TooLarge) {
                res.header(HeaderNames.CONNECTION, "close"); // the rest of the body is not read
            }
            answer(res, early, ex, e.status(), transcoder.error(e), null, null);
            return null;
        }
    }

    /**
     * Converts and writes the accepted answer. Throws {@link StreamCopy.SinkFailed} when the
     * client goes away, like {@link ResponseRelay}.
     */
    void relay(HttpClientResponse in, ServerResponse res, String method, String rawPath, EarlyStream early, Exchange ex,
               ResponseRelay.Plan plan, Converted c) {
        int code = in.status().code();
        InputStream body = UsageTap.tap(decoded(in, plan), in, true, ex.trace);
        String type = in.headers().first(HeaderNames.CONTENT_TYPE).orElse("").toLowerCase(Locale.ROOT);
        if (plan.status() > 0) {
            byte[] prefix = plan.prefix();
            String message = Json.errorInfo(prefix).map(Json.ErrorInfo::message).orElse("upstream stream failed");
            answer(res, early, ex, plan.status(), transcoder.error(new UpstreamError(plan.status(), null, null, message, null, null, null)),
                    plan.retryAfter(), null);
            return;
        }
        if (code < 200 || code > 299) {
            if (code < 400) {
                wireFailure(res, method, rawPath, early, ex, new TranscodeException.UpstreamWire("upstream answered HTTP " + code));
                return;
            }
            byte[] raw = BodyPeek.prefix(body, transcoder.mapping().limits().errorBodyBytes());
            String retryAfter = in.headers().first(HeaderNames.RETRY_AFTER).orElse(plan.retryAfter());
            String requestId = in.headers().first(HeaderNames.create("request-id"))
                    .orElse(in.headers().first(HeaderNames.create("x-request-id")).orElse(null));
            UpstreamError error = UpstreamError.parse(code, raw, type, requestId, retryAfter);
            answer(res, early, ex, code, transcoder.error(error), retryAfter, requestId);
            return;
        }
        boolean sse = type.startsWith("text/event-stream");
        boolean json = type.startsWith("application/json") || type.contains("+json");
        Prepared p = c.prepared();
        if (p.stream() && !sse) {
            wireFailure(res, method, rawPath, early, ex, new TranscodeException.UpstreamWire(json
                    ? "upstream returned a non-streaming response for a streaming request"
                    : "upstream returned an unrecognized response content type"));
        } else if (!p.stream() && !json) {
            wireFailure(res, method, rawPath, early, ex, new TranscodeException.UpstreamWire(sse
                    ? "upstream returned a stream for a non-streaming request"
                    : "upstream returned an unrecognized response content type"));
        } else if (sse) {
            stream(body, res, method, rawPath, early, ex, p);
        } else {
            json(body, res, method, rawPath, early, ex, p);
        }
        if (!p.report().entries().isEmpty()) {
            log.info("transcode: " + method + " " + rawPath + ": report " + p.report().summary());
        }
    }

    private void json(InputStream body, ServerResponse res, String method, String rawPath, EarlyStream early, Exchange ex, Prepared p) {
        long limit = transcoder.mapping().limits().responseBytes();
        byte[] bytes = BodyPeek.prefix(body, (int) Math.min(Integer.MAX_VALUE - 16, limit + 1));
        byte[] out;
        try {
            if (bytes.length > limit) {
                throw new TranscodeException.UpstreamWire("upstream response exceeds -transcode-max-response-mb");
            }
            out = transcoder.answer(bytes, p);
        } catch (TranscodeException e) {
            wireFailure(res, method, rawPath, early, ex, e);
            return;
        }
        if (early != null) {
            wireFailure(res, method, rawPath, early, ex, new TranscodeException.UpstreamWire("non-streaming answer on a committed stream"));
            return;
        }
        ex.status = 200;
        res.status(Status.OK_200).header(HeaderValues.CONTENT_TYPE_JSON).header(HeaderNames.CONTENT_LENGTH, Integer.toString(out.length));
        try {
            res.send(out);
        } catch (RuntimeException e) {
            throw new StreamCopy.SinkFailed(e);
        }
        ex.outcome = Outcome.CLEAN;
    }

    private void stream(InputStream body, ServerResponse res, String method, String rawPath, EarlyStream early, Exchange ex, Prepared p) {
        ClientEvents sink = new ClientEvents(res, early);
        ex.status = 200;
        StreamConversion conversion = transcoder.stream(sink, p);
        byte[] buf = new byte[StreamCopy.BUFFER];
        try {
            while (true) {
                int n;
                try {
                    n = body.read(buf);
                } catch (IOException | UncheckedIOException e) {
                    ex.failure = FailureClass.TRANSPORT_ERROR;
                    logFailure(ex, method, rawPath, Provenance.UPSTREAM_TRANSPORT_ERROR, "upstream stream broke off: " + e.getMessage());
                    conversion.fail("api_error", "upstream stream broke off");
                    sink.close();
                    ex.outcome = Outcome.ABORTED;
                    return;
                }
                if (n < 0) {
                    conversion.end();
                    break;
                }
                conversion.feed(buf, 0, n);
            }
        } catch (TranscodeException e) {
            Provenance provenance = Provenance.ofResponseFailure(e);
            if (e.upstreamFailure()) {
                ex.failure = FailureClass.BODY_ERROR;
            }
            logFailure(ex, method, rawPath, provenance, e.getMessage());
            if (!conversion.started() && early == null) {
                answer(res, null, ex, e.status(), transcoder.error(e), null, null);
                ex.outcome = Outcome.FAILED;
                return;
            }
            conversion.fail(transcoder.errorType(e.status()), e.getMessage());
            sink.close();
            ex.outcome = Outcome.ABORTED;
            return;
        }
        sink.close();
        ex.outcome = Outcome.CLEAN;
    }

    private void wireFailure(ServerResponse res, String method, String rawPath, EarlyStream early, Exchange ex, TranscodeException e) {
        if (e.upstreamFailure()) {
            ex.failure = FailureClass.BODY_ERROR;
        }
        logFailure(ex, method, rawPath, Provenance.ofResponseFailure(e), e.getMessage());
        answer(res, early, ex, e.status(), transcoder.error(e), null, null);
        ex.outcome = Outcome.FAILED;
    }

    /** A complete error answer, or one error event on a stream committed early. */
    private void answer(ServerResponse res, EarlyStream early, Exchange ex, int status, byte[] body, String retryAfter, String requestId) {
        if (early != null) {
            ClientEvents sink = new ClientEvents(res, early);
            transcoder.earlyError(sink, transcoder.errorType(status), errorMessage(body));
            sink.close();
            ex.status = 200;
            ex.outcome = Outcome.ABORTED;
            return;
        }
        ex.status = status;
        res.status(Status.create(status)).header(HeaderValues.CONTENT_TYPE_JSON);
        if (retryAfter != null) {
            res.header(HeaderNames.RETRY_AFTER, retryAfter);
        }
        if (requestId != null) {
            res.header(HeaderNames.create("Request-Id"), requestId);
        }
        try {
            res.send(body);
        } catch (RuntimeException e) {
            throw new StreamCopy.SinkFailed(e);
        }
        ex.outcome = Outcome.CLEAN;
    }

    private static String errorMessage(byte[] body) {
        return Json.errorInfo(body).map(Json.ErrorInfo::message).orElse("transcoding failed");
    }

    private static InputStream decoded(HttpClientResponse in, ResponseRelay.Plan plan) {
        InputStream rest = plan.rest();
        InputStream all = plan.prefix().length == 0 ? rest : new SequenceInputStream(new ByteArrayInputStream(plan.prefix()), rest);
        String encoding = plan.decoded() ? null : in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
        if (encoding == null || !BodyPeek.decodable(encoding)) {
            return all;
        }
        try {
            return BodyPeek.decode(all, encoding);
        } catch (IOException e) {
            throw new StreamCopy.SourceFailed(e);
        }
    }

    private void logFailure(Exchange ex, ServerRequest req, String rawPath, Provenance p, TranscodeException e) {
        logFailure(ex, req.prologue().method().text(), rawPath, p, e.getMessage());
    }

    /** Logs the failure and puts its provenance on the exchange's record. */
    private void logFailure(Exchange ex, String method, String rawPath, Provenance p, String message) {
        ex.provenance = recorded(p);
        log.info("transcode: " + method + " " + rawPath + ": [" + p.wireName() + "] " + message);
    }

    /** The spec's finer failure taxonomy folded into the exchange record's provenance. */
    private static shaper.observe.Provenance recorded(Provenance p) {
        return switch (p) {
            case UPSTREAM_HTTP -> shaper.observe.Provenance.UPSTREAM_HTTP;
            case UPSTREAM_TRANSPORT_ERROR -> shaper.observe.Provenance.UPSTREAM_TRANSPORT;
            case UPSTREAM_BODY_ERROR -> shaper.observe.Provenance.UPSTREAM_BODY;
            case CLIENT_ABORT, DOWNSTREAM_WRITE_ERROR -> shaper.observe.Provenance.CLIENT_ABORT;
            case LOCAL_REQUEST_CONVERSION_ERROR, LOCAL_RESPONSE_CONVERSION_ERROR, LOCAL_STREAM_VALIDATION_ERROR ->
                    shaper.observe.Provenance.LOCAL_CONVERSION;
        };
    }

    /**
     * The client's event stream: committed with the first event (so a failure before any event can
     * still be an HTTP status), flushed per upstream read, a write failure meaning the client left.
     */
    private static final class ClientEvents implements EventSink {
        private final ServerResponse res;
        private OutputStream out;

        ClientEvents(ServerResponse res, EarlyStream early) {
            this.res = res;
            this.out = early == null ? null : early.sink();
        }

        @Override
        public void event(String name, String json) {
            if (out == null) {
                res.status(Status.OK_200).header(HeaderValues.create("Content-Type", "text/event-stream"))
                        .header(HeaderValues.create("Cache-Control", "no-cache"));
                out = res.outputStream();
            }
            try {
                out.write(("event: " + name + "\ndata: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                throw new StreamCopy.SinkFailed(e);
            }
        }

        @Override
        public void flush() {
            if (out == null) {
                return;
            }
            try {
                out.flush();
            } catch (IOException | RuntimeException e) {
                throw new StreamCopy.SinkFailed(e);
            }
        }

        void close() {
            if (out == null) {
                res.status(Status.OK_200).header(HeaderValues.create("Content-Type", "text/event-stream")).send();
                return;
            }
            try {
                out.close();
            } catch (IOException | RuntimeException e) {
                throw new StreamCopy.SinkFailed(e);
            }
        }
    }
}
