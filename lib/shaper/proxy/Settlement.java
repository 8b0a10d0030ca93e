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
 * the budget did, and the record is published whatever went before. Belongs to the exchange's thread.
 */
final class Settlement {
    private final ProviderAssembly provider;
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
            byte[] sent = sentBytes;
            trace.usage(provider.tokens().finish(trace.usageScanner(), result.status(),
                    () -> sent == null ? null : sentCoding.forUsage(sent), spend));
        } finally {
            try {
                giveBack(result);
            } finally {
                provider.publisher().publish(result.record(trace, JournalHeaders.of(requestHeaders), sink.journalHeaders(result.status())));
            }
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
