package shaper.proxy;

import java.util.function.Supplier;

import io.helidon.http.Headers;
import shaper.admission.Verdict;
import shaper.budget.TokenBudget;
import shaper.observe.ExchangeTrace;
import shaper.proxy.watch.ClientConnection;

/**
 * What one exchange was granted, and the one place it is all given back. Stages hand over each grant
 * the moment they get it ({@link #spent}, {@link #admitted}, {@link #forwarded}, {@link #sent});
 * {@link #run} runs the stages and then, on every path (an answer, a refusal, a client that left, an
 * exception), settles in one order:
 *
 * <pre>
 * stop watching the client ─▶ settle the budget from the actual usage ─▶ cancel an unused breaker ticket
 *   ─▶ report the load sample to an adaptive limit ─▶ give back the slots ─▶ publish the one record
 * </pre>
 *
 * The budget is settled before the slots go back; the probe and the slots go back whatever settling
 * the budget did, and the record is published whatever went before. A routed exchange that leaves a
 * target ({@link #movedOn}) gives back what that target granted in the same order, publishing nothing,
 * and is then settled by the next one's provider. Belongs to the exchange's thread.
 */
final class Settlement {
    private ProviderAssembly provider;
    private final ClientSink sink;
    private final ClientConnection client;
    private final ExchangeTrace trace;
    private final Headers requestHeaders;
    private TokenBudget.Spend spend;
    private Verdict.Admitted admitted;
    private boolean forwarded;
    private byte[] sentBytes;
    private RequestCoding sentCoding;

    Settlement(ProviderAssembly provider, ClientSink sink, ClientConnection client, ExchangeTrace trace, Headers requestHeaders) {
        this.provider = provider;
        this.sink = sink;
        this.client = client;
        this.trace = trace;
        this.requestHeaders = requestHeaders;
    }

    /**
     * The exchange is served by {@code target}'s provider from now on: its grants are asked there, and
     * its record is that provider's (the trace moves to its journal).
     */
    void servedBy(Target target) {
        provider = target.provider();
        trace.servedBy(provider.publisher().journal());
    }

    /**
     * The exchange left its target, {@code left} being what happened there (nothing of it answered):
     * the budget, an unused breaker ticket and the slots go back, in the order {@link #run} settles.
     */
    void movedOn(ExchangeResult left) {
        try {
            release(left, false);
        } finally {
            spend = null;
            admitted = null;
            forwarded = false;
            sentBytes = null;
            sentCoding = null;
        }
    }

    /** The token budget's spend for this exchange, settled from the actual usage at the end. */
    void spent(TokenBudget.Spend budgetSpend) {
        spend = budgetSpend;
    }

    /** The admission chain's grant: its breaker ticket and its slots. */
    void admitted(Verdict.Admitted grant) {
        admitted = grant;
    }

    /** The request went to the attempts: the breaker ticket is theirs to report from now on. */
    void forwarded() {
        forwarded = true;
    }

    /** The body about to be sent, for the usage accounting (its model and input size); null when streamed. */
    void sent(byte[] bytes, RequestCoding coding) {
        sentBytes = bytes;
        sentCoding = coding;
    }

    /**
     * Runs {@code stages}, then settles. An unexpected failure still gets its record, then goes on
     * as it was thrown.
     */
    ExchangeResult run(Supplier<ExchangeResult> stages) {
        ExchangeResult result = ExchangeResult.START;
        StageFailed failure = null;
        try {
            result = stages.get();
        } catch (StageFailed e) {
            result = e.result();
            failure = e;
        } catch (StreamCopy.SourceFailed clientLeft) {
            result = result.clientLeft();
        } catch (RuntimeException | Error e) {
            result = result.failedLocally();
            failure = new StageFailed(result, e);
        } finally {
            settle(result);
        }
        if (failure != null) {
            throw failure.rethrow();
        }
        return result;
    }

    private void settle(ExchangeResult result) {
        client.unwatch(); // before anything else touches the connection
        try {
            release(result, true);
        } finally {
            provider.publisher().publish(result.record(trace, JournalHeaders.of(requestHeaders), sink.journalHeaders(result.status())));
        }
    }

    /** @param answered whether {@code result} is the client's answer (its usage is the exchange's) or a target left behind */
    private void release(ExchangeResult result, boolean answered) {
        try {
            if (answered) {
                byte[] sent = sentBytes;
                RequestCoding coding = sentCoding;
                trace.usage(provider.tokens().finish(trace.usageScanner(), result.status(),
                        () -> sent == null ? null : coding.forUsage(sent), spend));
            } else if (spend != null) {
                spend.settle(shaper.usage.TokenUsage.NONE); // nothing was used there: the estimate goes back
            }
        } finally {
            giveBack(result);
        }
    }

    private void giveBack(ExchangeResult result) {
        if (admitted == null) {
            return;
        }
        if (!forwarded) {
            provider.breaker().cancel(admitted.breaker());
        }
        // the load sample goes to an adaptive limit before the slots are given back
        admitted.slots().report(result.loadSample(trace.upstreamFirstByteNanos(), requestHeaders.contentLength().orElse(-1L)));
        admitted.slots().dispose(result.slots(), provider.breaker()::penalty);
    }
}
