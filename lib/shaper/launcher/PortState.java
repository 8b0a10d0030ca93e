package shaper.launcher;

import java.util.List;

/** What answers on the launcher's port, as {@link ShaperProcess#probe()} finds it. */
public sealed interface PortState {
    /** Nothing accepts connections there: a shaper may be started. */
    record Free() implements PortState {
    }

    /**
     * A shaper's health JSON answered.
     *
     * @param pid       the shaper's process id, for {@code kill}
     * @param upstreams each provider's upstream as the shaper shows it
     */
    record Shaper(long pid, String version, List<String> upstreams) implements PortState {
        public Shaper {
            upstreams = List.copyOf(upstreams);
        }
    }

    /** Something else holds the port; {@code evidence} says what it answered. */
    record Foreign(String evidence) implements PortState {
    }
}
