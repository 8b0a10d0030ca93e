package shaper.cluster;

/**
 * The server-side scripts of a token budget shared through Redis (cluster mode): the buckets of
 * {@code -rpm}, {@code -tpm}, {@code -itpm}, {@code -otpm} and {@code -budget-from-headers}, the
 * {@code retry-after} hold, and the reservation of the cluster's waiting head. Each runs
 * atomically and takes time from the server ({@code TIME}), so instances with skewed clocks refill
 * the same buckets alike. The arithmetic is {@link shaper.budget.TokenBucket}'s: capacity per
 * minute, continuous refill, a level that may go negative (a debt), a cost larger than the bucket
 * needing only a full bucket.
 *
 * <p>Keys of one provider's budget ({@code B} = {@code {NAMESPACE:budget:tokens}}), in {@code KEYS} order:
 * <pre>
 *   B:b     hash    KIND:cap, KIND:lvl, KIND:at (ms), KIND:set (the static that set cap; 0: a header did)
 *   B:hold  string  with PX: a retry-after hold over every bucket while it exists
 *   B:w     string  with PX: "OWNER FIT_AT_MS WORD", the waiting head that reserved the buckets
 * </pre>
 * KIND is a {@link shaper.ratelimit.RateLimitKind#label()}. Common {@code ARGV}: the instance's
 * static budgets per minute for requests, tokens, input and output tokens (0 = none). A static
 * creates its bucket full and sets its capacity when it differs from the one that set it last (so a
 * changed flag takes effect; a header's limit is kept until then). The hash expires after
 * {@link #IDLE_MS} untouched: by then every bucket is full again.
 *
 * <p>Reservation: a head that does not fit reserves the buckets until it fits (plus
 * {@code grace}); while that reservation lives, nobody else takes, so a large request at one
 * instance's head is not starved by small ones elsewhere: the cluster-wide form of the FIFO's
 * "nobody overtakes the head". A crashed instance's reservation lapses after its grace.
 */
final class BucketScripts {
    private BucketScripts() {
    }

    /** A budget's hash lives this long untouched (ms). */
    static final long IDLE_MS = 600_000;

    private static final String PRELUDE = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local B, HOLD, W = KEYS[1], KEYS[2], KEYS[3]
            local KINDS = {'requests', 'tokens', 'input_tokens', 'output_tokens'}
            local WORDS = {'requests', 'tokens', 'input', 'output'}
            -- kind i's bucket refilled to now, created or resized by the static s; nil when it has none
            local function load(i, s)
              local k = KINDS[i]
              local v = redis.call('HMGET', B, k .. ':cap', k .. ':lvl', k .. ':at', k .. ':set')
              local cap, lvl, at, set = tonumber(v[1]), tonumber(v[2]), tonumber(v[3]), tonumber(v[4])
              if s > 0 and set ~= s then
                if cap == nil then lvl = s; at = now end
                cap = s; set = s
                if lvl > cap then lvl = cap end
              end
              if cap == nil then return nil end
              if now > at then lvl = math.min(cap, lvl + (now - at) * cap / 60000) end
              return {cap = cap, lvl = lvl, set = set or 0}
            end
            local function save(i, b)
              local k = KINDS[i]
              redis.call('HSET', B, k .. ':cap', tostring(b.cap), k .. ':lvl', tostring(b.lvl), k .. ':at', tostring(now),
                k .. ':set', tostring(b.set))
            end
            local function loadAll()
              local bs = {}
              for i = 1, 4 do bs[i] = load(i, tonumber(ARGV[i])) end
              return bs
            end
            local function saveAll(bs)
              for i = 1, 4 do if bs[i] then save(i, bs[i]) end end
              redis.call('PEXPIRE', B, %d)
            end
            -- ms until cost c (a list per kind) fits every bucket, and the word of the longest wait
            local function wait(bs, c)
              local worst, longest = nil, 0
              for i = 1, 4 do
                local b = bs[i]
                if b then
                  local need = math.min(c[i], b.cap)
                  if b.lvl < need then
                    local w = math.ceil((need - b.lvl) * 60000 / b.cap)
                    if w > longest then longest = w; worst = WORDS[i] end
                  end
                end
              end
              return longest, worst
            end
            local function costAt(first)
              return {tonumber(ARGV[first]), tonumber(ARGV[first + 1]), tonumber(ARGV[first + 2]), tonumber(ARGV[first + 3])}
            end
            """.formatted(IDLE_MS);

    /**
     * ARGV[5] the claimant (the asking instance's waiting head, or an arrival), ARGV[6..9] the cost
     * per kind, ARGV[10] the reservation's grace ms. Returns {@code {1}} taken, or
     * {@code {0, WORD, WAIT_MS}} blocked: by the hold ({@code retry_after}), by another head's
     * reservation (its word; asking again after it should fit), or by a bucket (the reservation is
     * now the claimant's).
     */
    static final String TAKE = PRELUDE + """
            local id, c, grace = ARGV[5], costAt(6), tonumber(ARGV[10])
            local held = redis.call('PTTL', HOLD)
            if held > 0 then return {0, 'retry_after', held} end
            local claim = redis.call('GET', W)
            if claim then
              local owner, at, what = string.match(claim, '^(%S+) (%d+) (%S+)$')
              if owner ~= id then return {0, what, math.max(tonumber(at) - now, 0) + 25} end
            end
            local bs = loadAll()
            local ms, worst = wait(bs, c)
            if worst then
              redis.call('SET', W, id .. ' ' .. (now + ms) .. ' ' .. worst, 'PX', ms + grace)
              saveAll(bs)
              return {0, worst, ms}
            end
            for i = 1, 4 do if bs[i] then bs[i].lvl = bs[i].lvl - c[i] end end
            saveAll(bs)
            if claim then redis.call('DEL', W) end
            return {1}
            """;

    /** ARGV[5] a claimant that stopped waiting: its reservation, if it still holds one, goes. */
    static final String LEAVE = """
            local claim = redis.call('GET', KEYS[3])
            if claim and string.match(claim, '^(%S+) ') == ARGV[5] then redis.call('DEL', KEYS[3]) end
            return 1
            """;

    /** ARGV[5..8] what each bucket pays (positive) or gets back (negative); never above its capacity. */
    static final String ADJUST = PRELUDE + """
            local d = costAt(5)
            local bs = loadAll()
            for i = 1, 4 do if bs[i] then bs[i].lvl = math.min(bs[i].cap, bs[i].lvl - d[i]) end end
            saveAll(bs)
            return 1
            """;

    /**
     * ARGV[5..12] limit and remaining per kind as the upstream stated them (-1: not stated),
     * ARGV[13] a retry-after hold in ms (0: none). A limit replaces the capacity (a kind announced
     * becomes a budget, full); what remains caps the level and never raises it (see
     * {@link shaper.budget.TokenBucket#restate}); a hold is only ever extended.
     */
    static final String RESTATE = PRELUDE + """
            local bs = loadAll()
            for i = 1, 4 do
              local limit, remaining = tonumber(ARGV[3 + 2 * i]), tonumber(ARGV[4 + 2 * i])
              local b = bs[i]
              if b == nil and limit >= 1 then b = {cap = limit, lvl = limit, set = 0}; bs[i] = b end
              if b then
                if limit >= 1 then b.cap = limit end
                if remaining >= 0 and remaining < b.lvl then b.lvl = remaining end
                if b.lvl > b.cap then b.lvl = b.cap end
              end
            end
            saveAll(bs)
            local hold = tonumber(ARGV[13])
            if hold > 0 and redis.call('PTTL', HOLD) < hold then redis.call('SET', HOLD, '1', 'PX', hold) end
            return 1
            """;

    /** Returns each bucket's level as {@code {KIND_INDEX, LEVEL_STRING, ...}} (a string keeps the fraction). */
    static final String LEVELS = PRELUDE + """
            local bs, out = loadAll(), {}
            for i = 1, 4 do if bs[i] then out[#out + 1] = i; out[#out + 1] = tostring(bs[i].lvl) end end
            return out
            """;

    /** ARGV[5..8] a cost. Returns the ms it would wait behind nobody, the hold counted (another head's reservation is not). */
    static final String WAIT = PRELUDE + """
            local ms = wait(loadAll(), costAt(5))
            return math.max(ms, redis.call('PTTL', HOLD))
            """;
}
