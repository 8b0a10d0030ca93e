package shaper.cli;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Which flag belongs to which scope, read from the option classes themselves so the sectioned
 * parser, the help text and the README's scope table share one source: every name of
 * {@link ServerOptions} is server scope, every name of {@link ProviderOptions} provider scope.
 */
public final class FlagScopes {
    /** The help flags, accepted in both scopes: inside a section they print the provider-scope reference. */
    static final Set<String> HELP = Set.of("-h", "-help", "--help");

    private static final FlagScopes INSTANCE = new FlagScopes();

    private final Set<String> server;
    private final Set<String> provider;
    private final Set<String> takesValue;

    private FlagScopes() {
        Set<String> s = new LinkedHashSet<>();
        Set<String> p = new LinkedHashSet<>();
        Set<String> v = new LinkedHashSet<>();
        collect(new ServerOptions(), s, v);
        collect(new ProviderOptions(), p, v);
        this.server = Collections.unmodifiableSet(s);
        this.provider = Collections.unmodifiableSet(p);
        this.takesValue = Collections.unmodifiableSet(v);
    }

    /** The scopes of the current flag set. */
    public static FlagScopes current() {
        return INSTANCE;
    }

    /** Every spelling of every server-scope flag ({@code -bind}, {@code --bind}, ...). */
    public Set<String> server() {
        return server;
    }

    /** Every spelling of every provider-scope flag. */
    public Set<String> provider() {
        return provider;
    }

    /** Whether {@code name} (a token without {@code =value}) consumes the next token as its value. */
    boolean takesValue(String name) {
        return takesValue.contains(name);
    }

    private static void collect(Object options, Set<String> names, Set<String> valued) {
        for (OptionSpec o : new CommandLine(options).getCommandSpec().options()) {
            for (String n : o.names()) {
                names.add(n);
                if (o.arity().min() >= 1) {
                    valued.add(n);
                }
            }
        }
    }
}
