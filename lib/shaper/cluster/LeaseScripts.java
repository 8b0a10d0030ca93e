package shaper.cluster;

/**
 * The server-side scripts of the lease semaphore. Each runs atomically in Redis and takes time from
 * the server ({@code TIME}), never from an instance's clock, so instances with skewed clocks agree
 * on every expiry.
 *
 * <p>Keys of one limiter ({@code B} = namespace + ":" + limiter key), in {@code KEYS} order:
 * <pre>
 *   B:p    zset  permit id → expiry ms     slots in use, holds included (a hold is an expiry set once)
 *   B:c    zset  permit id → end ms        slots cooling down after release
 *   B:q    zset  ticket id → arrival seq   the cluster-wide FIFO
 *   B:ql   zset  ticket id → expiry ms     liveness of queued tickets (renewed by their instance)
 *   B:qa   zset  ticket id → arrival ms    for the oldest waiter's age
 *   B:seq  counter                          arrival order
 *   B:h    string with PX                   adaptive headroom: one slot withheld while it exists
 *   B:qt, B:qw, B:qp, B:qr, B:qf            priority classes and clients: see {@link ClassQueueLua}
 *   B:l, B:pe                               the shared adaptive limit: see {@link SharedLimitLua}
 * </pre>
 * Common {@code ARGV}: limit (the ceiling, when adaptive), release cooldown ms, lease ms, grant channel
 * prefix, headroom on (0/1), {@code -concurrency-min} (0 = a fixed limit); each script's own follow from
 * {@code ARGV[7]}. Free slots = limit in force − withheld − |p| − |c|; they exist only while the queue
 * is empty, because every script first purges expired entries and grants due slots in class order
 * ({@code pump}). A grant moves the ticket whose turn it is into {@code p} under its own id and
 * publishes the id on {@code <prefix><instance>}, the channel of the instance that owns it (ids are
 * {@code <instance>:<n>}; the message is {@code B <id>}; {@code B !<id>} tells the owner its ticket was
 * refused by a full queue). A crashed instance's permits and tickets simply expire.
 */
final class LeaseScripts {
    private LeaseScripts() {
    }

    private static final String PRELUDE = """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local P, C, Q, QL, QA, SEQ, H = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7]
            local QT, QW, QP, QR, L, PE, QF = KEYS[8], KEYS[9], KEYS[10], KEYS[11], KEYS[12], KEYS[13], KEYS[14]
            local limit, cooldown, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
            local chan, headroom = ARGV[4], ARGV[5] == '1'
            local function owner(id)
              return chan .. string.match(id, '^(.*):[^:]*$')
            end
            """ + SharedLimitLua.LIMIT + ClassQueueLua.FUNCTIONS + """
            local function withheld()
              if headroom and limit > 1 and redis.call('EXISTS', H) == 1 then return 1 end
              return 0
            end
            local function free()
              return limit - withheld() - redis.call('ZCARD', P) - redis.call('ZCARD', C)
            end
            local function dequeue(id)
              redis.call('ZREM', Q, id); redis.call('ZREM', QL, id); redis.call('ZREM', QA, id)
              redis.call('ZREM', QT, id); redis.call('HDEL', QW, id)
            end
            local function take(id)
              redis.call('ZADD', P, now + lease, id)
              if amin > 0 then redis.call('HSET', PE, id, epoch()) end
            end
            local function purge()
              local ended = redis.call('ZRANGEBYSCORE', P, '-inf', now, 'WITHSCORES')
              if #ended > 0 then
                redis.call('ZREMRANGEBYSCORE', P, '-inf', now)
                for i = 1, #ended, 2 do
                  redis.call('HDEL', PE, ended[i])
                  local cool = tonumber(ended[i + 1]) + cooldown
                  if cool > now then redis.call('ZADD', C, cool, ended[i]) end
                end
              end
              redis.call('ZREMRANGEBYSCORE', C, '-inf', now)
              redis.call('ZREMRANGEBYSCORE', QR, '-inf', now)
              local gone = redis.call('ZRANGEBYSCORE', QL, '-inf', now)
              for _, id in ipairs(gone) do dequeue(id) end
            end
            local function pump()
              local n = free()
              while n > 0 do
                local id, tag = nextTicket()
                if not id then return end
                dequeue(id)
                served(tag)
                take(id)
                redis.call('PUBLISH', owner(id), string.sub(P, 1, -3) .. ' ' .. id)
                n = n - 1
              end
            end
            local function first(key)
              local f = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
              if #f == 0 then return nil end
              return tonumber(f[2])
            end
            -- ms until the next expiry that could free a slot or a place in the queue; -1: none
            local function nextEvent()
              local best = -1
              local function consider(at)
                if at and (best < 0 or at - now < best) then best = math.max(1, at - now) end
              end
              consider(first(P)); consider(first(C)); consider(first(QL))
              local ttl = redis.call('PTTL', H)
              if ttl > 0 then consider(now + ttl) end
              return best
            end
            purge()
            pump()
            """;

    /**
     * ARGV[7] id, ARGV[8] depth (0 = unbounded), ARGV[9] {@code queue} or {@code try}, ARGV[10] class,
     * ARGV[11] weight, ARGV[12] client (absent: anonymous), ARGV[13] its weight. Returns {@code {1}} granted, {@code {0}} none free (try), {@code {2, waiters}}
     * queue full (the arrival refused), {@code {3, nextEventMs}} queued. At a full queue the newest
     * ticket of the lightest class lighter than the arrival's is refused instead (removed, kept in
     * {@code B:qr} for a lease, its owner told), and the arrival queues.
     */
    static final String ENQUEUE = PRELUDE + """
            local id, depth, mode, cls, weight = ARGV[7], tonumber(ARGV[8]), ARGV[9], ARGV[10], tonumber(ARGV[11])
            local waiting = redis.call('ZCARD', Q)
            if waiting == 0 and free() > 0 then
              take(id)
              return {1}
            end
            if mode == 'try' then return {0} end
            if depth > 0 and waiting >= depth then
              local victim = victimFor(weight)
              if not victim then return {2, waiting} end
              dequeue(victim)
              redis.call('ZADD', QR, now + lease, victim)
              redis.call('PUBLISH', owner(victim), string.sub(P, 1, -3) .. ' !' .. victim)
            end
            queueTicket(id, cls, weight, ARGV[12], tonumber(ARGV[13] or '1'))
            return {3, nextEvent()}
            """;

    /**
     * ARGV[7] id, ARGV[8] hold ms, ARGV[9] {@code 1} when the slot was never used, ARGV[10] the
     * exchange's sample for an adaptive limit ({@code ok}, {@code over}, or empty), ARGV[11] the cause
     * of an {@code over}. A hold keeps the permit in {@code p} until now + hold (then it cools like any
     * ended permit); an unused slot skips the cooldown. Returns {@code {from, to, reason}} when the
     * sample moved the shared limit, else {@code {}}: the releasing instance schedules its own pump
     * for when the slot comes back (hold + cooldown).
     */
    static final String RELEASE = PRELUDE + SharedLimitLua.JUDGE + """
            local id, hold, unused = ARGV[7], tonumber(ARGV[8]), ARGV[9] == '1'
            local moved = judge(id, ARGV[10], ARGV[11])
            if unused then
              redis.call('ZREM', P, id)
            elseif hold > 0 then
              redis.call('ZADD', P, 'XX', now + hold, id)
            elseif redis.call('ZREM', P, id) == 1 and cooldown > 0 then
              redis.call('ZADD', C, now + cooldown, id)
            end
            pump()
            return moved or {}
            """;

    /**
     * ARGV[7] ticket id. Leaves the queue: {@code 1} left, {@code 2} it had been granted meanwhile
     * and the slot went back unused (to the next waiter), {@code 0} unknown (or refused).
     */
    static final String LEAVE = PRELUDE + """
            local id = ARGV[7]
            if redis.call('ZREM', Q, id) == 1 then
              dequeue(id)
              return 1
            end
            redis.call('ZREM', QR, id)
            if redis.call('ZREM', P, id) == 1 then
              redis.call('HDEL', PE, id)
              pump()
              return 2
            end
            return 0
            """;

    /**
     * ARGV[7] number of permit ids, then the permit ids, then queued ticket ids. Extends every
     * listed permit still present and every listed ticket still queued. Returns
     * {@code {granted tickets, missing permits, missing tickets, nextEventMs, refused tickets}}: a
     * granted or refused ticket's message was missed; missing ones were lost with Redis's data and
     * are re-registered by the caller.
     */
    static final String RENEW = PRELUDE + """
            local np = tonumber(ARGV[7])
            local granted, lostPermits, lostTickets, refused = {}, {}, {}, {}
            for i = 8, 7 + np do
              if redis.call('ZSCORE', P, ARGV[i]) then
                redis.call('ZADD', P, now + lease, ARGV[i])
              else
                table.insert(lostPermits, ARGV[i])
              end
            end
            for i = 8 + np, #ARGV do
              local id = ARGV[i]
              if redis.call('ZSCORE', QL, id) then
                redis.call('ZADD', QL, now + lease, id)
              elseif redis.call('ZSCORE', P, id) then
                table.insert(granted, id)
              elseif redis.call('ZSCORE', QR, id) then
                table.insert(refused, id)
              else
                table.insert(lostTickets, id)
              end
            end
            return {granted, lostPermits, lostTickets, nextEvent(), refused}
            """;

    /**
     * Re-registers what an instance knows it holds after Redis lost it: ARGV[7] number of permit
     * ids, the permit ids (added as in use, even past the limit: their exchanges are running), then
     * for each ticket to queue again (at the tail of its class, in the given order) its id, class,
     * weight, client and client weight. Returns the next event in ms.
     */
    static final String REASSERT = PRELUDE + """
            local np = tonumber(ARGV[7])
            for i = 8, 7 + np do redis.call('ZADD', P, 'NX', now + lease, ARGV[i]) end
            for i = 8 + np, #ARGV, 5 do
              local id = ARGV[i]
              if not redis.call('ZSCORE', Q, id) and not redis.call('ZSCORE', P, id) then
                queueTicket(id, ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3], tonumber(ARGV[i + 4]))
              end
            end
            pump()
            return nextEvent()
            """;

    /** ARGV[7] window ms: withholds one slot for the window (restarting it). Returns the next event in ms. */
    static final String HEADROOM = PRELUDE + """
            if headroom and limit > 1 then redis.call('SET', H, '1', 'PX', tonumber(ARGV[7])) end
            return nextEvent()
            """;

    /** Grants due slots. Returns the next event in ms. */
    static final String PUMP = PRELUDE + """
            return nextEvent()
            """;

    /**
     * Returns {@code {inUse, cooling, waiters, withheld, oldestWaiterAgeMs, limit}} after granting
     * due slots; {@code limit} is the one in force (the shared adaptive one, or the configured one).
     */
    static final String STATE = PRELUDE + """
            local oldest = redis.call('ZRANGE', QA, 0, 0, 'WITHSCORES')
            local age = 0
            if #oldest > 0 then age = math.max(0, now - tonumber(oldest[2])) end
            return {redis.call('ZCARD', P), redis.call('ZCARD', C), redis.call('ZCARD', Q), withheld(), age, limit}
            """;
}
