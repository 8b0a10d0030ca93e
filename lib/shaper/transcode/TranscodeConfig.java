package shaper.transcode;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A provider's transcoding: its mapped routes (none = transcoding off, every route passthrough)
 * and their target auth.
 *
 * @param mappings routes in command-line order; client routes are distinct
 * @param auth     the target auth flags, validated, not yet resolved
 */
public record TranscodeConfig(List<TranscodeMapping> mappings, TranscodeAuth auth) {
    /** Transcoding off. */
    public static final TranscodeConfig OFF = new TranscodeConfig(List.of(), TranscodeAuth.INHERIT);

    public TranscodeConfig {
        mappings = List.copyOf(mappings);
        Objects.requireNonNull(auth, "auth");
    }

    public boolean enabled() {
        return !mappings.isEmpty();
    }

    /** The mapping that intercepts {@code method rawPath}, if any. */
    public Optional<TranscodeMapping> match(String method, String rawPath) {
        for (TranscodeMapping m : mappings) {
            if (m.route().matches(method, rawPath)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
