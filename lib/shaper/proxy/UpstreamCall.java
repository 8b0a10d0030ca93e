package shaper.proxy;

import java.time.Duration;
import java.util.List;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

import io.helidon.http.HeaderNames;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.http.ServerRequest;
import shaper.proxy.client.OutgoingBody;
import shaper.proxy.client.UpstreamResponse;
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
    java.util.Optional<String> redirect(UpstreamResponse in, Upstreams upstreams) {
        java.net.URI requested = java.net.URI.create(upstream.base().getScheme() + "://" + upstream.base().getRawAuthority()
                + UpstreamUris.pathAndQuery(upstream.base(), rawPath, rawQuery));
        String location = in.headers().first(HeaderNames.LOCATION).orElse("");
        return Redirects.rewrite(location, requested, upstream.base(), p -> upstreams.forPath(p) == upstream)
                .map(proxyPath -> upstreams.mountPrefix() + proxyPath);
    }

    /**
     * Sends the request. A body that fails midway (the client left, or the upstream stopped
     * reading) closes the upstream connection before the failure propagates, so the upstream sees
     * the request end and stops counting it.
     *
     * @param watch told when the body has been sent, so the idle client can be watched
     * @throws UncheckedIOException when the upstream cannot be reached or breaks off before its head
     */
    UpstreamResponse send(RequestBody body, CallWatch.Call watch) {
        WritableHeaders<?> fields = WritableHeaders.create();
        HeaderPolicy.forEachRequestHeader(req.headers(), fields::add);
        rewrite.apply(fields);
        sent = JournalHeaders.sent(req.headers(), fields);
        try {
            return upstream.client().send(req.prologue().method().text(), upstream.target(rawPath, rawQuery), fields,
                    outgoing(body), timeout, watch::awaiting);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static OutgoingBody outgoing(RequestBody body) {
        if (body instanceof RequestBody.None) {
            return OutgoingBody.NONE;
        }
        byte[] inMemory = body.bytes();
        long length = body.length();
        return new OutgoingBody() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public boolean replayable() {
                return inMemory != null;
            }

            @Override
            public void writeTo(OutputStream out) throws IOException {
                if (inMemory != null) {
                    out.write(inMemory); // no copy loop (and no copy buffer) for a body already in memory
                } else {
                    StreamCopy.copy(body.open(), out, length);
                }
            }
        };
    }
}
