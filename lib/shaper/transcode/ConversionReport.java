package shaper.transcode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one exchange's conversion lost or encoded: approved losses and notes, each with the field
 * path that triggered it, in order. Bounded at {@value #MAX_ENTRIES} entries; past that one
 * {@code report_overflow} note is kept and the exchange still succeeds. Confined to the request's thread.
 */
public final class ConversionReport {
    /** The most entries one exchange records. */
    public static final int MAX_ENTRIES = 4096;

    /** One recorded decision. */
    public record Entry(LossKey key, String path) {
    }

    private final LossPolicy policy;
    private final List<Entry> entries = new ArrayList<>();
    private boolean overflowed;

    public ConversionReport(LossPolicy policy) {
        this.policy = policy;
    }

    /**
     * Asks the policy about a loss: approved, it is recorded; rejected, the exchange fails.
     *
     * @throws TranscodeException.Unsupported naming the field path and the key
     */
    public void loss(LossKey key, String path) {
        if (key.kind() == LossKey.Kind.NOTE) {
            note(key, path);
            return;
        }
        if (!policy.approves(key)) {
            throw new TranscodeException.Unsupported(path, key);
        }
        add(new Entry(key, path));
    }

    /** Whether a loss would be approved, without recording it (for decisions made elsewhere). */
    public boolean approves(LossKey key) {
        return key.kind() == LossKey.Kind.NOTE || policy.approves(key);
    }

    /** Records a sanctioned encoding; never fails. */
    public void note(LossKey key, String path) {
        add(new Entry(key, path));
    }

    public List<Entry> entries() {
        return Collections.unmodifiableList(entries);
    }

    /** Whether any entry has this key. */
    public boolean has(LossKey key) {
        return entries.stream().anyMatch(e -> e.key() == key);
    }

    /** {@code key@path key@path ...}, for the exchange log line. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(e.key().wireName()).append('@').append(e.path());
        }
        return sb.toString();
    }

    private void add(Entry e) {
        if (entries.size() < MAX_ENTRIES - 1) {
            entries.add(e);
        } else if (!overflowed) {
            overflowed = true;
            entries.add(new Entry(LossKey.REPORT_OVERFLOW, e.path()));
        }
    }
}
