package shaper.probe;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * Plays the scenario of the {@link Fixture} a path falls under. Each request is counted in
 * {@link ProbeStats} before its body is read and stays in flight until its response is complete,
 * so a proxy's concurrency limit shows as the fixture's peak.
 */
final class FixtureHandler implements Handler {
    private final ProbeConfig config;
    private final ProbeStats stats;
    private final ObjectMapper mapper;
    private final AnthropicApi api;
    private final ChatCompletionsApi chat;
    private final ResponsesApi responses;
    private final RateLimitedApi rateLimited;
    private final EarlyErrorStream earlyError;
    private final Sleeper sleeper;
    private final CapacityFixture capacity;
    private final PrintStream log;

    FixtureHandler(ProbeConfig config, ProbeStats stats, ObjectMapper mapper, Sleeper sleeper, CapacityFixture capacity, PrintStream log) {
        this.config = config;
        this.stats = stats;
        this.mapper = mapper;
        this.api = new AnthropicApi(mapper, config.reply(), sleeper);
        this.chat = new ChatCompletionsApi(mapper, config.reply());
        this.responses = new ResponsesApi(mapper, config.reply());
        this.rateLimited = new RateLimitedApi(config, api, chat);
        this.earlyError = new EarlyErrorStream(mapper);
        this.sleeper = sleeper;
        this.capacity = capacity;
        this.log = log;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        String path = req.prologue().uriPath().rawPath();
        Optional<Fixture> fixture = Fixture.match(path);
        if (fixture.isEmpty()) {
            JsonReply.send(res, 404, FailureBodies.error("not_found_error", "no fixture at " + path + " (run ProbeServer -h for the list)"));
            return;
        }
        if (req.prologue().method().equals(Method.HEAD)) {
            // Clients (Claude Code among them) HEAD the base URL to check reachability: not a call to count or fail.
            res.status(Status.OK_200).header(HeaderValues.CONTENT_TYPE_JSON).send();
            return;
        }
        Fixture f = fixture.get();
        long hit = stats.enter(f, path);
        String outcome = "aborted";
        try {
            ProbeRequest r = ProbeRequest.read(req, f, path, hit, mapper);
            play(r, res);
            outcome = Integer.toString(res.status().code());
        } catch (ProbeRequest.Rejected e) {
            JsonReply.send(res, e.status, FailureBodies.error("invalid_request_error", e.getMessage()));
            outcome = Integer.toString(e.status);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CloseConnectionException("probe stopped while " + path + " was waiting", e);
        } finally {
            stats.leave(f);
            if (log != null) {
                log.println("probe " + req.prologue().method().text() + " " + path + " hit=" + hit + " -> " + outcome);
            }
        }
    }

    private void play(ProbeRequest r, ServerResponse res) throws InterruptedException {
        switch (r.fixture()) {
            case OK, ANTHROPIC -> api.respond(r, res);
            case CHAT -> chat.respond(r, res);
            case RESPONSES -> responses.respond(r, res);
            case RATE_LIMITED -> rateLimited.respond(r, res);
            case RATE_422 -> JsonReply.send(res, 422, FailureBodies.RATE_LIMIT);
            case FMT_422 -> JsonReply.send(res, 422, FailureBodies.FORMAT_422);
            case FMT_400 -> JsonReply.send(res, 400, FailureBodies.FORMAT_400);
            case FLAKY_422 -> failOrSucceed(r, res, 422, FailureBodies.RATE_LIMIT);
            case FLAKY_BEFORE -> failOrSucceed(r, res, 422, FailureBodies.FAILED_BEFORE_OUTPUT);
            case FLAKY_CONN -> {
                if (r.failsThisCall(config.failures())) {
                    // Helidon closes the socket without writing a status line: the client sees a reset/EOF.
                    throw new CloseConnectionException("flakyconn: dropping hit " + r.hit() + " of " + r.path());
                }
                api.respond(r, res);
            }
            case UNAVAIL_503 -> JsonReply.send(res, 503, FailureBodies.UNAVAILABLE);
            case REJECT_502 -> JsonReply.send(res, 502, FailureBodies.REJECTED);
            case SSE200_LIMIT -> earlyError(r, res, EarlyErrorStream.Cause.RATE_LIMIT);
            case FLAKY_SSE200 -> {
                if (r.failsThisCall(config.failures())) {
                    earlyError(r, res, EarlyErrorStream.Cause.UNAVAILABLE);
                } else {
                    api.stream(api.turn(r, MessagesReply.chunks(config.reply())), res, Duration.ZERO);
                }
            }
            case AZURE_ALWAYS -> {
                res.header(HeaderValues.create(HeaderNames.RETRY_AFTER, "1"));
                JsonReply.send(res, 429, FailureBodies.AZURE_RATE_LIMIT);
            }
            case STALE_400 -> {
                if (r.bodyContains(FailureBodies.STALE_CARRIER)) {
                    JsonReply.send(res, 400, FailureBodies.STALE_REASONING);
                } else {
                    api.respond(r, res);
                }
            }
            case SLOW_SSE -> {
                int events = r.intParam("events", MessagesReply.chunks(config.reply()).size(), 1, 100_000);
                Duration interval = r.durationParam("interval", config.sseInterval());
                api.stream(api.turn(r, MessagesReply.chunks(config.reply(), events)), res, interval);
            }
            case RETRY_429 -> retry429(r, res);
            case CAPACITY -> capacity.play(r, res, api, () -> earlyError(r, res, EarlyErrorStream.Cause.RATE_LIMIT));
            case BURST_5XX -> {
                int status = r.intParam("status", config.burstStatus(), 500, 599);
                int fails = r.intParam("fails", config.failures(), 0, Integer.MAX_VALUE);
                failOrSucceed(r, res, status, FailureBodies.error("api_error",
                        "Upstream burst failure " + Math.min(r.hit(), fails) + " of " + fails + " (HTTP " + status + ")."));
            }
            case SLOW -> {
                Duration delay = r.durationParam("delay", config.slowDelay());
                if (delay.isPositive()) {
                    sleeper.sleep(delay);
                }
                JsonReply.send(res, 200, api.turn(r, MessagesReply.chunks(config.reply())).document());
            }
        }
    }

    /** The {@code /ratelimited} accounts, for the probe's admin routes. */
    RateLimitedApi rateLimited() {
        return rateLimited;
    }

    private void failOrSucceed(ProbeRequest r, ServerResponse res, int status, String body) throws InterruptedException {
        if (r.failsThisCall(config.failures())) {
            JsonReply.send(res, status, body);
        } else {
            api.respond(r, res);
        }
    }

    private void retry429(ProbeRequest r, ServerResponse res) throws InterruptedException {
        Duration after = r.durationParam("after", config.retryAfter());
        long seconds = (after.toMillis() + 999) / 1000;
        if (r.failsThisCall(config.failures())) {
            res.header(HeaderValues.create(HeaderNames.RETRY_AFTER, Long.toString(seconds)));
            JsonReply.send(res, 429, FailureBodies.error("rate_limit_error", "Rate limit exceeded; retry after " + seconds + " seconds."));
        } else {
            api.respond(r, res);
        }
    }

    private void earlyError(ProbeRequest r, ServerResponse res, EarlyErrorStream.Cause cause) {
        try (SseStream sse = new SseStream(res)) {
            earlyError.send(sse, api.turn(r, MessagesReply.chunks(config.reply())), r.model(), r.remainder(), cause);
        }
    }
}
