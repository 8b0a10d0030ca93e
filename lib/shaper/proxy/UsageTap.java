package shaper.proxy;

import java.io.InputStream;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientResponse;
import shaper.observe.ExchangeTrace;
import shaper.usage.ScannedStream;
import shaper.usage.UsageScanner;

/**
 * Puts a {@link UsageScanner} on the body an answer is relayed from, so its usage is read as the
 * bytes pass (see {@code shaper.usage}); the scanner is kept on the exchange's trace, where the
 * handler finds it when the exchange ends, whichever way it ends.
 */
final class UsageTap {
    private UsageTap() {
    }

    /**
     * {@code body} with a scanner watching it.
     *
     * @param decoded the body is already decoded (its {@code Content-Encoding} no longer applies)
     */
    static InputStream tap(InputStream body, HttpClientResponse in, boolean decoded, ExchangeTrace trace) {
        String type = in.headers().first(HeaderNames.CONTENT_TYPE).orElse(null);
        String encoding = decoded ? null : in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
        UsageScanner scanner = UsageScanner.forEncodedBody(type, encoding);
        trace.usageScanner(scanner);
        return new ScannedStream(body, scanner);
    }
}
