package shaper.proxy;

import io.helidon.http.HeaderNames;
import shaper.proxy.client.UpstreamResponse;
import shaper.observe.ExchangeTrace;
import shaper.usage.ScannedStream;
import shaper.usage.UsageScanner;

/**
 * Puts a {@link UsageScanner} on the answer about to be relayed, so its usage is read as the bytes
 * pass (see {@code shaper.usage}): the bytes already read for the retry decision are shown to it
 * first, the rest as the relay reads it. The scanner is kept on the exchange's trace, where the
 * handler finds it when the exchange ends, whichever way it ends. Passthrough and transcoded
 * answers alike: the scanner reads the upstream's dialect.
 */
final class UsageTap {
    private UsageTap() {
    }

    /** {@code plan} with its remaining body watched by a new scanner (registered on {@code trace}). */
    static ResponseRelay.Plan tap(ResponseRelay.Plan plan, UpstreamResponse in, ExchangeTrace trace) {
        String type = in.headers().first(HeaderNames.CONTENT_TYPE).orElse(null);
        String encoding = plan.decoded() ? null : in.headers().first(HeaderNames.CONTENT_ENCODING).orElse(null);
        UsageScanner scanner = UsageScanner.forEncodedBody(type, encoding);
        trace.usageScanner(scanner);
        scanner.feed(plan.prefix(), 0, plan.prefix().length);
        return new ResponseRelay.Plan(plan.prefix(), new ScannedStream(plan.rest(), scanner), plan.decoded(), plan.status(),
                plan.retryAfter(), plan.location());
    }
}
