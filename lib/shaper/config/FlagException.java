package shaper.config;

/**
 * An error that may say which flag of which part of the command line it is about, so that a
 * configuration file can point at the line the flag came from. It exists so the usage error
 * ({@code shaper.cli.UsageException}, exit 2) and the semantic error ({@link ConfigException},
 * exit 1) carry that location the same way.
 */
public abstract class FlagException extends RuntimeException {
    private final String flag;
    private final int section;

    /**
     * @param flag    the flag concerned ({@code -concurrency}), or {@code null}
     * @param section 0 for the head (server flags, or the single flattened provider), N for the Nth
     *                {@code --provider} section, -1 when unknown
     */
    protected FlagException(String message, String flag, int section) {
        super(message);
        this.flag = flag;
        this.section = section;
    }

    /** The flag concerned, or {@code null}. */
    public final String flag() {
        return flag;
    }

    /** See {@link #FlagException(String, String, int)}. */
    public final int section() {
        return section;
    }
}
