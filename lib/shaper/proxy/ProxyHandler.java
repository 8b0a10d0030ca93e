package shaper.proxy;

import java.io.EOFException;
import java.io.InputStream;
import java.io.OutputStream;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.observe.ExchangeCounters;
import shaper.observe.ExchangeLog;
import shaper.observe.Outcome;

/**
 * The transparent streaming passthrough for one provider.
 *
 * <pre>
 * client ──request head──▶ ProxyHandler ──filtered head + streamed body──▶ upstream
 * client ◀──streamed body, flushed per read── ProxyHandler ◀──status, filtered head── upstream
 * </pre>
 *
 * Errors before any response byte reach the client as {@code 502}; once the response is
 * committed, a failure on either side aborts the client connection (so a truncated body can never
 * look complete) and closes the upstream connection (so the upstream stops generating).
 */
public final class ProxyHandler implements Handler {
    private static final System.Logger LOG = System.getLogger(ProxyHandler.class.getName());

    private final String provider;
    private final Upstream upstream;
    private final ExchangeLog log;
    private final ExchangeCounters counters;

    public ProxyHandler(String provider, Upstream upstream, ExchangeLog log, ExchangeCounters counters) {
        this.provider = provider;
        this.upstream = upstream;
        this.log = log;
        this.counters = counters;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        long start = System.nanoTime();
        String method = req.prologue().method().text();
        String rawPath = req.prologue().uriPath().rawPath();
        Exchange exchange = new Exchange();
        try {
            forward(req, res, method, rawPath, exchange);
        } finally {
            counters.record(exchange.status, exchange.outcome, false);
            log.exchange(provider, method, rawPath, exchange.status, System.nanoTime() - start, exchange.outcome);
        }
    }

    /** What the finally block reports; written by the forwarding thread only. */
    private static final class Exchange {
        int status;
        Outcome outcome = Outcome.ABORTED;
    }

    private void forward(ServerRequest req, ServerResponse res, String method, String rawPath, Exchange exchange) {
        Http1ClientRequest out = upstream.client().method(Method.create(method))
                .uri(upstream.requestUri(rawPath, req.prologue().query().rawValue()))
                .skipUriEncoding(true)
                .followRedirects(false)
                .sendExpectContinue(false);
        if (!req.headers().contains(HeaderNames.USER_AGENT)) {
            out.property(ClientHeaderGuard.NO_USER_AGENT, "true");
        }
        out.headers(h -> HeaderPolicy.forEachRequestHeader(req.headers(),
                (name, values) -> h.add(HeaderValues.create(HeaderNames.create(name), values))));

        HttpClientResponse in;
        try {
            in = send(req, out);
        } catch (StreamCopy.SourceFailed clientLeft) {
            exchange.outcome = Outcome.ABORTED;
            return;
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "upstream request failed", e);
            log.info("upstream error provider=" + provider + " method=" + method + " path=" + rawPath
                    + " error=" + TransportErrors.describe(e));
            exchange.status = 502;
            exchange.outcome = Outcome.FAILED;
            res.status(Status.BAD_GATEWAY_502).header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).send("bad gateway: upstream unreachable\n");
            return;
        }
        relay(in, res, method, exchange);
    }

    private static HttpClientResponse send(ServerRequest req, Http1ClientRequest out) {
        if (!req.content().hasEntity()) {
            return out.request();
        }
        long length = req.headers().contentLength().orElse(-1L);
        if (length >= 0) {
            out.header(HeaderNames.CONTENT_LENGTH, Long.toString(length));
        }
        InputStream body = req.content().inputStream();
        return out.outputStream(os -> {
            StreamCopy.copy(body, os, length);
            os.close();
        });
    }

    private static void relay(HttpClientResponse in, ServerResponse res, String method, Exchange exchange) {
        boolean complete = false;
        try {
            copyResponse(in, res, method, exchange);
            complete = true;
        } catch (StreamCopy.SourceFailed | StreamCopy.SinkFailed broken) {
            // Dropping the client connection is the only honest signal once a status is committed:
            // finishing the response normally would make a truncated body look complete.
            throw new CloseConnectionException("exchange aborted", broken);
        } finally {
            if (!complete) {
                exchange.outcome = Outcome.ABORTED;
            }
            // Closing an unfinished response drops the upstream connection instead of pooling it.
            in.close();
        }
    }

    private static void copyResponse(HttpClientResponse in, ServerResponse res, String method, Exchange exchange) {
        int code = in.status().code();
        exchange.status = code;
        res.status(in.status());
        HeaderPolicy.forEachResponseHeader(in.headers(),
                (name, values) -> res.header(HeaderValues.create(HeaderNames.create(name), values)));
        long length = in.headers().contentLength().orElse(-1L);
        if (!hasBody(method, code) || length == 0) {
            if (length >= 0 && method.equalsIgnoreCase("HEAD")) {
                res.header(HeaderNames.CONTENT_LENGTH, Long.toString(length));
            }
            res.send();
            exchange.outcome = Outcome.CLEAN;
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
        exchange.outcome = Outcome.CLEAN;
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
