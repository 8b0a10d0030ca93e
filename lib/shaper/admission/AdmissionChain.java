package shaper.admission;

import java.util.ArrayList;
import java.util.List;

import shaper.breaker.Admission;
import shaper.breaker.CircuitBreaker;
import shaper.limit.Permit;
import shaper.limit.QueueClass;
import shaper.limit.QueueClient;
import shaper.limit.QueuePlace;
import shaper.limit.TimeSource;

/**
 * A provider's admission: its policies as a chain of {@link AdmissionLink}s, asked in order, each
 * granting a hold or refusing.
 *
 * <pre>
 * classify ─▶ circuit breaker ─▶ route or default pool ─▶ global ─▶ large-request gate ─▶ token budget ─▶ Admitted
 *                   │ open               │ FIFO              │ FIFO       │ FIFO                 │ FIFO
 *                   ▼                    ▼                   ▼            ▼
 *              CircuitOpen     QueueFull / QueueTimeout / LimiterUnavailable / ClientGone
 *                         ◀──────── one -queue-timeout budget ────────▶
 * </pre>
 *
 * On a refusal every hold granted so far is given back (a limiter slot released at once, the
 * breaker ticket cancelled) before the refusal is returned; a link that throws is treated the same
 * way. A new policy (token budgets, priority classes) is one more link, not a new branch.
 *
 * <p>Thread-safe: links and limiters are shared; an {@link AdmissionRequest} belongs to its thread.
 */
public final class AdmissionChain {
    private final ProviderLimiters limiters;
    private final AdmissionConfig config;
    private final SlotQueue queue;
    private final List<AdmissionLink> links;
    private final HeldSlots held;

    private AdmissionChain(ProviderLimiters limiters, AdmissionConfig config, SlotQueue queue, List<AdmissionLink> links, HeldSlots held) {
        this.limiters = limiters;
        this.config = config;
        this.queue = queue;
        this.links = List.copyOf(links);
        this.held = held;
    }

    /** The standard chain: circuit breaker, route or default pool, global limiter, large-request gate, token budget. */
    public static AdmissionChain standard(ProviderLimiters limiters, CircuitBreaker breaker, AdmissionConfig config, TimeSource time,
                                          DisconnectWatcher watcher) {
        SlotQueue queue = new SlotQueue(config, time, watcher);
        return new AdmissionChain(limiters, config, queue, List.of(new CircuitBreakerLink(breaker), LimiterLink.route(queue),
                LimiterLink.global(queue), LimiterLink.largeRequestGate(queue), LimiterLink.budget(queue)), new HeldSlots(time));
    }

    /** This chain with {@code link} asked last. */
    public AdmissionChain then(AdmissionLink link) {
        List<AdmissionLink> more = new ArrayList<>(links);
        more.add(link);
        return new AdmissionChain(limiters, config, queue, more, held);
    }

    /**
     * The limiters a request must pass; see {@link ProviderLimiters#classify}.
     *
     * @param bodyLength the request body's declared length, -1 when unknown
     */
    public AdmissionClass classify(String method, String rawPath, long bodyLength) {
        return limiters.classify(method, rawPath, bodyLength);
    }

    /** The large-request gate's threshold in body bytes; {@link Long#MAX_VALUE} without a gate. */
    public long largeRequestBytes() {
        return limiters.largeRequestBytes();
    }

    /**
     * Asks every link in order.
     *
     * @return {@link Verdict.Admitted} with the breaker admission and the slots, or the first refusal
     *         (an interrupt is {@link Refusal.ClientGone}, with the thread's interrupt flag kept)
     */
    public Verdict admit(AdmissionClass cls, QueueWait wait) {
        return admit(cls, QueueClass.DEFAULT, wait);
    }

    /**
     * Asks every link in order, queueing in {@code queueClass}'s lane of each limiter (weighted fair
     * across classes, FIFO within one; see {@code shaper.limit.FairQueue}).
     */
    public Verdict admit(AdmissionClass cls, QueueClass queueClass, QueueWait wait) {
        return admit(cls, new QueuePlace(queueClass, QueueClient.ANONYMOUS), wait);
    }

    /**
     * Asks every link in order, queueing at {@code place} in each limiter: the priority class's lane
     * (weighted fair across classes), the client's line inside it (weighted fair across clients,
     * FIFO within one; see {@code shaper.limit.FairQueue}).
     */
    public Verdict admit(AdmissionClass cls, QueuePlace place, QueueWait wait) {
        AdmissionRequest request = new AdmissionRequest(cls, place, wait, queue.time().nanoTime());
        List<LinkResult.Hold> held = new ArrayList<>(links.size());
        boolean ok = false;
        try {
            for (AdmissionLink link : links) {
                LinkResult result;
                try {
                    result = link.admit(request);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    result = new Refusal.ClientGone();
                }
                switch (result) {
                    case Refusal refusal -> {
                        return refusal;
                    }
                    case LinkResult.Hold hold -> held.add(hold);
                }
            }
            ok = true;
            return admitted(cls, held);
        } finally {
            if (!ok) {
                held.reversed().forEach(LinkResult.Hold::giveBack);
            }
        }
    }

    private Verdict.Admitted admitted(AdmissionClass cls, List<LinkResult.Hold> held) {
        Admission breaker = Admission.REJECTED; // reporting a rejected admission is a no-op
        List<Permit> permits = new ArrayList<>(held.size());
        for (LinkResult.Hold h : held) {
            switch (h) {
                case LinkResult.BreakerTicket t -> breaker = t.admission();
                case LinkResult.Slot s -> permits.add(s.permit());
                case LinkResult.Pass p -> { }
            }
        }
        return new Verdict.Admitted(breaker, new Slots(cls, permits, config, this.held));
    }

    /**
     * Fails every queued request, and every request that would queue from now on, with the queue's
     * own timeout answer: the proxy is stopping. Requests holding slots go on.
     */
    public void drain() {
        queue.drain();
    }

    /** Why the provider's slots are held now (failure hold, phantom penalty, cancel cooldown), for the dashboard. */
    public HeldSlots held() {
        return held;
    }

    /** The limiters behind the links, for snapshots. */
    public ProviderLimiters limiters() {
        return limiters;
    }
}
