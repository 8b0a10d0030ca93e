package shaper.priority;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import shaper.config.ConfigException;
import shaper.limit.QueueClass;

/**
 * One provider's priority classes, validated once at startup.
 *
 * @param classes      {@code -priority-class NAME=WEIGHT} in declaration order; empty = one FIFO per limiter
 * @param header       {@code -priority-header} (default {@value #DEFAULT_HEADER}): names the class; never forwarded
 * @param rules        {@code -priority-rule FIELD~GLOB=CLASS}, tried in order when the header names no class
 * @param defaultClass {@code -priority-default}: the class of everything else (default: the first declared);
 *                     empty when no class is declared
 */
public record PriorityConfig(List<QueueClass> classes, String header, List<PriorityRule> rules, String defaultClass) {
    public static final String DEFAULT_HEADER = "X-Shaper-Priority";
    // before NONE: its constructor uses them
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** No classes: today's single FIFO per limiter. */
    public static final PriorityConfig NONE = new PriorityConfig(List.of(), DEFAULT_HEADER, List.of(), "");

    public PriorityConfig {
        classes = List.copyOf(classes);
        rules = List.copyOf(rules);
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(defaultClass, "defaultClass");
        if (!TOKEN.matcher(header).matches()) {
            throw new ConfigException("-priority-header \"" + header + "\": not a header name");
        }
        Set<String> names = new HashSet<>();
        for (QueueClass c : classes) {
            if (!names.add(c.name().toLowerCase(Locale.ROOT))) {
                throw new ConfigException("-priority-class \"" + c.name() + "\" is declared twice");
            }
        }
        if (classes.isEmpty() && (!rules.isEmpty() || !defaultClass.isEmpty())) {
            throw new ConfigException((rules.isEmpty() ? "-priority-default" : "-priority-rule")
                    + " needs at least one -priority-class NAME=WEIGHT");
        }
        for (PriorityRule r : rules) {
            if (!names.contains(r.className().toLowerCase(Locale.ROOT))) {
                throw new ConfigException("-priority-rule \"" + r + "\": unknown class \"" + r.className() + "\" (declared: " + declared(classes) + ")");
            }
        }
        if (!defaultClass.isEmpty() && !names.contains(defaultClass.toLowerCase(Locale.ROOT))) {
            throw new ConfigException("-priority-default \"" + defaultClass + "\": unknown class (declared: " + declared(classes) + ")");
        }
        if (defaultClass.isEmpty() && !classes.isEmpty()) {
            defaultClass = classes.getFirst().name();
        }
    }

    /**
     * Parses the flags' texts.
     *
     * @param classes {@code NAME=WEIGHT} each
     * @param dflt    {@code -priority-default}, or null / empty for the first class declared
     * @throws ConfigException naming the flag and value that are wrong
     */
    public static PriorityConfig parse(List<String> classes, String header, List<String> rules, String dflt) {
        List<QueueClass> parsed = new ArrayList<>();
        for (String c : classes) {
            parsed.add(parseClass(c));
        }
        List<PriorityRule> parsedRules = rules.stream().map(PriorityRule::parse).toList();
        return new PriorityConfig(parsed, header == null ? DEFAULT_HEADER : header.trim(), parsedRules, dflt == null ? "" : dflt.trim());
    }

    /** Whether classes are declared; without, every request is {@link QueueClass#DEFAULT}. */
    public boolean enabled() {
        return !classes.isEmpty();
    }

    private static QueueClass parseClass(String text) {
        int eq = text.indexOf('=');
        String name = eq < 0 ? text.trim() : text.substring(0, eq).trim();
        String weight = eq < 0 ? "" : text.substring(eq + 1).trim();
        if (eq < 0 || !NAME.matcher(name).matches()) {
            throw new ConfigException("-priority-class \"" + text + "\": expected NAME=WEIGHT, NAME of letters, digits, '.', '_', '-'");
        }
        try {
            int w = Integer.parseInt(weight);
            if (w >= 1 && w <= QueueClass.MAX_WEIGHT) {
                return new QueueClass(name, w);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException("-priority-class \"" + text + "\": weight must be an integer 1.." + QueueClass.MAX_WEIGHT);
    }

    private static String declared(List<QueueClass> classes) {
        return String.join(", ", classes.stream().map(QueueClass::name).toList());
    }
}
