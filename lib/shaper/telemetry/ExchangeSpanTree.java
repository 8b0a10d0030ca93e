package shaper.telemetry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import shaper.observe.ExchangeRecord;
import shaper.observe.ExchangeSpans;
import shaper.observe.Header;
import shaper.observe.Outcome;
import shaper.usage.TokenUsage;

/**
 * One exchange's spans, opened and closed as its trace is stamped:
 *
 * <pre>
 * SERVER  {operation} {model}            arrival ─────────────────────────────────────────▶ finished
 *   ├─ INTERNAL shaper.queue_wait          first queueing ─▶ admission ended
 *   ├─ INTERNAL shaper.transcode request   the request's conversion
 *   ├─ CLIENT   upstream attempt (1)       send ─▶ head ─▶ retrying / next attempt / finished
 *   └─ CLIENT   upstream attempt (2)       … its context is the one sent upstream
 *        └─ INTERNAL shaper.transcode response
 * </pre>
 *
 * Only the exchange's thread (or the one stream thread relaying for it, while it waits) calls in, so
 * the open spans need no lock. Every span opened here is ended by {@link #finished} at the latest.
 */
final class ExchangeSpanTree implements ExchangeSpans {
    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final GenAiMetrics metrics;
    private final Span server;
    private final Context serverContext;
    private Span queue;
    private Span attempt;
    private Span transcode;

    ExchangeSpanTree(Telemetry.Spans from, Span server, Context serverContext) {
        this.tracer = from.tracer();
        this.propagator = from.propagator();
        this.metrics = from.metrics();
        this.server = server;
        this.serverContext = serverContext;
    }

    @Override
    public void queued(String limiter, int position, String cls, String client) {
        if (queue == null) {
            queue = tracer.spanBuilder("shaper.queue_wait").setParent(serverContext).setSpanKind(SpanKind.INTERNAL)
                    .setAttribute(GenAi.QUEUE_LIMITER, limiter).setAttribute(GenAi.QUEUE_POSITION, (long) position)
                    .setAttribute(GenAi.PRIORITY_CLASS, cls).setAttribute(GenAi.CLIENT, client).startSpan();
        } else {
            // a later limiter queued it again: the span covers the whole wait, each queueing is an event
            queue.addEvent("queued", io.opentelemetry.api.common.Attributes.of(GenAi.QUEUE_LIMITER, limiter,
                    GenAi.QUEUE_POSITION, (long) position));
        }
    }

    @Override
    public void queueEnded() {
        if (queue != null) {
            queue.end();
        }
    }

    @Override
    public List<Header> attemptStarted(int number) {
        endAttempt();
        attempt = tracer.spanBuilder("upstream attempt").setParent(serverContext).setSpanKind(SpanKind.CLIENT)
                .setAttribute(GenAi.ATTEMPT, (long) number).startSpan();
        List<Header> fields = new ArrayList<>(2);
        propagator.inject(serverContext.with(attempt), fields, (carrier, name, value) -> carrier.add(new Header(name, value)));
        return fields;
    }

    @Override
    public void attemptAnswered(int status) {
        if (attempt != null) {
            attempt.setAttribute(GenAi.HTTP_STATUS, (long) status);
            if (status >= 500) {
                attempt.setStatus(StatusCode.ERROR);
                attempt.setAttribute(GenAi.ERROR_TYPE, Integer.toString(status));
            }
        }
    }

    @Override
    public void retrying(String reason, Duration backoff) {
        if (attempt != null) {
            attempt.setAttribute(GenAi.RETRY_REASON, reason);
            attempt.setAttribute(GenAi.RETRY_BACKOFF, backoff.toNanos() / 1e9);
            attempt.setStatus(StatusCode.ERROR, "retried: " + reason);
            endAttempt();
        }
    }

    @Override
    public void transcoding(String phase) {
        Context parent = attempt != null ? serverContext.with(attempt) : serverContext;
        transcode = tracer.spanBuilder("shaper.transcode " + phase).setParent(parent).setSpanKind(SpanKind.INTERNAL)
                .setAttribute(GenAi.TRANSCODE_PHASE, phase).startSpan();
    }

    @Override
    public void transcoded() {
        if (transcode != null) {
            transcode.end();
            transcode = null;
        }
    }

    @Override
    public void finished(ExchangeRecord record, AnswerFacts answer) {
        transcoded();
        queueEnded();
        if (attempt != null && record.attempts() > 0 && record.outcome() != Outcome.CLEAN) {
            attempt.setStatus(StatusCode.ERROR, record.reason().name().toLowerCase(Locale.ROOT));
        }
        endAttempt();
        String operation = GenAi.operation(record.path());
        TokenUsage usage = record.usage();
        AttributesBuilder a = io.opentelemetry.api.common.Attributes.builder()
                .put(GenAi.HTTP_STATUS, (long) record.status())
                .put(GenAi.OUTCOME, record.outcome().label())
                .put(GenAi.END_REASON, record.reason().name().toLowerCase(Locale.ROOT))
                .put(GenAi.ATTEMPTS, (long) record.attempts())
                .put(GenAi.ROUTE, record.route().name().toLowerCase(Locale.ROOT))
                .put(GenAi.TRANSPORT, record.transport());
        if (!record.priorityClass().isEmpty()) {
            a.put(GenAi.PRIORITY_CLASS, record.priorityClass());
        }
        if (!operation.isEmpty()) {
            a.put(GenAi.OPERATION, operation).put(GenAi.PROVIDER, GenAi.provider(record.path()));
            if (!usage.model().isEmpty()) {
                a.put(GenAi.REQUEST_MODEL, usage.model());
            }
            if (!answer.model().isEmpty()) {
                a.put(GenAi.RESPONSE_MODEL, answer.model());
            }
            if (!answer.finishReason().isEmpty()) {
                a.put(GenAi.FINISH_REASONS, List.of(answer.finishReason()));
            }
            if (usage.source() != TokenUsage.Source.NONE) {
                a.put(GenAi.INPUT_TOKENS, usage.allInput()).put(GenAi.OUTPUT_TOKENS, usage.output())
                        .put(GenAi.CACHE_READ_TOKENS, usage.cacheRead()).put(GenAi.CACHE_CREATION_TOKENS, usage.cacheWrite())
                        .put(GenAi.REASONING_TOKENS, usage.reasoning())
                        .put(GenAi.USAGE_SOURCE, usage.source().name().toLowerCase(Locale.ROOT));
            }
            server.updateName(usage.model().isEmpty() ? operation : operation + " " + usage.model());
        }
        if (record.outcome() != Outcome.CLEAN || record.status() >= 500) {
            server.setStatus(StatusCode.ERROR, record.reason().name().toLowerCase(Locale.ROOT));
            a.put(GenAi.ERROR_TYPE, record.status() >= 400 ? Integer.toString(record.status()) : record.reason().name().toLowerCase(Locale.ROOT));
        }
        server.setAllAttributes(a.build());
        server.end();
        metrics.record(record, operation);
    }

    private void endAttempt() {
        if (attempt != null) {
            attempt.end();
            attempt = null;
        }
    }
}
