/**
 * Where the upstream says the account stands, read from the headers of every response (errors and
 * streams included), whether or not the budget paces admission by it.
 *
 * <p>Two header families ({@link shaper.ratelimit.RateLimitHeaders}): Anthropic's
 * {@code anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}}
 * with RFC 3339 reset instants, and OpenAI's {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}}
 * with Go-style reset durations ({@code 6m0s}, {@code 1s}, {@code 20ms}); plus {@code retry-after}
 * (or {@code retry-after-ms}) on a {@code 429}/{@code 529}. {@link shaper.ratelimit.UpstreamRateLimits}
 * keeps the newest reading per kind for one provider; it is thread-safe (one immutable map in an
 * {@link java.util.concurrent.atomic.AtomicReference}, replaced by compare-and-set).
 */
package shaper.ratelimit;
