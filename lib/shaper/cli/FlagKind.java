package shaper.cli;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;

import picocli.CommandLine.Model.OptionSpec;

/**
 * The value type of a flag as the help text, the configuration file and its schema show it,
 * read from the picocli option's Java type so a new option needs no registration.
 */
public enum FlagKind {
    /** {@code -flag}, {@code -flag=false}; a YAML boolean. */
    BOOLEAN("bool"),
    /** A decimal integer; a YAML integer. */
    INTEGER("int"),
    /** A Go duration ({@code 200ms}, {@code 1h30m}); a YAML string (or the integer 0). */
    DURATION("duration"),
    /** Any other single value; a YAML string. */
    STRING("string"),
    /** A repeatable flag; a YAML list of strings (a single string counts as a list of one). */
    LIST("list");

    private final String typeName;

    FlagKind(String typeName) {
        this.typeName = typeName;
    }

    /** How {@code -h} names the type (Go's flag package says {@code int}, {@code duration}, {@code string}). */
    public String typeName() {
        return typeName;
    }

    static FlagKind of(OptionSpec o) {
        Class<?> type = o.type();
        if (o.isMultiValue() || Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type) || type.isArray()) {
            return LIST;
        }
        if (type == boolean.class || type == Boolean.class) {
            return BOOLEAN;
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return INTEGER;
        }
        if (type == Duration.class) {
            return DURATION;
        }
        return STRING;
    }
}
