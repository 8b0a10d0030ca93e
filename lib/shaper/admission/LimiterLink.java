package shaper.admission;

import java.util.function.Function;

import shaper.limit.AdmissionException;
import shaper.limit.Limiter;
import shaper.limit.LimiterUnavailableException;
import shaper.limit.QueueCancelledException;
import shaper.limit.QueueFullException;
import shaper.limit.QueueTimeoutException;

/**
 * A limiter link of the {@link AdmissionChain}: takes the slot of the one limiter of its kind that
 * the request's {@link AdmissionClass} names (route or default pool, global, large-request gate),
 * waiting in its FIFO queue, and turns each way a limiter can refuse into a typed {@link Refusal}.
 * A request that names no limiter of this kind passes.
 */
public final class LimiterLink implements AdmissionLink {
    private final String kind;
    private final Function<AdmissionClass, Limiter> select;
    private final SlotQueue queue;

    private LimiterLink(String kind, Function<AdmissionClass, Limiter> select, SlotQueue queue) {
        this.kind = kind;
        this.select = select;
        this.queue = queue;
    }

    /** The matched route's limiter, or the default pool ({@code -limit}, {@code -concurrency}). */
    static LimiterLink route(SlotQueue queue) {
        return new LimiterLink("route", AdmissionClass::pool, queue);
    }

    /** The provider-wide {@code -global-concurrency} limiter. */
    static LimiterLink global(SlotQueue queue) {
        return new LimiterLink("global", AdmissionClass::global, queue);
    }

    /**
     * The request's view of the provider's token budget ({@code -rpm}, {@code -tpm}, {@code -itpm},
     * {@code -otpm}, {@code -budget-from-headers}): it waits for tokens in the same queue discipline
     * as for a slot, after holding its slots, so the tokens are taken right before the request goes upstream.
     */
    static LimiterLink budget(SlotQueue queue) {
        return new LimiterLink("token budget", AdmissionClass::budget, queue);
    }

    /** The large-request gate ({@code -big-ctx-tokens}, {@code -big-ctx-concurrency}). */
    static LimiterLink largeRequestGate(SlotQueue queue) {
        return new LimiterLink("large-request gate", AdmissionClass::gate, queue);
    }

    @Override
    public LinkResult admit(AdmissionRequest request) throws InterruptedException {
        Limiter limiter = select.apply(request.cls());
        if (limiter == null) {
            return LinkResult.PASS;
        }
        try {
            return new LinkResult.Slot(limiter, queue.take(limiter, request));
        } catch (QueueFullException e) {
            return new Refusal.QueueFull(e.depth(), e.retryAfter().orElse(null));
        } catch (QueueTimeoutException e) {
            return new Refusal.QueueTimeout(e.stopping());
        } catch (LimiterUnavailableException e) {
            return new Refusal.LimiterUnavailable();
        } catch (QueueCancelledException | ClientGoneException e) {
            return new Refusal.ClientGone();
        } catch (AdmissionException e) {
            throw new IllegalStateException("unexpected admission outcome", e);
        }
    }

    @Override
    public String toString() {
        return "LimiterLink[" + kind + "]";
    }
}
