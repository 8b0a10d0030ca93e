package shaper.proxy.client;

import java.io.IOException;

/**
 * An answer the proxy refuses to believe: a head or a chunk frame outside the grammar. It is an
 * upstream failure (502, breaker-counted); the connection it came on is closed, never pooled.
 */
public final class MalformedAnswer extends IOException {
    private final String defect;

    MalformedAnswer(String defect) {
        this(defect, "");
    }

    /** @param detail the offending bytes, made printable: for the log line only, never for the client */
    MalformedAnswer(String defect, String detail) {
        super(detail.isEmpty() ? defect : defect + ": " + detail);
        this.defect = defect;
    }

    /** What was wrong, in fixed words: nothing of the upstream's bytes, so a client may be told it. */
    public String defect() {
        return defect;
    }
}
