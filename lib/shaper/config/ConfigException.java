package shaper.config;

/**
 * A semantic configuration error (a bad value, a missing required flag): the CLI exits 1 with its
 * message. It may say which flag of which provider it is about (see {@link FlagException});
 * without that, the flag named in the message is used.
 */
public final class ConfigException extends FlagException {
    public ConfigException(String message) {
        this(message, null, -1);
    }

    /** See {@link FlagException#FlagException(String, String, int)}. */
    public ConfigException(String message, String flag, int section) {
        super(message, flag, section);
    }
}
