package shaper.proxy;

import java.util.concurrent.ThreadLocalRandom;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;

/**
 * The request id on the proxy's own JSON error answers, under the name each SDK reads: Anthropic's
 * SDK reads {@code request-id}, OpenAI's API and SDK {@code x-request-id}. An answer in the OpenAI
 * dialects (Chat, Responses) carries both, so a client that reads the other name loses nothing; the
 * upstream's id is kept when it sent one, else the proxy makes one ({@code req_shaper_…}) so a
 * failed call can still be named in a log or a bug report.
 */
final class RequestIds {
    private RequestIds() {
    }

    static void put(ServerResponse res, Dialect dialect, String upstreamId) {
        String id = upstreamId != null ? upstreamId : local();
        res.header(HeaderNames.create("Request-Id"), id);
        if (dialect == Dialect.CHAT || dialect == Dialect.RESPONSES) {
            res.header(HeaderNames.create("x-request-id"), id);
        }
    }

    private static String local() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return "req_shaper_" + Long.toHexString(r.nextLong() | Long.MIN_VALUE) + Long.toHexString(r.nextLong() | Long.MIN_VALUE);
    }
}
