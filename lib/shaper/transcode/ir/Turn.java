package shaper.transcode.ir;

import java.util.List;
import java.util.Objects;

/**
 * One turn of the conversation, in order. A system-channel turn holds text only.
 *
 * @param path the client field it came from ({@code messages[3]}, {@code system}), for loss reports
 */
public record Turn(Role role, List<Part> parts, String path) {
    public Turn {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(path, "path");
        parts = List.copyOf(parts);
        if (role.systemChannel()) {
            for (Part p : parts) {
                if (!(p instanceof Part.Text)) {
                    throw new IllegalArgumentException("system turn: " + p.getClass().getSimpleName() + " (expected: text)");
                }
            }
        }
    }
}
