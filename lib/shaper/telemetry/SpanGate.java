package shaper.telemetry;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The bound in front of the SDK's batch span processor, so that export never holds up an exchange and
 * every span it loses is counted: an ended span is handed on only while fewer than the queue's size are
 * waiting for export; past that it is dropped here, at once, and counted. The count of waiting spans
 * falls when the exporter takes a batch, so a batch being sent still counts against the bound (the gate
 * may drop a little early, never late). Thread-safe.
 */
final class SpanGate {
    private final int bound;
    private final AtomicInteger waiting = new AtomicInteger();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder exported = new LongAdder();
    private final LongAdder failed = new LongAdder();

    /** @param bound the batch processor's queue size ({@code OTEL_BSP_MAX_QUEUE_SIZE}, 2048 by default) */
    SpanGate(int bound) {
        this.bound = Math.max(1, bound);
    }

    long dropped() {
        return dropped.sum();
    }

    long exported() {
        return exported.sum();
    }

    long failed() {
        return failed.sum();
    }

    SpanProcessor in(SpanProcessor batch) {
        return new SpanProcessor() {
            @Override
            public void onStart(Context parent, ReadWriteSpan span) {
                batch.onStart(parent, span);
            }

            @Override
            public boolean isStartRequired() {
                return batch.isStartRequired();
            }

            @Override
            public void onEnd(ReadableSpan span) {
                if (!span.getSpanContext().isSampled()) {
                    return; // never exported: the batch processor would ignore it too
                }
                if (waiting.incrementAndGet() > bound) {
                    waiting.decrementAndGet();
                    dropped.increment();
                    return;
                }
                batch.onEnd(span);
            }

            @Override
            public boolean isEndRequired() {
                return true;
            }

            // shutting down and flushing are the batch processor's own
            @Override public CompletableResultCode shutdown() { return batch.shutdown(); }
            @Override public CompletableResultCode forceFlush() { return batch.forceFlush(); }
        };
    }

    SpanExporter out(SpanExporter exporter) {
        return new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                int n = spans.size();
                waiting.addAndGet(-n);
                CompletableResultCode result = exporter.export(spans);
                result.whenComplete(() -> (result.isSuccess() ? exported : failed).add(n));
                return result;
            }

            @Override public CompletableResultCode flush() { return exporter.flush(); }
            @Override public CompletableResultCode shutdown() { return exporter.shutdown(); }
        };
    }
}
