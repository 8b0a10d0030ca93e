package shaper.proxy;

import java.io.EOFException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.observe.ExchangeLog;
import shaper.observe.Outcome;
import shaper.retry.FailureClass;
import shaper.retry.HeaderLookup;
import shaper.retry.RetryAfter;
import shaper.retry.UpstreamFailures;

/**
 * Sends one admitted request upstream and relays the answer.
 *
 * <pre>
 * client ──request head──▶ Forwarder ──filtered head + streamed body──▶ upstream
 * client ◀──streamed body, flushed per read── Forwarder ◀──status, filtered head── upstream
 * </pre>
 *
 * Errors before any response byte reach the client as {@code 502}; once the response is
 * committed, a failure on either side aborts the client connection (so a truncated body can never
 * look complete) and closes the upstream connection (so the upstream stops generating). On a
 * queue-comment stream, which is committed before admission, only a 2xx body is appended; any
 * other answer ends the stream with a failure comment and never leaks the upstream error body.
 */
final class Forwarder {
    private final String provider;
    private final Upstream upstream;
    private final ExchangeLog log;
    private final HeaderRewrite rewrite;

    Forwarder(String provider, Upstream upstream, ExchangeLog log, HeaderRewrite rewrite) {
        this.provider = provider;
        this.upstream = upstream;
        this.log = log;
        this.rewrite = rewrite;
    }

    /** @param rawPath the path to send upstream: the request's, with its mount prefix taken off */
    void forward(ServerRequest req, ServerResponse res, String rawPath, RequestBody body, QueueCommentStream committed, Exchange ex) {
        String method = req.prologue().method().text();
        Http1ClientRequest out = upstream.client().method(Method.create(method))
                .uri(upstream.requestUri(rawPath, req.prologue().query().rawValue()))
                .skipUriEncoding(true)
                .followRedirects(false)
                .sendExpectContinue(false)
                .keepAlive(upstream.keepAlive());
        if (!req.headers().contains(HeaderNames.USER_AGENT)) {
            out.property(ClientHeaderGuard.NO_USER_AGENT, "true");
        }
        out.headers(h -> HeaderPolicy.forEachRequestHeader(req.headers(),
                (name, values) -> h.add(HeaderValues.create(HeaderNames.create(name), values))));
        out.headers(rewrite::apply);

        HttpClientResponse in;
        ex.reachedUpstream = true;
        try {
            in = send(body, out);
        } catch (StreamCopy.SourceFailed clientLeft) {
            ex.clientAborted = true;
            ex.outcome = Outcome.ABORTED;
            return;
        } catch (RuntimeException e) {
            log.info("upstream error provider=" + provider + " method=" + method + " path=" + rawPath
                    + " error=" + TransportErrors.describe(e));
            ex.failure = FailureClass.TRANSPORT_ERROR;
            if (committed != null) {
                ex.status = 200;
                committed.fail("upstream");
                return;
            }
            ex.status = 502;
            ex.outcome = Outcome.FAILED;
            LocalAnswers.text(res, Status.BAD_GATEWAY_502, LocalAnswers.BAD_GATEWAY);
            return;
        }
        classify(in, ex);
        relay(in, res, method, committed, ex);
    }

    private static void classify(HttpClientResponse in, Exchange ex) {
        HeaderLookup headers = name -> {
            List<String> values = in.headers().values(HeaderNames.create(name));
            return values;
        };
        Instant now = Instant.now();
        ex.failure = UpstreamFailures.classify(in.status().code(), headers, now);
        ex.retryAfter = RetryAfter.remaining(headers, now).orElse(Duration.ZERO);
    }

    private static HttpClientResponse send(RequestBody body, Http1ClientRequest out) {
        if (body instanceof RequestBody.None) {
            return out.request();
        }
        long length = body.length();
        if (length >= 0) {
            out.header(HeaderNames.CONTENT_LENGTH, Long.toString(length));
        }
        return out.outputStream(os -> {
            StreamCopy.copy(body.open(), os, length);
            os.close();
        });
    }

    private static void relay(HttpClientResponse in, ServerResponse res, String method, QueueCommentStream committed, Exchange ex) {
        boolean complete = false;
        try {
            if (committed != null) {
                appendToCommitted(in, committed, ex);
            } else {
                copyResponse(in, res, method, ex);
            }
            complete = true;
        } catch (StreamCopy.SinkFailed clientLeft) {
            ex.clientAborted = true;
            throw new CloseConnectionException("client left mid-response", clientLeft);
        } catch (StreamCopy.SourceFailed upstreamBroke) {
            // Dropping the client connection is the only honest signal once a status is committed:
            // finishing the response normally would make a truncated body look complete.
            ex.failure = ex.failure.isUpstreamFailure() ? ex.failure : FailureClass.TRANSPORT_ERROR;
            throw new CloseConnectionException("upstream broke off mid-response", upstreamBroke);
        } finally {
            if (!complete) {
                ex.outcome = Outcome.ABORTED;
            }
            // Closing an unfinished response drops the upstream connection instead of pooling it.
            in.close();
        }
    }

    private static void appendToCommitted(HttpClientResponse in, QueueCommentStream committed, Exchange ex) {
        ex.status = 200;
        int code = in.status().code();
        if (code < 200 || code > 299) {
            committed.fail("upstream");
            ex.outcome = Outcome.ABORTED;
            return;
        }
        StreamCopy.copy(in.inputStream(), committed.sink(), -1);
        closeSink(committed.sink());
        ex.outcome = Outcome.CLEAN;
    }

    private static void copyResponse(HttpClientResponse in, ServerResponse res, String method, Exchange ex) {
        int code = in.status().code();
        ex.status = code;
        res.status(in.status());
        HeaderPolicy.forEachResponseHeader(in.headers(),
                (name, values) -> res.header(HeaderValues.create(HeaderNames.create(name), values)));
        long length = in.headers().contentLength().orElse(-1L);
        if (!hasBody(method, code) || length == 0) {
            if (length >= 0 && method.equalsIgnoreCase("HEAD")) {
                res.header(HeaderNames.CONTENT_LENGTH, Long.toString(length));
            }
            res.send();
            ex.outcome = Outcome.CLEAN;
            return;
        }
        if (length > 0) {
            res.header(HeaderNames.CONTENT_LENGTH, Long.toString(length));
        }
        OutputStream sink = res.outputStream();
        long copied = StreamCopy.copy(in.inputStream(), sink, length);
        if (length >= 0 && copied < length) {
            throw new StreamCopy.SourceFailed(new EOFException("upstream body ended at " + copied + " of " + length + " bytes"));
        }
        closeSink(sink);
        ex.outcome = Outcome.CLEAN;
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
