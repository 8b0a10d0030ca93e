package shaper.priority;

import java.util.Locale;
import java.util.Objects;

import shaper.config.ConfigException;

/**
 * One {@code -priority-rule 'FIELD~GLOB=CLASS'}: requests whose FIELD matches GLOB queue in CLASS.
 * FIELD is {@code model} (the body's {@code "model"}), {@code path} or {@code header:NAME}; model and
 * header values compare case-insensitively, paths case-sensitively. Immutable.
 *
 * @param field      which part of the request
 * @param headerName for {@link Field#HEADER}, the header's name; else empty
 * @param glob       the pattern over the whole value
 * @param className  the class it selects
 */
public record PriorityRule(Field field, String headerName, Glob glob, String className) {

    /** The part of a request a rule matches. */
    public enum Field { MODEL, PATH, HEADER }

    public PriorityRule {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(headerName, "headerName");
        Objects.requireNonNull(glob, "glob");
        Objects.requireNonNull(className, "className");
    }

    /**
     * Parses {@code FIELD~GLOB=CLASS}; the class is everything after the last {@code =}.
     *
     * @throws ConfigException naming the rule and what is wrong with it
     */
    public static PriorityRule parse(String rule) {
        int tilde = rule.indexOf('~');
        int eq = rule.lastIndexOf('=');
        if (tilde <= 0 || eq < tilde) {
            throw bad(rule, "expected FIELD~GLOB=CLASS");
        }
        String fieldText = rule.substring(0, tilde).trim();
        String glob = rule.substring(tilde + 1, eq);
        String cls = rule.substring(eq + 1).trim();
        if (glob.isEmpty() || cls.isEmpty()) {
            throw bad(rule, "expected FIELD~GLOB=CLASS");
        }
        String lower = fieldText.toLowerCase(Locale.ROOT);
        if (lower.equals("model")) {
            return new PriorityRule(Field.MODEL, "", new Glob(glob, true), cls);
        }
        if (lower.equals("path")) {
            return new PriorityRule(Field.PATH, "", new Glob(glob, false), cls);
        }
        if (lower.startsWith("header:") && lower.length() > "header:".length()) {
            return new PriorityRule(Field.HEADER, fieldText.substring("header:".length()).trim(), new Glob(glob, true), cls);
        }
        throw bad(rule, "unknown field \"" + fieldText + "\" (expected: model, path or header:NAME)");
    }

    boolean matches(RequestFacts request) {
        return switch (field) {
            case MODEL -> glob.matches(request.model());
            case PATH -> glob.matches(request.path());
            case HEADER -> glob.matches(request.header(headerName));
        };
    }

    @Override
    public String toString() {
        return (field == Field.HEADER ? "header:" + headerName : field.name().toLowerCase(Locale.ROOT)) + "~" + glob.pattern() + "=" + className;
    }

    private static ConfigException bad(String rule, String why) {
        return new ConfigException("-priority-rule \"" + rule + "\": " + why);
    }
}
