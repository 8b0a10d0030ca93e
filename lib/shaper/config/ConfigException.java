package shaper.config;

/** A semantic configuration error (a bad value, a missing required flag): the CLI exits 1 with its message. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
