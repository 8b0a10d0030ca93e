package shaper.cluster;

/**
 * The Lua half of the cluster-wide queue's priority classes: the same stride scheduling as the
 * in-process {@link shaper.limit.FairQueue} (read that first), kept in Redis so that every instance's
 * tickets share one order. Spliced into {@link LeaseScripts}'s prelude; it uses the prelude's keys.
 *
 * <p>A ticket gets its <i>tag</i> when it queues: its class's next pass, or the virtual time if that
 * is later (a class that was idle banks no credit). The class's next pass then grows by
 * {@code STRIDE / weight}. Slots go to the smallest tag (ties: the heavier class, then the older
 * arrival), and the virtual time becomes the tag served. Tags of one class grow strictly, so a class
 * is FIFO; while several classes wait, each gets slots in proportion to its weight, so a class with
 * waiters is never starved. With one class (no {@code -priority-class}) tags follow arrival: a FIFO.
 * Instances agree on a class by its name; each ticket carries its own weight.
 *
 * <p>Clients: a ticket of a named client (not {@code anonymous}) takes its pass from its
 * <i>flow</i>, its class and client together, whose pass grows by {@code STRIDE / (class weight x
 * client weight)}: inside one class, clients get turns in proportion to their weights and each
 * client's own tickets stay FIFO, so one instance's swarm cannot starve another instance's
 * interactive client. Flows differ from the in-process scheduler in one way: with several classes
 * waiting, each named client's flow counts at its class's weight, so a class's share grows with
 * its number of waiting clients (with one class, the default, the two agree). A flow whose pass the
 * virtual time has reached is dropped ({@code B:qf}): it would re-enter at the virtual time anyway,
 * so Redis keeps flows only for clients served recently.
 *
 * <pre>
 *   B:qt  zset  ticket id → tag            the service order
 *   B:qw  hash  ticket id → weight         for ties and for overflow's victim
 *   B:qp  hash  class → next pass, and {@code #vt} → the virtual time (class names never hold '#')
 *   B:qr  zset  ticket id → expiry ms      tickets refused by overflow, so a renewal reports them
 *   B:qf  zset  flow (class|client) → next pass, for named clients
 * </pre>
 * Tags are integers below 2^53 (exact in a Lua number and a zset score) for 2^33 grants at weight 1.
 */
final class ClassQueueLua {
    private ClassQueueLua() {
    }

    /** Defines {@code queueTicket(id, cls, weight, client, cweight)}, {@code nextTicket()}, {@code served(tag)}, {@code victimFor(weight)}. */
    static final String FUNCTIONS = """
            local STRIDE = 1048576
            local function queueTicket(id, cls, weight, client, cweight)
              local seq = redis.call('INCR', SEQ)
              local vt = tonumber(redis.call('HGET', QP, '#vt') or '0')
              local tag
              if client == nil or client == '' or client == 'anonymous' then
                tag = math.max(tonumber(redis.call('HGET', QP, cls) or '0'), vt)
                redis.call('HSET', QP, cls, tag + math.floor(STRIDE / weight))
              else
                local flow = cls .. '|' .. client
                tag = math.max(tonumber(redis.call('ZSCORE', QF, flow) or '0'), vt)
                redis.call('ZADD', QF, tag + math.max(1, math.floor(STRIDE / (weight * (cweight or 1)))), flow)
              end
              redis.call('ZADD', Q, seq, id); redis.call('ZADD', QT, tag, id); redis.call('HSET', QW, id, weight)
              redis.call('ZADD', QL, now + lease, id); redis.call('ZADD', QA, now, id)
            end
            -- the ticket whose turn it is and its tag, or nil
            local function nextTicket()
              local head = redis.call('ZRANGE', QT, 0, 0, 'WITHSCORES')
              if #head == 0 then return nil end
              local tied = redis.call('ZRANGEBYSCORE', QT, head[2], head[2])
              if #tied == 1 then return tied[1], tonumber(head[2]) end
              local best, bw, bs = nil, -1, nil
              for _, id in ipairs(tied) do
                local w = tonumber(redis.call('HGET', QW, id) or '1')
                local s = tonumber(redis.call('ZSCORE', Q, id) or '0')
                if w > bw or (w == bw and s < bs) then best, bw, bs = id, w, s end
              end
              return best, tonumber(head[2])
            end
            local function served(tag)
              redis.call('HSET', QP, '#vt', tag)
              redis.call('ZREMRANGEBYSCORE', QF, '-inf', tag)
            end
            -- the newest ticket of the lightest class lighter than weight, or nil (then the arrival is refused)
            local function victimFor(weight)
              local all = redis.call('HGETALL', QW)
              local vid, vw, vs = nil, nil, nil
              for i = 1, #all, 2 do
                local w = tonumber(all[i + 1])
                if w < weight then
                  local s = tonumber(redis.call('ZSCORE', Q, all[i]) or '0')
                  if vid == nil or w < vw or (w == vw and s > vs) then vid, vw, vs = all[i], w, s end
                end
              end
              return vid
            end
            """;
}
