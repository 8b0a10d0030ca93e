package shaper.proxy;

import java.time.Duration;
import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.http.ServerRequest;
import shaper.proxy.watch.CallWatch;

/**
 * One upstream attempt of a request: the same method, raw target and filtered headers each time,
 * with the given body. Transport failures surface as runtime exceptions; a client that breaks off
 * while its body streams surfaces as {@link StreamCopy.SourceFailed}.
 */
final class UpstreamCall {
    private final ServerRequest req;
    private final Upstream upstream;
    private final String rawPath;
    private final String rawQuery;
    private final Duration timeout;
    private final HeaderRewrite rewrite;
    private volatile List<shaper.observe.Header> sent = List.of();

    UpstreamCall(ServerRequest req, Upstream upstream, String rawPath, Duration timeout, HeaderRewrite rewrite) {
        this(req, upstream, rawPath, req.prologue().query().rawValue(), timeout, rewrite);
    }

    /** A call to another target than the client's: a transcoded route's upstream path and allowed query. */
    UpstreamCall(ServerRequest req, Upstream upstream, String rawPath, String rawQuery, Duration timeout, HeaderRewrite rewrite) {
        this.rawQuery = rawQuery == null ? "" : rawQuery;
        this.req = req;
        this.upstream = upstream;
        this.rawPath = rawPath;
        this.timeout = timeout;
        this.rewrite = rewrite;
    }

    Upstream upstream() {
        return upstream;
    }

    /** The same call for a body the proxy decoded and rewrote: without the client's {@code Content-Encoding}. */
    UpstreamCall uncoded() {
        return new UpstreamCall(req, upstream, rawPath, rawQuery, timeout, rewrite.uncoded());
    }

    /** The headers the last {@link #send} sent, for the journal ({@link JournalHeaders#sent}); empty before one. */
    List<shaper.observe.Header> sentHeaders() {
        return sent;
    }

    /** The URL this call goes to, for a log line (credentials and query hidden). */
    String displayUrl() {
        return shaper.config.UpstreamUrl.display(java.net.URI.create(upstream.base().getScheme() + "://"
                + upstream.base().getRawAuthority() + UpstreamUris.pathAndQuery(upstream.base(), rawPath, null)));
    }

    /**
     * The upstream's {@code Location} as a path on this proxy (mount prefix in front), or empty when
     * it points outside what the provider's upstreams serve.
     */
    java.util.Optional<String> redirect(HttpClientResponse in, Upstreams upstreams) {
        java.net.URI requested = java.net.URI.create(upstream.base().getScheme() + "://" + upstream.base().getRawAuthority()
                + UpstreamUris.pathAndQuery(upstream.base(), rawPath, rawQuery));
        String location = in.headers().first(HeaderNames.LOCATION).orElse("");
        return Redirects.rewrite(location, requested, upstream.base(), p -> upstreams.forPath(p) == upstream)
                .map(proxyPath -> upstreams.mountPrefix() + proxyPath);
    }

    /**
     * Sends the request. A body that fails midway (the client left, or the upstream stopped
     * reading) closes the upstream connection before the failure propagates: Helidon would
     * otherwise keep the half-sent request open, and the upstream would go on counting it.
     *
     * @param watch told when the body has been sent, so the idle client can be watched
     */
    HttpClientResponse send(RequestBody body, CallWatch.Call watch) {
        Http1ClientRequest out = upstream.client().method(Method.create(req.prologue().method().text()))
                .uri(upstream.requestUri(rawPath, rawQuery))
                .skipUriEncoding(true)
                .followRedirects(false)
                .sendExpectContinue(false)
                .readTimeout(timeout)
                .keepAlive(upstream.keepAlive());
        if (!req.headers().contains(HeaderNames.USER_AGENT)) {
            out.property(ClientHeaderGuard.NO_USER_AGENT, "true");
        }
        out.headers(h -> HeaderPolicy.forEachRequestHeader(req.headers(), h::add));
        out.headers(rewrite::apply);
        long length = body instanceof RequestBody.None ? -1 : body.length();
        if (length >= 0) {
            out.header(HeaderNames.CONTENT_LENGTH, Long.toString(length));
        }
        sent = JournalHeaders.sent(req.headers(), out.headers());
        if (body instanceof RequestBody.None) {
            return out.request();
        }
        return out.outputStream(os -> {
            try {
                byte[] inMemory = body.bytes();
                if (inMemory != null) {
                    writeAll(os, inMemory); // no copy loop (and no copy buffer) for a body already in memory
                } else {
                    StreamCopy.copy(body.open(), os, length);
                }
            } catch (RuntimeException e) {
                HelidonInternals.abortRequest(os);
                throw e;
            }
            os.close();
            watch.awaiting();
        });
    }

    private static void writeAll(java.io.OutputStream os, byte[] bytes) {
        try {
            os.write(bytes);
        } catch (java.io.IOException | RuntimeException e) {
            throw new StreamCopy.SinkFailed(e);
        }
    }
}
