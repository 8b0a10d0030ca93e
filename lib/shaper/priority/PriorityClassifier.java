package shaper.priority;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import shaper.limit.QueueClass;

/**
 * Gives each request its {@link QueueClass}: the class named by the priority header, else the first
 * matching rule's, else the default (see the package documentation). A header naming an undeclared
 * class falls through to the rules and is counted ({@link #unknownHeaderClasses()}), never an error:
 * a client should not fail because it guessed a class name. Thread-safe.
 */
public final class PriorityClassifier {
    /** Every request in {@link QueueClass#DEFAULT}. */
    public static final PriorityClassifier NONE = new PriorityClassifier(PriorityConfig.NONE);

    private final PriorityConfig config;
    private final Map<String, QueueClass> byName = new HashMap<>();
    private final QueueClass fallback;
    private final LongAdder unknown = new LongAdder();

    public PriorityClassifier(PriorityConfig config) {
        this.config = config;
        config.classes().forEach(c -> byName.put(c.name().toLowerCase(Locale.ROOT), c));
        this.fallback = config.enabled() ? byName.get(config.defaultClass().toLowerCase(Locale.ROOT)) : QueueClass.DEFAULT;
    }

    /** The priority header's name: removed before forwarding, classes declared or not. */
    public String header() {
        return config.header();
    }

    /** The declared classes, in declaration order; empty without classes. */
    public List<QueueClass> classes() {
        return config.classes();
    }

    /** Whether classes are declared. */
    public boolean enabled() {
        return config.enabled();
    }

    /** The class {@code request} queues in. */
    public QueueClass classify(RequestFacts request) {
        if (!config.enabled()) {
            return QueueClass.DEFAULT;
        }
        String named = request.header(config.header());
        if (named != null && !named.isBlank()) {
            QueueClass c = byName.get(named.trim().toLowerCase(Locale.ROOT));
            if (c != null) {
                return c;
            }
            unknown.increment();
        }
        for (PriorityRule rule : config.rules()) {
            if (rule.matches(request)) {
                return byName.get(rule.className().toLowerCase(Locale.ROOT));
            }
        }
        return fallback;
    }

    /** Requests whose header named a class that is not declared (served in the rules' or default class). */
    public long unknownHeaderClasses() {
        return unknown.sum();
    }

    /** Whether a rule needs the body's model, so the caller knows whether to peek at it. */
    public boolean needsModel() {
        return config.rules().stream().anyMatch(r -> r.field() == PriorityRule.Field.MODEL);
    }
}
