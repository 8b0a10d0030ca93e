package shaper.transcode;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which policy keys an operator approved. The programmatic {@link #STRICT} policy approves nothing;
 * CLI mappings start from {@link #cliDefaults()}. Immutable.
 *
 * @param approved approved {@link LossKey.Kind#POLICY} keys
 */
public record LossPolicy(Set<LossKey> approved) {
    /** Rejects every non-portable feature. */
    public static final LossPolicy STRICT = new LossPolicy(EnumSet.noneOf(LossKey.class));

    public LossPolicy {
        approved = Collections.unmodifiableSet(approved.isEmpty() ? EnumSet.noneOf(LossKey.class) : EnumSet.copyOf(approved));
        for (LossKey k : approved) {
            if (k.kind() != LossKey.Kind.POLICY) {
                throw new IllegalArgumentException("approved: " + k.wireName() + " (expected: a policy key, not a note)");
            }
        }
    }

    /** The CLI's out-of-the-box approvals. */
    public static Set<LossKey> cliDefaults() {
        Set<LossKey> s = EnumSet.noneOf(LossKey.class);
        for (LossKey k : LossKey.values()) {
            if (k.cliDefault()) {
                s.add(k);
            }
        }
        return s;
    }

    public boolean approves(LossKey key) {
        return approved.contains(key);
    }
}
