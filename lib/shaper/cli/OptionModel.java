package shaper.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every flag of the proxy, read from picocli's model of {@link ServerOptions} and
 * {@link ProviderOptions} (with all their mixins): the one source that {@code -h}, the
 * configuration file's keys, {@code shaper.schema.json}, {@code -print-config} and the README
 * drift test share. A new {@code @Option} in a new mixin appears in all of them without registration.
 */
public final class OptionModel {
    /**
     * The ways an option's description may state its own default ({@code X} is the default as picocli
     * rendered it); the views append the default themselves, once.
     */
    private static final String DEFAULT_MENTION = "\\s*\\(default X\\)|;?\\s*default X(?=\\))|default X;\\s*";

    private static final OptionModel INSTANCE = new OptionModel();

    private final List<FlagSpec> flags;
    private final Map<String, FlagSpec> byName;

    private OptionModel() {
        Set<String> commandLineOnly = names(new ConfigOptions());
        List<FlagSpec> all = new ArrayList<>();
        collect(new ServerOptions(), FlagSpec.Scope.SERVER, commandLineOnly, all);
        collect(new ProviderOptions(), FlagSpec.Scope.PROVIDER, commandLineOnly, all);
        Map<String, FlagSpec> index = new LinkedHashMap<>();
        for (FlagSpec f : all) {
            f.names().forEach(n -> index.put(n, f));
        }
        this.flags = List.copyOf(all);
        this.byName = Collections.unmodifiableMap(index);
    }

    public static OptionModel current() {
        return INSTANCE;
    }

    /** Every flag, server scope first, each in declaration order. */
    public List<FlagSpec> flags() {
        return flags;
    }

    public List<FlagSpec> flags(FlagSpec.Scope scope) {
        return flags.stream().filter(f -> f.scope() == scope).toList();
    }

    /** The flag spelled {@code name} ({@code -concurrency}, {@code --concurrency}). */
    public Optional<FlagSpec> byName(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The flag whose file key is {@code key} ({@code concurrency}). */
    public Optional<FlagSpec> byKey(String key) {
        return byName("-" + key).filter(f -> f.key().equals(key));
    }

    /** The flag an option of a parsed command stands for. */
    static FlagSpec of(OptionSpec o) {
        return INSTANCE.byName(o.names()[0]).orElseThrow();
    }

    private static void collect(Object options, FlagSpec.Scope scope, Set<String> commandLineOnly, List<FlagSpec> out) {
        for (OptionSpec o : new CommandLine(options).getCommandSpec().options()) {
            String primary = primaryName(o);
            boolean fileKey = !o.usageHelp() && !o.versionHelp() && !commandLineOnly.contains(primary);
            String label = FlagKind.of(o) == FlagKind.BOOLEAN ? "" : o.paramLabel().replaceAll("^<|>$", "");
            out.add(new FlagSpec(primary.substring(1), List.of(o.names()), scope, FlagKind.of(o), label, o.defaultValue(),
                    description(o), fileKey));
        }
    }

    /** The first single-dash spelling: the flag's canonical name, the one help, config keys and messages use. */
    private static String primaryName(OptionSpec o) {
        for (String n : o.names()) {
            if (n.startsWith("-") && !n.startsWith("--")) {
                return n;
            }
        }
        return o.longestName().substring(1);
    }

    private static String description(OptionSpec o) {
        String text = String.join(" ", o.description()).replace("%%", "%").replace("%n", " ");
        for (String value : new String[] {"${DEFAULT-VALUE}", o.defaultValue()}) {
            if (value != null) {
                text = Pattern.compile(DEFAULT_MENTION.replace("X", Pattern.quote(value))).matcher(text).replaceAll("");
            }
        }
        return text.trim();
    }

    private static Set<String> names(Object options) {
        Set<String> out = new java.util.HashSet<>();
        for (OptionSpec o : new CommandLine(options).getCommandSpec().options()) {
            out.add(primaryName(o));
        }
        return out;
    }
}
