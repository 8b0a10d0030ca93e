package shaper.config;

/**
 * A semantic configuration error (a bad value, a missing required flag): the CLI exits 1 with its
 * message. It may say which flag of which provider it is about, so that a configuration file can
 * point at the line the flag came from; without that, the flag named in the message is used.
 */
public final class ConfigException extends RuntimeException {
    private final String flag;
    private final int section;

    public ConfigException(String message) {
        this(message, null, -1);
    }

    /**
     * @param flag    the flag concerned ({@code -prefix}), or {@code null}
     * @param section 0 for server scope (or the single flattened provider), N for the Nth provider, -1 when unknown
     */
    public ConfigException(String message, String flag, int section) {
        super(message);
        this.flag = flag;
        this.section = section;
    }

    /** The flag concerned, or {@code null}. */
    public String flag() {
        return flag;
    }

    /** See {@link #ConfigException(String, String, int)}. */
    public int section() {
        return section;
    }
}
