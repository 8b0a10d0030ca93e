package shaper.proxy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.helidon.http.HeaderNames;
import io.helidon.http.WritableHeaders;
import shaper.config.UpstreamUrl;
import shaper.observe.Header;
import shaper.proxy.client.OutgoingBody;
import shaper.proxy.client.UpstreamClient;
import shaper.proxy.client.UpstreamResponse;
import shaper.proxy.watch.CallWatch;

/**
 * One upstream attempt of a request: the same method, raw target and filtered headers each time,
 * with the given body. Transport failures surface as runtime exceptions; a client that breaks off
 * while its body streams surfaces as {@link StreamCopy.SourceFailed}.
 */
final class UpstreamCall {
    private final Exchange exchange;
    private final Upstreams.Destination to;
    private final Duration timeout;
    private final HeaderRewrite rewrite;
    private volatile List<Header> sent = List.of();

    /**
     * @param exchange the request: its method and header fields go upstream
     * @param to       the upstream, raw path and query the call goes to (the client's, or a transcoded route's)
     * @param timeout  {@code -upstream-timeout}, the whole call's bound
     * @param rewrite  the credential step applied to the filtered header fields
     */
    UpstreamCall(Exchange exchange, Upstreams.Destination to, Duration timeout, HeaderRewrite rewrite) {
        this.exchange = exchange;
        this.to = to;
        this.timeout = timeout;
        this.rewrite = rewrite;
    }

    /** The same call for a body the proxy decoded and rewrote: without the client's {@code Content-Encoding}. */
    UpstreamCall uncoded() {
        return new UpstreamCall(exchange, to, timeout, rewrite.uncoded());
    }

    /** The headers the last {@link #send} sent, for the journal ({@link JournalHeaders#sent}); empty before one. */
    List<Header> sentHeaders() {
        return sent;
    }

    /** The upstream this call goes to. */
    Upstreams.Upstream upstream() {
        return to.upstream();
    }

    /** The URL this call goes to, for a log line (credentials and query hidden). */
    String displayUrl() {
        URI base = to.upstream().base();
        return UpstreamUrl.display(URI.create(base.getScheme() + "://" + base.getRawAuthority()
                + Upstreams.pathAndQuery(base, to.path(), null)));
    }

    /**
     * The upstream's {@code Location} as a path on this proxy (mount prefix in front), or empty when
     * it points outside what the provider's upstreams serve.
     */
    Optional<String> redirect(UpstreamResponse in, Upstreams upstreams) {
        URI base = to.upstream().base();
        URI requested = URI.create(base.getScheme() + "://" + base.getRawAuthority() + Upstreams.pathAndQuery(base, to.path(), to.query()));
        String location = in.headers().first(HeaderNames.LOCATION).orElse("");
        return Redirects.rewrite(location, requested, base, p -> upstreams.forPath(p) == to.upstream())
                .map(proxyPath -> upstreams.mountPrefix() + proxyPath);
    }

    /**
     * Sends the request. A body that fails midway (the client left, or the upstream stopped
     * reading) closes the upstream connection before the failure propagates, so the upstream sees
     * the request end and stops counting it.
     *
     * @param watch told when the body has been sent, so the idle client can be watched
     * @param trace the attempt's own trace context fields, which replace the client's; empty to pass the client's as they are
     * @throws UncheckedIOException when the upstream cannot be reached or breaks off before its head
     */
    UpstreamResponse send(RequestBody body, CallWatch.Call watch, List<Header> trace) {
        WritableHeaders<?> fields = WritableHeaders.create();
        HeaderPolicy.forEachRequestHeader(exchange.headers(), fields::add);
        rewrite.apply(fields);
        for (Header h : trace) {
            fields.set(HeaderNames.create(h.name()), h.value());
        }
        sent = JournalHeaders.sent(exchange.headers(), fields);
        try {
            return to.upstream().client().send(new UpstreamClient.Request(exchange.method(), to.upstream().target(to.path(), to.query()),
                    fields, outgoing(body)), timeout, watch::awaiting);
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
