package shaper.observe;

import java.util.Objects;

/**
 * One header line as the journal keeps it: raw, unredacted (the spec lets the local operator's
 * journal and TUI show credentials; logs and metrics never read headers).
 */
public record Header(String name, String value) {
    public Header {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }
}
