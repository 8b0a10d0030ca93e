package shaper.cluster;

import java.util.Objects;

/**
 * What one exchange tells a shared adaptive limit, as {@link LeaseScripts#RELEASE} takes it: {@code ok}
 * (served, at a normal first byte), {@code over} with a cause (an overload answer, or a first byte this
 * instance judged slow against its own floor), or nothing.
 *
 * @param kind  {@code ok}, {@code over} or empty
 * @param cause for the log when the limit falls; empty otherwise
 */
record SharedSample(String kind, String cause) {
    static final SharedSample NONE = new SharedSample("", "");

    SharedSample {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(cause, "cause");
    }

    static SharedSample ok() {
        return new SharedSample("ok", "");
    }

    static SharedSample over(String cause) {
        return new SharedSample("over", cause);
    }
}
