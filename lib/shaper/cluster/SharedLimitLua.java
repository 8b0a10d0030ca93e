package shaper.cluster;

/**
 * The Lua half of a cluster-wide adaptive limit ({@code -adaptive-concurrency} with
 * {@code -limiter-backend}): the in-process {@link shaper.limit.AdaptiveLimit}'s AIMD (read that
 * first, for the algorithm and why its constants), kept in Redis so that a signal seen by any
 * instance moves the limit every instance admits by. Spliced into {@link LeaseScripts}'s prelude.
 *
 * <pre>
 *   B:l   hash  limit, epoch, clean     the learnt limit (absent: the ceiling), its epoch, clean completions in it
 *   B:pe  hash  permit id → epoch       the epoch each permit was granted in
 * </pre>
 * A sample travels with its permit's RELEASE ({@code ok}, or {@code over} with a cause: the
 * instance judges a slow first byte against its own latency floor and sends it as {@code over}).
 * It counts only if its permit was granted in the current epoch; an {@code over} lowers the limit to
 * {@code max(min, min(limit − 1, ⌊0.9 × limit⌋))}; an {@code ok} while the limit binds cluster-wide
 * (tickets queued, or no free slot) counts as clean, and {@code limit} clean ones raise it by one up
 * to the ceiling. Every move starts a new epoch. The limit in force is
 * {@code max(min(min, ceiling), min(learnt, ceiling))} with each instance's own ceiling
 * ({@code ARGV[1]}) and floor ({@code ARGV[6]}; 0 = a fixed limit, the hash is then never read).
 */
final class SharedLimitLua {
    private SharedLimitLua() {
    }

    /** Sets {@code limit} to the limit in force; runs before anything counts free slots. */
    static final String LIMIT = """
            local ceiling, amin = limit, tonumber(ARGV[6])
            if amin > 0 then
              local learnt = tonumber(redis.call('HGET', L, 'limit') or '')
              if learnt then limit = math.max(math.min(amin, ceiling), math.min(learnt, ceiling)) end
            end
            local function epoch()
              return tonumber(redis.call('HGET', L, 'epoch') or '0')
            end
            """;

    /** Defines {@code judge(id, kind, cause)}: returns {@code {from, to, reason}} when the limit moved, else nil. */
    static final String JUDGE = """
            local function moveTo(to)
              redis.call('HSET', L, 'limit', to, 'epoch', epoch() + 1, 'clean', 0)
              limit = to
            end
            local function judge(id, kind, cause)
              local granted = redis.call('HGET', PE, id)
              redis.call('HDEL', PE, id)
              if amin == 0 or kind == '' or not granted or tonumber(granted) ~= epoch() then return nil end
              local from = limit
              if kind == 'over' then
                local to = math.max(math.min(amin, ceiling), math.min(limit - 1, math.floor(limit * 0.9)))
                if to >= limit then redis.call('HSET', L, 'clean', 0); return nil end
                moveTo(to)
                return {from, to, cause}
              end
              if redis.call('ZCARD', Q) == 0 and free() > 0 then return nil end
              local clean = redis.call('HINCRBY', L, 'clean', 1)
              if clean < limit then return nil end
              if limit >= ceiling then redis.call('HSET', L, 'clean', 0); return nil end
              moveTo(limit + 1)
              return {from, limit, clean .. ' clean completions at ' .. from}
            end
            """;
}
