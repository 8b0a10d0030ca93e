package shaper.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import shaper.proxy.client.UpstreamResponse;
import io.helidon.webserver.http.ServerResponse;
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
 * A transcoded route's stage in the one request path: the adapter between {@link AttemptLoop} and the
 * pure {@link Transcoder}. {@link #prepare} turns the client body into the upstream request before
 * the first attempt (a local failure is answered here, in the client's dialect, and never reaches
 * the upstream or the breaker); {@link #relay} turns the accepted upstream answer into the client's.
 * Admission, limits, retries, the breaker and the exchange log stay the request path's.
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

    /**
     * One exchange's converted request and the headers step for it.
     *
     * @param calledUrl the URL the call goes to, for a log line (credentials and query hidden); null until the call is built
     */
    record Converted(Prepared prepared, RequestBody body, HeaderRewrite rewrite, String calledUrl) implements Preparation {
        Converted calling(String url) {
            return new Converted(prepared, body, rewrite, url);
        }
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
    Preparation prepare(Carriage c, RequestBody body) {
        Exchange ex = c.exchange();
        long limit = transcoder.mapping().limits().requestBytes();
        RequestBody buffered = RequestBody.buffer(body, (int) Math.min(Integer.MAX_VALUE - 16, limit));
        try {
            if (!(buffered instanceof RequestBody.Buffered) && !(buffered instanceof RequestBody.None)) {
                throw new TranscodeException.TooLarge(limit);
            }
            byte[] bytes = buffered.bytes() == null ? new byte[0] : buffered.bytes();
            Prepared p = transcoder.prepare(bytes, ex.coding().codings(), ex.query());
            return new Converted(p, new RequestBody.Buffered(p.body()), uncoded, null);
        } catch (TranscodeException e) {
            ExchangeResult failed = failure(ExchangeResult.START.failedLocally(), ex, Provenance.LOCAL_REQUEST_CONVERSION_ERROR,
                    e.hint().isEmpty() ? e.getMessage() : e.getMessage() + " (" + e.hint() + ")");
            if (e instanceof TranscodeException.TooLarge) {
                c.sink().closeAfterAnswer(); // the rest of the body is not read
            }
            return new Answered(answer(c.sink(), failed, new ErrorAnswer(e.status(), transcoder.error(e), null, null, false)));
        }
    }

    /**
     * Converts and writes the accepted answer.
     *
     * @throws RelayBroke when the client goes away after the answer was committed, like {@link ResponseRelay}
     */
    ExchangeResult relay(Carriage c, UpstreamResponse in, ResponseRelay.Plan plan, Converted conv, ExchangeResult so) {
        int code = in.status().code();
        InputStream body = plan.decodedBody(in);
        String type = in.headers().first(HeaderNames.CONTENT_TYPE).orElse("").toLowerCase(Locale.ROOT);
        if (plan.status() > 0) {
            String message = Json.errorInfo(plan.prefix()).map(Json.ErrorInfo::message).orElse("upstream stream failed");
            return answer(c.sink(), so, new ErrorAnswer(plan.status(),
                    transcoder.error(new UpstreamError(plan.status(), null, null, message, null, null, null)), plan.retryAfter(), null, true));
        }
        if (code < 200 || code > 299) {
            if (code < 400) {
                return wireFailure(c, so, new TranscodeException.UpstreamWire("upstream answered HTTP " + code));
            }
            byte[] raw = BodyPeek.prefix(body, transcoder.mapping().limits().errorBodyBytes());
            String retryAfter = HeaderPolicy.reemittableRetryAfter(in.headers().first(HeaderNames.RETRY_AFTER).orElse(plan.retryAfter()));
            String requestId = HeaderPolicy.reemittableRequestId(in.headers().first(HeaderNames.create("request-id"))
                    .orElse(in.headers().first(HeaderNames.create("x-request-id")).orElse(null)));
            UpstreamError error = UpstreamError.parse(code, raw, type, requestId, retryAfter);
            if (code == 404) {
                // only the upstream's own words reveal a doubled path (-upstream ending in /v1): say what was called
                log.info("transcode: " + c.exchange().method() + " " + c.exchange().path() + ": upstream answered 404 for " + conv.calledUrl());
            }
            return answer(c.sink(), so, new ErrorAnswer(code, transcoder.error(error), retryAfter, requestId, true));
        }
        boolean sse = type.startsWith("text/event-stream");
        boolean json = type.startsWith("application/json") || type.contains("+json");
        Prepared p = conv.prepared();
        ExchangeResult out;
        if (p.stream() && !sse) {
            out = wireFailure(c, so, new TranscodeException.UpstreamWire(json
                    ? "upstream returned a non-streaming response for a streaming request"
                    : "upstream returned an unrecognized response content type"));
        } else if (!p.stream() && !json) {
            out = wireFailure(c, so, new TranscodeException.UpstreamWire(sse
                    ? "upstream returned a stream for a non-streaming request"
                    : "upstream returned an unrecognized response content type"));
        } else if (sse) {
            out = stream(c, body, p, so);
        } else {
            out = json(c, body, p, so);
        }
        losses.report(c.exchange().method(), c.exchange().path(), p.report());
        return out;
    }

    private ExchangeResult json(Carriage c, InputStream body, Prepared p, ExchangeResult so) {
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
            return wireFailure(c, so, e);
        }
        return c.sink().deliver(new ClientSink.Delivery<>() {
            @Override
            public ExchangeResult whole(ServerResponse res) {
                ExchangeResult committed = so.committed(200);
                res.status(Status.OK_200).header(HeaderValues.CONTENT_TYPE_JSON).header(HeaderNames.CONTENT_LENGTH, Integer.toString(out.length));
                RelayBroke.guard(committed, () -> send(res, out));
                return committed.outcome(Outcome.CLEAN);
            }

            @Override
            public ExchangeResult appended(EarlyStream stream, Dialect dialect) {
                return wireFailure(c, so, new TranscodeException.UpstreamWire("non-streaming answer on a committed stream"));
            }
        });
    }

    private ExchangeResult stream(Carriage c, InputStream body, Prepared p, ExchangeResult so) {
        ClientEvents events = c.sink().events();
        ExchangeResult committed = so.committed(200);
        StreamConversion conversion = transcoder.stream(events, p);
        byte[] buf = new byte[StreamCopy.BUFFER];
        try {
            while (true) {
                int n;
                try {
                    n = body.read(buf);
                } catch (IOException | UncheckedIOException e) {
                    ExchangeResult broke = failure(committed.failure(FailureClass.TRANSPORT_ERROR), c.exchange(),
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
            ExchangeResult failed = failure(e.upstreamFailure() ? committed.failure(FailureClass.BODY_ERROR) : committed, c.exchange(),
                    Provenance.ofResponseFailure(e), e.getMessage());
            Runnable failEvents = () -> RelayBroke.guard(failed, () -> {
                conversion.fail(transcoder.errorType(e.status()), e.getMessage());
                events.close();
            });
            return c.sink().deliver(new ClientSink.Delivery<>() {
                @Override
                public ExchangeResult whole(ServerResponse res) {
                    if (!conversion.started()) {
                        return answer(c.sink(), failed, new ErrorAnswer(e.status(), transcoder.error(e), null, null, false));
                    }
                    failEvents.run();
                    return failed.outcome(Outcome.ABORTED);
                }

                @Override
                public ExchangeResult appended(EarlyStream stream, Dialect dialect) {
                    failEvents.run();
                    return failed.outcome(Outcome.ABORTED);
                }
            });
        }
        RelayBroke.guard(committed, events::close);
        return committed.outcome(Outcome.CLEAN);
    }

    private ExchangeResult wireFailure(Carriage c, ExchangeResult so, TranscodeException e) {
        ExchangeResult failed = failure(e.upstreamFailure() ? so.failure(FailureClass.BODY_ERROR) : so, c.exchange(),
                Provenance.ofResponseFailure(e), e.getMessage());
        return answer(c.sink(), failed, new ErrorAnswer(e.status(), transcoder.error(e), null, null, false));
    }

    /**
     * An error answer in the client's dialect.
     *
     * @param retryAfter the {@code Retry-After} value, or null
     * @param requestId  the upstream's request id, or null
     * @param relayed    the error is the upstream's, relayed in the client's dialect (a completed
     *                   exchange, like a passthrough error status); else the proxy's own answer (failed)
     */
    private record ErrorAnswer(int status, byte[] body, String retryAfter, String requestId, boolean relayed) {
    }

    /** A complete error answer, or one error event on a stream committed early. */
    private ExchangeResult answer(ClientSink sink, ExchangeResult so, ErrorAnswer a) {
        return sink.deliver(new ClientSink.Delivery<>() {
            @Override
            public ExchangeResult whole(ServerResponse res) {
                ExchangeResult answered = so.committed(a.status()).outcome(a.relayed() ? Outcome.CLEAN : Outcome.FAILED);
                RelayBroke.guard(answered, () -> sink.sendError(a.status(), a.body(), a.retryAfter(), a.requestId()));
                return answered;
            }

            @Override
            public ExchangeResult appended(EarlyStream stream, Dialect dialect) {
                ClientEvents events = sink.events();
                transcoder.earlyError(events, transcoder.errorType(a.status()), errorMessage(a.body()));
                events.close();
                return so.committed(200).outcome(Outcome.ABORTED);
            }
        });
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

    /** Logs the failure and puts its provenance on the exchange. */
    private ExchangeResult failure(ExchangeResult so, Exchange ex, Provenance p, String message) {
        log.info("transcode: " + ex.method() + " " + ex.path() + ": [" + p.wireName() + "] " + message);
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
