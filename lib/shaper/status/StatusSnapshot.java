package shaper.status;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import shaper.admission.LimiterViews;
import shaper.breaker.BreakerSnapshot;
import shaper.config.UpstreamUrl;
import shaper.limit.LimiterView;
import shaper.observe.ExchangeRecord;
import shaper.observe.InFlight;
import shaper.observe.Journal;
import shaper.observe.Outcome;
import shaper.proxy.ProviderAssembly;

/**
 * What the status page shows, as one JSON document per event: per provider its slots (in use, held,
 * cooling, idle, per limiter), who queues (by class, with what each waits for), the token budget's
 * levels, the breaker, and the recent exchanges and errors. Read only from the assembly's snapshots;
 * the same fields as the exchange log line and no more: never a header, a query string or a body.
 */
final class StatusSnapshot {
    static final ObjectMapper JSON = new ObjectMapper();
    /** Recent exchanges and errors shown per provider. */
    static final int RECENT = 20;

    private StatusSnapshot() {
    }

    static String of(List<ProviderAssembly> providers, Instant now) {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("at", now.toString());
        ArrayNode list = doc.putArray("providers");
        for (ProviderAssembly p : providers) {
            list.add(provider(p, now));
        }
        return doc.toString();
    }

    private static ObjectNode provider(ProviderAssembly p, Instant now) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", p.name());
        o.put("upstream", UpstreamUrl.display(p.config().upstream()));
        LimiterViews views = p.limiters().views();
        ArrayNode limiters = o.putArray("limiters");
        views.byKey().values().forEach(v -> limiters.add(limiter(v)));
        Journal journal = p.publisher().journal();
        List<InFlight> queued = journal.queued();
        o.put("queued", queued.size());
        o.put("active", journal.activeCount());
        ArrayNode waiting = o.putArray("waiting");
        queued.forEach(f -> waiting.addObject().put("method", f.method()).put("path", f.path()).put("class", f.priorityClass())
                .put("client", f.client()).put("for", f.waitingFor()).put("ageMs", f.age().toMillis()));
        ObjectNode byClient = o.putObject("queuedByClient");
        queued.forEach(f -> byClient.put(f.client(), byClient.path(f.client()).asInt() + 1));
        ObjectNode byClass = o.putObject("queuedByClass");
        queued.forEach(f -> byClass.put(f.priorityClass().isEmpty() ? "default" : f.priorityClass(),
                byClass.path(f.priorityClass().isEmpty() ? "default" : f.priorityClass()).asInt() + 1));
        p.tokens().budget().ifPresent(b -> {
            ObjectNode levels = o.putObject("budget");
            b.levels().forEach((kind, level) -> levels.put(kind.label(), level));
        });
        if (p.config().breaker().enabled()) {
            BreakerSnapshot s = p.breaker().snapshot();
            o.putObject("breaker").put("state", s.state().name().toLowerCase(java.util.Locale.ROOT))
                    .put("failures", s.failuresInWindow()).put("nextProbeMs", s.nextProbeIn().toMillis());
        }
        List<ExchangeRecord> recent = journal.recent();
        ArrayNode rows = o.putArray("recent");
        recent.stream().limit(RECENT).forEach(r -> rows.add(row(r)));
        ArrayNode errors = o.putArray("errors");
        recent.stream().filter(r -> r.outcome() != Outcome.CLEAN || r.status() >= 400).limit(RECENT).forEach(r -> errors.add(row(r)));
        return o;
    }

    private static ObjectNode limiter(LimiterView v) {
        ObjectNode l = JSON.createObjectNode();
        l.put("name", v.counts().name()).put("limit", v.counts().effectiveLimit()).put("inUse", v.active()).put("held", v.held())
                .put("cooling", v.cooling()).put("idle", v.counts().idle()).put("waiters", v.counts().waiters());
        ObjectNode classes = l.putObject("byClass");
        v.queuedByClass().forEach(classes::put);
        return l;
    }

    /** One exchange as its log line tells it: path without the query, no header, no body. */
    private static ObjectNode row(ExchangeRecord r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", r.id()).put("at", r.timings().arrivedAt().toString()).put("method", r.method()).put("path", r.path())
                .put("status", r.status()).put("outcome", r.outcome().label()).put("reason", r.reason().name().toLowerCase(java.util.Locale.ROOT))
                .put("ms", r.timings().duration().toMillis()).put("queueMs", r.timings().queueWait().toMillis())
                .put("attempts", r.attempts()).put("class", r.priorityClass()).put("model", r.usage().model())
                .put("in", r.usage().allInput()).put("out", r.usage().output());
        return o;
    }
}
