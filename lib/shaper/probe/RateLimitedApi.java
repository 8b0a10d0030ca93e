package shaper.probe;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webserver.http.ServerResponse;
import shaper.budget.TokenBucket;

/**
 * {@code /ratelimited}: an upstream that enforces an account's per-minute limits the way the real
 * APIs do, so budget pacing can be shown and tested without an account.
 *
 * <ul>
 *   <li>{@code POST .../v1/messages}: Anthropic's limits, RPM, ITPM and OTPM buckets (continuous
 *       refill, full at start), and Anthropic's {@code anthropic-ratelimit-*} headers with RFC 3339
 *       resets (when the bucket is full again); the reply's {@code usage} is what was charged.</li>
 *   <li>{@code POST .../v1/chat/completions}: OpenAI's RPM and TPM (input + output) buckets and its
 *       {@code x-ratelimit-*} headers with Go-style reset durations.</li>
 * </ul>
 * A request that does not fit gets {@code 429} with {@code retry-after} (whole seconds until it
 * would fit) in its dialect and is charged nothing. Other routes below the prefix answer as
 * {@code /v1} does, unlimited. Each full path with its limits is one account, so tests on
 * different paths do not share buckets. A reply has {@code ?out=} (else {@code -rl-output}) output
 * tokens, at most the request's {@code max_tokens} / {@code max_completion_tokens}.
 */
final class RateLimitedApi {
    private final ProbeConfig config;
    private final AnthropicApi api;
    private final ChatCompletionsApi chat;
    private final Map<String, Account> accounts = new ConcurrentHashMap<>();
    private final LongAdder admitted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder inputTokens = new LongAdder();
    private final LongAdder outputTokens = new LongAdder();

    RateLimitedApi(ProbeConfig config, AnthropicApi api, ChatCompletionsApi chat) {
        this.config = config;
        this.api = api;
        this.chat = chat;
    }

    /** Counts for the bench: answered, refused with 429, and the tokens charged. */
    Map<String, Long> counts() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("admitted", admitted.sum());
        m.put("rejected", rejected.sum());
        m.put("input_tokens", inputTokens.sum());
        m.put("output_tokens", outputTokens.sum());
        return m;
    }

    void reset() {
        accounts.clear();
        admitted.reset();
        rejected.reset();
        inputTokens.reset();
        outputTokens.reset();
    }

    void respond(ProbeRequest r, ServerResponse res) throws InterruptedException {
        String path = r.remainder();
        boolean messages = r.method().equals(Method.POST) && path.endsWith("/v1/messages");
        boolean completions = r.method().equals(Method.POST) && path.endsWith("/v1/chat/completions");
        if (!messages && !completions) {
            api.respond(r, res);
            return;
        }
        ProbeConfig.RateLimitDefaults d = config.rateLimits();
        int rpm = r.intParam("rpm", d.rpm(), 1, Integer.MAX_VALUE);
        int itpm = r.intParam("itpm", d.itpm(), 1, Integer.MAX_VALUE);
        int otpm = r.intParam("otpm", d.otpm(), 1, Integer.MAX_VALUE);
        int tpm = r.intParam("tpm", d.itpm() + d.otpm(), 1, Integer.MAX_VALUE);
        int out = r.intParam("out", d.output(), 1, 1_000_000);
        long cap = r.json().path(messages ? "max_tokens" : "max_completion_tokens").asLong(r.json().path("max_tokens").asLong(0));
        List<String> chunks = MessagesReply.chunks(config.reply(), (int) (cap > 0 ? Math.min(out, cap) : out));
        long input = messages ? r.estimatedInputTokens() : ChatCompletionsApi.promptTokens(r.json());
        long output = messages ? chunks.size() : ChatCompletionsApi.completionTokens(chunks);
        String key = r.path() + " " + rpm + "/" + itpm + "/" + otpm + "/" + tpm;
        Account account = accounts.computeIfAbsent(key, k -> messages ? new Account(rpm, itpm, otpm, 0) : new Account(rpm, 0, 0, tpm));
        long retryAfter = account.charge(input, output, messages, res);
        if (retryAfter > 0) {
            rejected.increment();
            res.header(HeaderValues.create(HeaderNames.RETRY_AFTER, Long.toString(retryAfter)));
            JsonReply.send(res, 429, messages
                    ? FailureBodies.error("rate_limit_error", "This request would exceed your organization's rate limit. Retry after "
                            + retryAfter + " seconds.")
                    : "{\"error\":{\"message\":\"Rate limit reached. Please try again in " + retryAfter
                            + "s.\",\"type\":\"tokens\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}");
            return;
        }
        admitted.increment();
        inputTokens.add(input);
        outputTokens.add(output);
        if (messages) {
            api.message(r, res, chunks, Duration.ZERO);
        } else {
            chat.complete(r, res, chunks);
        }
    }

    /** One account's buckets; a bucket of limit 0 is absent. */
    private static final class Account {
        private final TokenBucket requests;
        private final TokenBucket input;
        private final TokenBucket output;
        private final TokenBucket tokens;

        Account(long rpm, long itpm, long otpm, long tpm) {
            long now = System.nanoTime();
            requests = new TokenBucket(rpm, now);
            input = itpm > 0 ? new TokenBucket(itpm, now) : null;
            output = otpm > 0 ? new TokenBucket(otpm, now) : null;
            tokens = tpm > 0 ? new TokenBucket(tpm, now) : null;
        }

        /** Charges the request and writes the headers; the seconds to wait instead when it does not fit. */
        synchronized long charge(long in, long out, boolean anthropic, ServerResponse res) {
            long now = System.nanoTime();
            long wait = requests.nanosUntil(1, now);
            if (input != null) {
                wait = Math.max(wait, input.nanosUntil(in, now));
            }
            if (output != null) {
                wait = Math.max(wait, output.nanosUntil(out, now));
            }
            if (tokens != null) {
                wait = Math.max(wait, tokens.nanosUntil(in + out, now));
            }
            if (wait == 0) {
                requests.take(1, now);
                take(input, in, now);
                take(output, out, now);
                take(tokens, in + out, now);
            }
            Instant wall = Instant.now();
            if (anthropic) {
                anthropic(res, "requests", requests, now, wall);
                anthropic(res, "input-tokens", input, now, wall);
                anthropic(res, "output-tokens", output, now, wall);
                long limit = input.capacity() + output.capacity();
                long remaining = remaining(input, now) + remaining(output, now);
                long full = Math.max(input.nanosUntilFull(now), output.nanosUntilFull(now));
                header(res, "anthropic-ratelimit-tokens-limit", limit);
                header(res, "anthropic-ratelimit-tokens-remaining", remaining);
                res.header(HeaderValues.create("anthropic-ratelimit-tokens-reset", rfc3339(wall, full)));
            } else {
                openAi(res, "requests", requests, now);
                openAi(res, "tokens", tokens, now);
            }
            return wait == 0 ? 0 : Math.max(1, (wait + 999_999_999) / 1_000_000_000);
        }

        private static void take(TokenBucket b, long n, long now) {
            if (b != null) {
                b.take(n, now);
            }
        }

        private static long remaining(TokenBucket b, long now) {
            return (long) Math.max(0, Math.floor(b.level(now)));
        }

        private static void anthropic(ServerResponse res, String kind, TokenBucket b, long now, Instant wall) {
            header(res, "anthropic-ratelimit-" + kind + "-limit", b.capacity());
            header(res, "anthropic-ratelimit-" + kind + "-remaining", remaining(b, now));
            res.header(HeaderValues.create("anthropic-ratelimit-" + kind + "-reset", rfc3339(wall, b.nanosUntilFull(now))));
        }

        private static void openAi(ServerResponse res, String kind, TokenBucket b, long now) {
            header(res, "x-ratelimit-limit-" + kind, b.capacity());
            header(res, "x-ratelimit-remaining-" + kind, remaining(b, now));
            res.header(HeaderValues.create("x-ratelimit-reset-" + kind, goDuration(b.nanosUntilFull(now))));
        }

        private static void header(ServerResponse res, String name, long value) {
            res.header(HeaderValues.create(name, Long.toString(value)));
        }

        /** The instant {@code nanos} from {@code wall}, rounded up to whole seconds as Anthropic sends it. */
        private static String rfc3339(Instant wall, long nanos) {
            Instant at = wall.plusNanos(nanos);
            Instant whole = at.truncatedTo(ChronoUnit.SECONDS);
            return (whole.equals(at) ? whole : whole.plusSeconds(1)).toString();
        }
    }

    /** OpenAI's reset spelling: {@code 20ms}, {@code 1.5s}, {@code 6m0s}. */
    static String goDuration(long nanos) {
        long ms = (nanos + 999_999) / 1_000_000;
        if (ms < 1000) {
            return ms + "ms";
        }
        long minutes = ms / 60_000;
        long restMs = ms % 60_000;
        String seconds = restMs % 1000 == 0 ? Long.toString(restMs / 1000)
                : String.format(java.util.Locale.ROOT, "%.3f", restMs / 1000.0).replaceAll("0+$", "");
        return minutes > 0 ? minutes + "m" + seconds + "s" : seconds + "s";
    }
}
