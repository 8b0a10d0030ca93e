package shaper.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * The probe's own routes, never counted as hits: {@code POST /__probe/reset} clears every counter,
 * {@code GET /__probe/stats} returns {@link ProbeStats.Snapshot} as JSON
 * ({@code {"hits":{PATH:N},"prefixes":{PREFIX:{"hits":N,"inFlight":N,"peakInFlight":N}}}}),
 * {@code GET /__probe/ratelimited} what {@code /ratelimited} admitted, refused and charged
 * ({@code {"admitted":N,"rejected":N,"input_tokens":N,"output_tokens":N}}); a reset also refills its buckets.
 * {@code GET /__probe/capacity} returns {@code {"capacity":N,"inFlight":N}} and
 * {@code POST /__probe/capacity?n=N} sets {@code /capacity}'s capacity (400 unless N is an integer >= 1).
 */
final class AdminHandler {
    static final String PREFIX = "/__probe/";
    static final String RESET = PREFIX + "reset";
    static final String STATS = PREFIX + "stats";
    static final String RATE_LIMITED = PREFIX + "ratelimited";
    static final String CAPACITY = PREFIX + "capacity";

    private final ProbeStats stats;
    private final CapacityFixture capacity;
    private final ObjectMapper mapper;
    private final RateLimitedApi rateLimited;

    AdminHandler(ProbeStats stats, CapacityFixture capacity, ObjectMapper mapper, RateLimitedApi rateLimited) {
        this.stats = stats;
        this.capacity = capacity;
        this.mapper = mapper;
        this.rateLimited = rateLimited;
    }

    void handle(ServerRequest req, ServerResponse res) {
        String path = req.prologue().uriPath().rawPath();
        Method method = req.prologue().method();
        if (path.equals(RESET)) {
            if (allowed(method, Method.POST, res)) {
                stats.reset();
                rateLimited.reset();
                JsonReply.send(res, 200, "{\"reset\":true}");
            }
        } else if (path.equals(STATS)) {
            if (allowed(method, Method.GET, res)) {
                JsonReply.send(res, 200, write(stats.snapshot()));
            }
        } else if (path.equals(RATE_LIMITED)) {
            if (allowed(method, Method.GET, res)) {
                JsonReply.send(res, 200, write(rateLimited.counts()));
            }
        } else if (path.equals(CAPACITY)) {
            capacity(req, res);
        } else {
            JsonReply.send(res, 404, FailureBodies.error("not_found_error", "no probe route " + path + " (use " + RESET + " or " + STATS + ")"));
        }
    }

    private void capacity(ServerRequest req, ServerResponse res) {
        Method method = req.prologue().method();
        if (method.equals(Method.POST)) {
            String n = req.query().first("n").orElse("");
            try {
                capacity.setCapacity(Integer.parseInt(n));
            } catch (IllegalArgumentException e) {
                JsonReply.send(res, 400, FailureBodies.error("invalid_request_error", "n: \"" + n + "\" (expected: an integer >= 1)"));
                return;
            }
        } else if (!allowed(method, Method.GET, res)) {
            return;
        }
        JsonReply.send(res, 200, "{\"capacity\":" + capacity.capacity() + ",\"inFlight\":" + capacity.inFlight() + "}");
    }

    private static boolean allowed(Method method, Method expected, ServerResponse res) {
        if (method.equals(expected)) {
            return true;
        }
        res.header(HeaderValues.create("Allow", expected.text()));
        JsonReply.send(res, 405, FailureBodies.error("invalid_request_error", "method " + method.text() + " not allowed"));
        return false;
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
