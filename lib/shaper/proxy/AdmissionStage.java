package shaper.proxy;

import java.time.Duration;

import shaper.admission.AdmissionClass;
import shaper.admission.ClientGoneException;
import shaper.admission.QueueWait;
import shaper.admission.Refusal;
import shaper.admission.Verdict;
import shaper.budget.ProviderTokens;
import shaper.budget.TokenBudget;
import shaper.routing.FallbackWhy;

/**
 * The admission stage: pace by the token budget when one is set, pass the target's admission chain
 * (circuit breaker, then its slots, waiting in the priority class's lane if needed), and answer a
 * refusal locally. What the exchange is granted (the budget's spend, the slots) is handed to the
 * {@link Settlement} the moment it is granted, so every later path gives it back.
 *
 * <p>While a request waits it holds its body in memory (bounded, {@value #BUFFER_LIMIT} bytes), so
 * nothing but a disconnect can arrive on the client connection, and that connection is watched; with
 * {@code -queue-comments} and a request that asks for a stream (an SSE-accepting request whose body
 * does not say {@code "stream": false}, or a Messages, Chat or Responses body that says
 * {@code "stream": true}) the SSE response is committed and ticks comments. A body too large to buffer waits silently and
 * unwatched.
 */
final class AdmissionStage {
    /** Bodies up to this size are buffered to wait; larger ones stream once admitted. */
    static final int BUFFER_LIMIT = 8 * 1024 * 1024;

    /** What admission concluded. */
    sealed interface Result permits Admitted, Refused, Moved {
    }

    /** Admitted: the chain's grant, and the body to send (now perhaps in memory). */
    record Admitted(Verdict.Admitted grant, RequestBody body) implements Result {
    }

    /** Refused, and already answered: the exchange ended so. */
    record Refused(ExchangeResult result) implements Result {
    }

    /** Refused by a target the exchange may leave: nothing answered, the exchange goes to its next target. */
    record Moved(ExchangeResult result) implements Result {
    }

    private AdmissionStage() {
    }

    static Result admit(Carriage c, Target target, Intake intake, Settlement settlement) {
        ProviderAssembly provider = target.provider();
        Exchange ex = c.exchange();
        AdmissionClass cls = intake.limiters();
        RequestBody body = intake.body();
        ProviderTokens tokens = provider.tokens();
        if (tokens.budget().isPresent() && !TokenBudget.free(ex.method(), ex.path(), cls.unlimited())) {
            // the cost is estimated from the body, so it is read (bounded) before the request waits
            body = RequestBody.buffer(body, (int) Math.min(Integer.MAX_VALUE - 16, provider.config().retry().maxBodyBytes()));
            TokenBudget.Spend spend = tokens.budget().get().spend(tokens.estimate(ex.coding().forBudget(body), body.length()));
            settlement.spent(spend);
            c.trace().waitingFor(spend::waitingFor);
            cls = cls.withBudget(spend.limiter());
        }
        Waiting waiting = new Waiting(c, body, provider.config().admission().queueComments(), target.patience());
        // the priority class as this target classifies it (a routed request is classified again at each target)
        Verdict verdict = provider.admission().admit(cls, intake.exchange().place(), waiting);
        if (verdict instanceof Verdict.Admitted admitted) {
            settlement.admitted(admitted); // at once: whatever fails from here on, the slots go back
        }
        // a circuit rejection never waits: not a queued request in any view
        c.trace().queueEnded(cls.hasLimiters() && !(verdict instanceof Refusal.CircuitOpen));
        c.client().unwatch();
        return switch (verdict) {
            case Refusal refusal when target.mayMove() && movesOn(refusal) != null ->
                    new Moved(ExchangeResult.START.moved(movesOn(refusal)));
            case Refusal refusal -> new Refused(refused(refusal, c.sink(), provider));
            case Verdict.Admitted admitted -> new Admitted(admitted, waiting.body);
        };
    }

    /** The fallback trigger a refusal is; null for a client that left, which no other target can serve. */
    private static FallbackWhy movesOn(Refusal refusal) {
        return switch (refusal) {
            case Refusal.CircuitOpen open -> FallbackWhy.CIRCUIT_OPEN;
            case Refusal.QueueFull full -> FallbackWhy.QUEUE_FULL;
            case Refusal.QueueTimeout timeout -> FallbackWhy.QUEUE_WAIT;
            case Refusal.LimiterUnavailable unavailable -> FallbackWhy.LIMITER_UNAVAILABLE;
            case Refusal.ClientGone gone -> null;
        };
    }

    /** Answers a refused request locally, through the sink (on the committed comment stream when there is one). */
    private static ExchangeResult refused(Refusal refusal, ClientSink sink, ProviderAssembly provider) {
        ExchangeResult so = ExchangeResult.START;
        return switch (refusal) {
            case Refusal.CircuitOpen open -> sink.fail(so, LocalFailure.circuitOpen(open.untilProbe(), provider.upstreams().unreachable()));
            case Refusal.QueueFull full -> sink.fail(so, LocalFailure.queueFull(full.depth(),
                    full.retryAfter() != null ? full.retryAfter() : provider.config().admission().releaseCooldown()));
            case Refusal.QueueTimeout timeout -> sink.fail(so, LocalFailure.queueTimeout(provider.config().admission().queueTimeout(), timeout.stopping()));
            case Refusal.LimiterUnavailable unavailable -> sink.fail(so, LocalFailure.LIMITER_UNAVAILABLE);
            case Refusal.ClientGone gone -> sink.left(so);
        };
    }

    /** What the request does while a limiter queues it. */
    private static final class Waiting implements QueueWait {
        private final Carriage c;
        private final Duration commentInterval;
        private final Duration patience;
        private RequestBody body;
        private boolean commenting;

        Waiting(Carriage c, RequestBody body, Duration commentInterval, Duration patience) {
            this.c = c;
            this.body = body;
            this.commentInterval = commentInterval;
            this.patience = patience;
        }

        @Override
        public Duration patience() {
            return patience;
        }

        @Override
        public void beforeWaiting() throws ClientGoneException {
            try {
                body = RequestBody.buffer(body, BUFFER_LIMIT);
            } catch (StreamCopy.SourceFailed e) {
                throw new ClientGoneException("client left while sending its body");
            }
            if (commentInterval.isPositive() && !(body instanceof RequestBody.Streamed) && asksForStream()) {
                c.sink().commitForQueue();
                commenting = true;
            }
            // A comment stream notices a departed client at its next write; a silent wait needs the watch.
            if (!commenting && !(body instanceof RequestBody.Streamed)) {
                c.client().watch();
            }
        }

        @Override
        public void queued(String limiter, int position) {
            c.trace().queued(limiter, position);
        }

        @Override
        public Duration tickInterval() {
            return commenting ? commentInterval : Duration.ZERO;
        }

        @Override
        public void tick(Duration waited) throws ClientGoneException {
            c.sink().queueComment(waited);
        }

        @Override
        public boolean clientGone() {
            return !c.client().isOpen();
        }

        /**
         * Whether the answer will be an event stream: the Accept header names one and the body does not
         * say {@code "stream": false}, or, on a Messages, Chat or Responses route, the body says
         * {@code "stream": true} whatever the Accept header (Claude Code streams with
         * {@code Accept: application/json}).
         */
        private boolean asksForStream() {
            Exchange ex = c.exchange();
            if (!ex.acceptsEventStream() && ex.dialect() == Dialect.OTHER) {
                return false;
            }
            byte[] plain = ex.coding().plain(body.bytes(), StreamFlag.CODED_PEEK_LIMIT);
            return ex.acceptsEventStream() ? plain == null || !StreamFlag.isExplicitlyFalse(plain)
                    : plain != null && StreamFlag.isTrue(plain);
        }
    }
}
