package shaper.budget;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import shaper.limit.LimiterUnavailableException;
import shaper.limit.QueuePlace;
import shaper.limit.QueueFullException;
import shaper.limit.Ticket;
import shaper.limit.TimeSource;
import shaper.ratelimit.RateLimitHeaders;
import shaper.ratelimit.RateLimitKind;
import shaper.usage.TokenUsage;

/**
 * One provider's token budgets and the queue of requests waiting for them (a FIFO per priority
 * class, weighted fair across classes: {@link BudgetQueue}).
 *
 * <pre>
 * enqueue(cost) ──queue empty, not held, every bucket fits──▶ granted: cost taken from each bucket
 *      │ else
 *      ▼
 *  queued (the fair order picks the head; nobody overtakes it) ──head fits──▶ granted; the next head is tried
 *      │ the head does not fit: a timer wakes the queue when the longest missing refill is done
 *      ▼
 *  exchange ends ──settle(actual usage)──▶ each bucket gets back (or pays) actual − estimate
 * </pre>
 *
 * Invariant: a queued ticket is granted only when it is the head and every bucket fits its cost
 * (a cost larger than a whole bucket fits a full bucket). With {@code -budget-from-headers} each
 * response's headers restate the buckets (see {@link TokenBucket#restate}) and a {@code 429}/{@code 529}
 * {@code retry-after} holds the whole queue. The buckets and the hold live in a {@link BucketStore}
 * (this process's, or Redis in cluster mode: one failing closed refuses arrivals and fails the queue
 * with {@link LimiterUnavailableException}). Everything below is guarded by {@link #lock}, held for
 * the store's bookkeeping only; tickets park on their own conditions; time is injected.
 */
public final class TokenBudget {
    /** The label of waits caused by a {@code retry-after} hold rather than a bucket. */
    public static final String HOLD = "retry_after";

    private final String name;
    private final boolean fromHeaders;
    final TimeSource time;
    final ReentrantLock lock = new ReentrantLock();
    private final CostEstimator estimator = new CostEstimator();
    private final Map<String, LongAdder> waits = new ConcurrentHashMap<>();
    /** Whether the store answers from memory; a shared one is never called on the timer's thread. */
    private final boolean localStore;

    // Guarded by lock.
    private final BucketStore store;
    private final BudgetQueue queue;
    private TimeSource.Cancellable timer;
    private long tickets;

    /** A budget whose buckets live in this process. */
    public TokenBudget(String name, BudgetConfig config, TimeSource time) {
        this(name, config, time, new BudgetBuckets(config, time));
    }

    /** A budget whose buckets live in {@code store} (cluster mode: Redis). */
    public TokenBudget(String name, BudgetConfig config, TimeSource time, BucketStore store) {
        this.name = Objects.requireNonNull(name, "name");
        this.time = Objects.requireNonNull(time, "time");
        this.fromHeaders = config.fromHeaders();
        this.store = Objects.requireNonNull(store, "store");
        this.queue = new BudgetQueue(store);
        this.localStore = store instanceof BudgetBuckets;
        store.onChange(this::wake);
    }

    public String name() {
        return name;
    }

    public CostEstimator estimator() {
        return estimator;
    }

    /**
     * Takes {@code cost} from every bucket now, or joins the end of the default class's queue.
     *
     * @param maxDepth the most waiters allowed, counting this one; 0 = unbounded
     * @throws QueueFullException {@code maxDepth} waiters were already queued; nothing was queued or taken
     * @throws LimiterUnavailableException the shared store is unreachable and fails closed; nothing was queued or taken
     */
    public Ticket enqueue(Cost cost, int maxDepth) throws QueueFullException, LimiterUnavailableException {
        return join(cost, maxDepth, QueuePlace.DEFAULT, true);
    }

    /**
     * As {@link #enqueue}, at {@code place} (its class's lane, its client's line); unless
     * {@code mayQueue}, null instead of a queued ticket (and no reservation). Who a bound refuses:
     * {@link BudgetQueue#makeRoom}.
     */
    BudgetTicket join(Cost cost, int maxDepth, QueuePlace place, boolean mayQueue) throws QueueFullException, LimiterUnavailableException {
        lock.lock();
        try {
            long number = ++tickets;
            BucketStore.Block block = null;
            if (queue.isEmpty()) {
                block = store.take(cost, number);
                if (block == null) {
                    return BudgetTicket.granted(this, number, cost, place);
                }
            }
            if (!mayQueue) {
                if (block != null) {
                    store.leave(number);
                }
                return null;
            }
            BudgetTicket head = queue.head();
            queue.makeRoom(name, maxDepth, place);
            String reason = block != null ? block.what() : head.waitingFor();
            BudgetTicket t = BudgetTicket.queued(this, number, cost, place, reason == null ? RateLimitKind.TOKENS.word() : reason);
            queue.add(t, block != null);
            if (block != null) {
                schedule(block.nanos()); // the new head: it wakes when its wait is over
            } else if (queue.head() != head) {
                pump(); // the fair order put another head first (the arrival, or the one behind a refused head)
            }
            if (t.queued()) {
                waits.computeIfAbsent(t.waitingFor(), k -> new LongAdder()).increment();
            }
            return t;
        } catch (BucketStore.Unavailable e) {
            throw new LimiterUnavailableException(name + " budget", e.getMessage());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether a request costs nothing and never waits for tokens: {@code count_tokens}, any
     * {@code GET}/{@code HEAD} ({@code /v1/models}), and {@code :unlimited} routes.
     */
    public static boolean free(String method, String rawPath, boolean unlimited) {
        String p = rawPath.endsWith("/") ? rawPath.substring(0, rawPath.length() - 1) : rawPath;
        return unlimited || method.equalsIgnoreCase("GET") || method.equalsIgnoreCase("HEAD") || p.endsWith("/count_tokens");
    }

    /** One request's spending of this budget: its cost, the limiter view the admission chain waits on, and later its permit. */
    public Spend spend(Cost cost) {
        return new Spend(new BudgetLimiter(this, cost));
    }

    /** See {@link #spend}. Thread-safe. */
    public static final class Spend {
        private final BudgetLimiter view;

        private Spend(BudgetLimiter view) {
            this.view = view;
        }

        public Cost cost() {
            return view.cost();
        }

        /** The view to put in the request's admission chain. */
        public shaper.limit.Limiter limiter() {
            return view;
        }

        /** {@code waiting for tokens (input)} and so on while queued for tokens; null otherwise (then it waits for a slot). */
        public String waitingFor() {
            return view.waitingFor();
        }

        /** Settles the claimed permit with the actual usage; nothing when the request was never admitted. */
        public void settle(TokenUsage actual) {
            BudgetPermit p = view.permit();
            if (p != null) {
                p.settle(actual);
            }
        }
    }

    /**
     * Reconciles an exchange's estimate with what it actually used: each bucket gets the
     * difference back or pays it. Nothing reported (an error answer, a client gone before the
     * answer) returns every token of the estimate; the request itself stays counted.
     */
    public void settle(Cost estimate, TokenUsage actual) {
        estimator.learn(estimate, actual);
        changeThenPump(() -> store.settle(estimate, actual));
    }

    /** With {@code -budget-from-headers}: what one response said; otherwise a no-op. */
    public void observe(RateLimitHeaders.Observation o, Instant wallNow) {
        if (!fromHeaders || o.empty()) {
            return;
        }
        changeThenPump(() -> store.restate(o, wallNow));
    }

    /** Each bucket's level now (may be negative: a debt), by kind. */
    public Map<RateLimitKind, Double> levels() {
        return locked(store::levels);
    }

    /** Requests that had to wait, by what they waited for (a kind's {@link RateLimitKind#label()}, or {@link #HOLD}). */
    public Map<String, Long> waits() {
        Map<String, Long> out = new LinkedHashMap<>();
        waits.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** What {@code ticket} waits for while queued ("input", "output", "tokens", "requests" or {@link #HOLD}); null for another limiter's ticket. */
    public static String waitingFor(Ticket ticket) {
        return ticket instanceof BudgetTicket b ? b.waitingFor() : null;
    }

    public int queued() {
        return locked(queue::size);
    }

    /** Waiters per priority class name, for every class seen. */
    public Map<String, Integer> queuedByClass() {
        return locked(queue::queuedByClass);
    }

    private <T> T locked(java.util.function.Supplier<T> read) {
        lock.lock();
        try {
            return read.get();
        } finally {
            lock.unlock();
        }
    }

    // ---- transitions; callers hold the lock ----

    /**
     * Grants heads while they fit; otherwise wakes the queue when the head's wait is over. A store
     * that fails closed fails every waiter instead.
     */
    void pump() {
        try {
            while (!queue.isEmpty()) {
                BucketStore.Block block = queue.tryHead();
                if (block != null) {
                    schedule(block.nanos());
                    return;
                }
            }
        } catch (BucketStore.Unavailable e) {
            queue.failAll(e.getMessage());
        }
    }

    private void schedule(long nanos) {
        if (timer != null) {
            timer.cancel();
        }
        Runnable wake = localStore ? this::wake : () -> Thread.ofVirtual().name("shaper-budget-pump").start(this::wake);
        timer = time.schedule(Duration.ofNanos(Math.max(1_000_000, nanos)), wake);
    }

    /** Wakes the queue: its timer rang, or a shared store's link changed. Any thread. */
    public void wake() {
        changeThenPump(() -> timer = null);
    }

    /** Applies {@code change} under the lock, then grants whoever now fits. */
    private void changeThenPump(Runnable change) {
        lock.lock();
        try {
            change.run();
            pump();
        } finally {
            lock.unlock();
        }
    }

    /** A queued ticket left (timeout, cancel, interrupt): the next one may now be the head. */
    void leave(BudgetTicket t) {
        boolean wasHead = queue.head() == t;
        queue.remove(t);
        if (wasHead) {
            pump();
        }
    }

    /** A granted ticket was cancelled before it was claimed: its cost goes back unused. */
    void returnUnused(Cost cost) {
        store.giveBack(cost);
        pump();
    }
}
