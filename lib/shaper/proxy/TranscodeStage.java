package shaper.proxy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import shaper.proxy.client.UpstreamResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.codec.ContentCodings;
import shaper.observe.ExchangeLog;
import shaper.observe.Outcome;
import shaper.retry.FailureClass;
import shaper.transcode.pipeline.Prepared;
import shaper.transcode.Provenance;
import shaper.transcode.pipeline.StreamConversion;
import shaper.transcode.TranscodeException;
import shaper.transcode.pipeline.Transcoder;
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
    /** The route's credential step, after dropping the client's {@code Content-Encoding}. */
    private final HeaderRewrite uncoded;
    private final ExchangeLog log;
    private final LossLog losses;

    /** What {@link #prepare} concluded: the converted request, or a local answer already given. */
    sealed interface Preparation permits Converted, Answered {
    }

    /** One exchange's converted request and the headers step for it. */
    record Converted(Prepared prepared, RequestBody body, HeaderRewrite rewrite) implements Preparation {
    }

    /** The request was refused locally (answered in the client's dialect); the exchange ended so. */
    record Answered(ExchangeResult result) implements Preparation {
    }

    TranscodeStage(Transcoder transcoder, HeaderRewrite rewrite, ExchangeLog log) {
        this.transcoder = transcoder;
        this.log = log;
        // the converted body is new, uncompressed JSON: the client's coding no longer describes it
        this.uncoded = rewrite.uncoded();
        this.losses = new LossLog(log);
    }

    /** Converts the client request, or refuses it locally: a failed local answer, never sent upstream. */
    Preparation prepare(ServerRequest req, ClientSink sink, String rawPath, RequestBody body, ExchangeResult so) {
        long limit = transcoder.mapping().limits().requestBytes();
        RequestBody buffered = RequestBody.buffer(body, (int) Math.min(Integer.MAX_VALUE - 16, limit));
        try {
            if (!(buffered instanceof RequestBody.Buffered) && !(buffered instanceof RequestBody.None)) {
                throw new TranscodeException.TooLarge(limit);
            }
            byte[] bytes = buffered.bytes() == null ? new byte[0] : buffered.bytes();
            ContentCodings codings = RequestCoding.codingsOf(req);
            Prepared p = transcoder.prepare(bytes, codings, req.prologue().query().rawValue());
            return new Converted(p, new RequestBody.Buffered(p.body()), uncoded);
        } catch (TranscodeException e) {
            ExchangeResult failed = failure(so.failedLocally(), req.prologue().method().text(), rawPath,
                    Provenance.LOCAL_REQUEST_CONVERSION_ERROR, e.hint().isEmpty() ? e.getMessage() : e.getMessage() + " (" + e.hint() + ")");
            if (e instanceof TranscodeException.TooLarge) {
                sink.response().header(HeaderNames.CONNECTION, "close"); // the rest of the body is not read
            }
            return new Answered(answer(sink, failed, e.status(), transcoder.error(e), null, null, false));
        }
    }

    /**
     * Converts and writes the accepted answer.
     *
     * @throws RelayBroke when the client goes away after the answer was committed, like {@link ResponseRelay}
     */
    ExchangeResult relay(UpstreamResponse in, ClientSink sink, String method, String rawPath, ResponseRelay.Plan plan, Converted c,
                         String calledUrl, ExchangeResult so) {
        int code = in.status().code();
        InputStream body = decoded(in, plan);
        String type = in.headers().first(HeaderNames.CONTENT_TYPE).orElse("").toLowerCase(Locale.ROOT);
        if (plan.status() > 0) {
            String message = Json.errorInfo(plan.prefix()).map(Json.ErrorInfo::message).orElse("upstream stream failed");
            return answer(sink, so, plan.status(), transcoder.error(new UpstreamError(plan.status(), null, null, message, null, null, null)),
                    plan.retryAfter(), null, true);
        }
        if (code < 200 || code > 299) {
            if (code < 400) {
                return wireFailure(sink, method, rawPath, so, new TranscodeException.UpstreamWire("upstream answered HTTP " + code));
            }
            byte[] raw = BodyPeek.prefix(body, transcoder.mapping().limits().errorBodyBytes());
            String retryAfter = in.headers().first(HeaderNames.RETRY_AFTER).orElse(plan.retryAfter());
            String requestId = in.headers().first(HeaderNames.create("request-id"))
                    .orElse(in.headers().first(HeaderNames.create("x-request-id")).orElse(null));
            UpstreamError error = UpstreamError.parse(code, raw, type, requestId, retryAfter);
            if (code == 404) {
                // only the upstream's own words reveal a doubled path (-upstream ending in /v1): say what was called
                log.info("transcode: " + method + " " + rawPath + ": upstream answered 404 for " + calledUrl);
            }
            return answer(sink, so, code, transcoder.error(error), retryAfter, requestId, true);
        }
        boolean sse = type.startsWith("text/event-stream");
        boolean json = type.startsWith("application/json") || type.contains("+json");
        Prepared p = c.prepared();
        ExchangeResult out;
        if (p.stream() && !sse) {
            out = wireFailure(sink, method, rawPath, so, new TranscodeException.UpstreamWire(json
                    ? "upstream returned a non-streaming response for a streaming request"
                    : "upstream returned an unrecognized response content type"));
        } else if (!p.stream() && !json) {
            out = wireFailure(sink, method, rawPath, so, new TranscodeException.UpstreamWire(sse
                    ? "upstream returned a stream for a non-streaming request"
                    : "upstream returned an unrecognized response content type"));
        } else if (sse) {
            out = stream(body, sink, method, rawPath, p, so);
        } else {
            out = json(body, sink, method, rawPath, p, so);
        }
        losses.report(method, rawPath, p.report());
        return out;
    }

    private ExchangeResult json(InputStream body, ClientSink sink, String method, String rawPath, Prepared p, ExchangeResult so) {
        long limit = transcoder.mapping().limits().responseBytes();
        byte[] bytes = BodyPeek.prefix(body, (int) Math.min(Integer.MAX_VALUE - 16, limit + 1));
        byte[] out;
        try {
            if (bytes.length > limit) {
                throw new TranscodeException.UpstreamWire("upstream response exceeds -transcode-max-response-mb ("
                        + limit / (1024 * 1024) + " MiB)");
            }
            out = transcoder.answer(bytes, p);
        } catch (TranscodeException e) {
            return wireFailure(sink, method, rawPath, so, e);
        }
        if (!(sink.state() instanceof ClientSink.NotCommitted)) {
            return wireFailure(sink, method, rawPath, so, new TranscodeException.UpstreamWire("non-streaming answer on a committed stream"));
        }
        ExchangeResult committed = so.committed(200);
        ServerResponse res = sink.response();
        res.status(Status.OK_200).header(HeaderValues.CONTENT_TYPE_JSON).header(HeaderNames.CONTENT_LENGTH, Integer.toString(out.length));
        RelayBroke.guard(committed, () -> send(res, out));
        return committed.outcome(Outcome.CLEAN);
    }

    private ExchangeResult stream(InputStream body, ClientSink sink, String method, String rawPath, Prepared p, ExchangeResult so) {
        ClientEvents events = new ClientEvents(sink);
        ExchangeResult committed = so.committed(200);
        StreamConversion conversion = transcoder.stream(events, p);
        byte[] buf = new byte[StreamCopy.BUFFER];
        try {
            while (true) {
                int n;
                try {
                    n = body.read(buf);
                } catch (IOException | UncheckedIOException e) {
                    ExchangeResult broke = failure(committed.failure(FailureClass.TRANSPORT_ERROR), method, rawPath,
                            Provenance.UPSTREAM_TRANSPORT_ERROR, "upstream stream broke off: " + TransportErrors.words(e));
                    RelayBroke.guard(broke, () -> {
                        conversion.fail("api_error", "upstream stream broke off");
                        events.close();
                    });
                    return broke.outcome(Outcome.ABORTED);
                }
                if (n < 0) {
                    conversion.end();
                    break;
                }
                int got = n;
                RelayBroke.guard(committed, () -> conversion.feed(buf, 0, got));
            }
        } catch (TranscodeException e) {
            ExchangeResult failed = failure(e.upstreamFailure() ? committed.failure(FailureClass.BODY_ERROR) : committed, method, rawPath,
                    Provenance.ofResponseFailure(e), e.getMessage());
            if (!conversion.started() && sink.state() instanceof ClientSink.NotCommitted) {
                return answer(sink, failed, e.status(), transcoder.error(e), null, null, false);
            }
            RelayBroke.guard(failed, () -> {
                conversion.fail(transcoder.errorType(e.status()), e.getMessage());
                events.close();
            });
            return failed.outcome(Outcome.ABORTED);
        }
        RelayBroke.guard(committed, events::close);
        return committed.outcome(Outcome.CLEAN);
    }

    private ExchangeResult wireFailure(ClientSink sink, String method, String rawPath, ExchangeResult so, TranscodeException e) {
        ExchangeResult failed = failure(e.upstreamFailure() ? so.failure(FailureClass.BODY_ERROR) : so, method, rawPath,
                Provenance.ofResponseFailure(e), e.getMessage());
        return answer(sink, failed, e.status(), transcoder.error(e), null, null, false);
    }

    /**
     * A complete error answer in the client's dialect, or one error event on a stream committed early.
     *
     * @param relayed the error is the upstream's, relayed in the client's dialect (a completed
     *                exchange, like a passthrough error status); else the proxy's own answer (failed)
     */
    private ExchangeResult answer(ClientSink sink, ExchangeResult so, int status, byte[] body, String retryAfter, String requestId,
                                  boolean relayed) {
        return switch (sink.state()) {
            case ClientSink.CommittedStream c -> {
                ClientEvents events = new ClientEvents(sink);
                transcoder.earlyError(events, transcoder.errorType(status), errorMessage(body));
                events.close();
                yield so.committed(200).outcome(Outcome.ABORTED);
            }
            case ClientSink.NotCommitted n -> {
                ExchangeResult answered = so.committed(status).outcome(relayed ? Outcome.CLEAN : Outcome.FAILED);
                RelayBroke.guard(answered, () -> sink.sendError(status, body, retryAfter, requestId));
                yield answered;
            }
        };
    }

    private static void send(ServerResponse res, byte[] body) {
        try {
            res.send(body);
        } catch (RuntimeException e) {
            throw new StreamCopy.SinkFailed(e);
        }
    }

    private static String errorMessage(byte[] body) {
        return Json.errorInfo(body).map(Json.ErrorInfo::message).orElse("transcoding failed");
    }

    private static InputStream decoded(UpstreamResponse in, ResponseRelay.Plan plan) {
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

    /** Logs the failure and puts its provenance on the exchange. */
    private ExchangeResult failure(ExchangeResult so, String method, String rawPath, Provenance p, String message) {
        log.info("transcode: " + method + " " + rawPath + ": [" + p.wireName() + "] " + message);
        return so.provenance(recorded(p));
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
}
