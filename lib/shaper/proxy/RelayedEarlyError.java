package shaper.proxy;

import shaper.proxy.client.UpstreamResponse;
import shaper.sse.EarlyErrorInspector;
import shaper.sse.InspectorVerdict;

/**
 * {@code -inspect-sse} for an answer whose request cannot be retried (retries off, a streamed body,
 * one over {@code -retry-max-body-mb}): nothing is held back, since there is nothing to retry, but
 * the start of the 2xx event stream is read as the relay passes it on, and an error frame before any
 * output is still the upstream saying it is overloaded; the adaptive limit hears it. Only a plain
 * (identity-coded) stream is read: a compressed one would have to be decoded twice. Belongs to the
 * relaying thread; the inspector keeps at most its {@link EarlyErrorInspector#DEFAULT_LIMIT} bytes.
 */
final class RelayedEarlyError {
    private EarlyErrorInspector inspector = new EarlyErrorInspector();
    private boolean seen;

    /** A watch for {@code in}, or null when it is not a plain 2xx event stream. */
    static RelayedEarlyError of(UpstreamResponse in) {
        int code = in.status().code();
        String encoding = in.headers().first(io.helidon.http.HeaderNames.CONTENT_ENCODING).orElse("identity").trim();
        return code >= 200 && code < 300 && BodyPeek.isEventStream(in) && encoding.equalsIgnoreCase("identity")
                ? new RelayedEarlyError() : null;
    }

    /** Looks at the next relayed bytes until the inspector decides. */
    void feed(byte[] b, int off, int n) {
        if (inspector == null) {
            return;
        }
        InspectorVerdict v = inspector.feed(b, off, n);
        if (!(v instanceof InspectorVerdict.Undecided)) {
            seen = v instanceof InspectorVerdict.Retry;
            inspector = null; // decided: the rest of the stream passes unread, and the buffered copy goes
        }
    }

    /** Whether an early error frame was relayed. */
    boolean seen() {
        return seen;
    }
}
