package shaper.metrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code client} label values of one provider: the first {@value #LIMIT} clients seen keep their
 * own, every later one is {@value #OTHER}, so a stream of new identities (a session per agent run, a
 * hostile header) cannot grow the exposition without bound. Thread-safe.
 */
final class ClientLabels {
    static final int LIMIT = 32;
    static final String OTHER = "other";

    private final Set<String> named = ConcurrentHashMap.newKeySet();

    /** The label value of client {@code name}. */
    String of(String name) {
        if (named.contains(name)) {
            return name;
        }
        synchronized (this) {
            if (named.size() < LIMIT && LabelValues.validUtf8(name)) {
                named.add(name);
                return name;
            }
        }
        return named.contains(name) ? name : OTHER;
    }
}
