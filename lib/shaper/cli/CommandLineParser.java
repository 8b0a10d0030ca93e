package shaper.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import shaper.config.ConfigException;
import shaper.config.ProviderConfig;
import shaper.config.ProviderNames;
import shaper.config.ShaperConfig;

/**
 * Parses the proxy's Go-style command line ({@code -upstream URL}, {@code -flag=value}, double-dash
 * spellings too) into an {@link Invocation}. Throws {@link UsageException} for syntax problems
 * (exit 2) and {@link shaper.config.ConfigException} for bad values (exit 1).
 *
 * <p>Two forms. Without {@code --provider} markers both scopes share one flattened command line
 * and configure a single provider named {@code default}. With markers ({@link ArgvSections}) the
 * head is parsed with the server-scope flags only and each section with the provider-scope flags
 * only; every error from a section names it ({@code provider section 2: ...}, {@code provider "x": ...}).
 */
public final class CommandLineParser {
    static final String PROGRAM = "shaper";

    private static final String SCOPES_FOOTER = "%nServer-scope flags: -bind, -client-key, -metrics-bind, -version, -h. Every other flag is provider"
            + " scope.%nSeveral providers: put server flags first, then one section per provider:%n"
            + "  " + PROGRAM + " -bind 127.0.0.1:8080 --provider=a -upstream URL -prefix /a ... --provider=b -upstream URL -prefix /b ...%n"
            + "Inside a section, -h lists that section's flags.%n";

    @Command(name = PROGRAM, sortOptions = false, usageHelpAutoWidth = true,
            description = "Stealth reverse proxy with bounded concurrency for AI/LLM APIs.", footer = SCOPES_FOOTER)
    static final class Flattened {
        @Mixin
        ServerOptions server = new ServerOptions();
        @Mixin
        ProviderOptions provider = new ProviderOptions();
    }

    @Command(name = PROGRAM, sortOptions = false, usageHelpAutoWidth = true)
    static final class Head {
        @Mixin
        ServerOptions server = new ServerOptions();
    }

    @Command(name = PROGRAM + " --provider[=NAME]", sortOptions = false, usageHelpAutoWidth = true,
            description = "Provider-scope flags: they configure the upstream of this --provider section only.")
    static final class Section {
        @Mixin
        ProviderOptions provider = new ProviderOptions();

        @Option(names = {"-h", "-help", "--help"}, usageHelp = true, description = "Show this section's flag reference and exit")
        boolean help;
    }

    private CommandLineParser() {
    }

    public static Invocation parse(List<String> argv) {
        ArgvSections split = ArgvSections.split(argv, FlagScopes.current());
        return split.sectioned() ? parseSections(split) : parseFlattened(split.head());
    }

    private static Invocation parseFlattened(List<String> argv) {
        Flattened flags = new Flattened();
        CommandLine cl = parseInto(flags, argv, "");
        if (flags.server.help) {
            return new Invocation.Help(usage(cl));
        }
        if (flags.server.version) {
            return new Invocation.ShowVersion();
        }
        return new Invocation.Run(new ShaperConfig(flags.server.toConfig(), List.of(flags.provider.toConfig(null, false))));
    }

    private static Invocation parseSections(ArgvSections split) {
        Head head = new Head();
        parseInto(head, split.head(), "");
        if (head.server.help) {
            return new Invocation.Help(usage(newCommandLine(new Flattened())));
        }
        if (head.server.version) {
            return new Invocation.ShowVersion();
        }
        List<Section> sections = new ArrayList<>();
        for (ArgvSections.Section s : split.sections()) {
            Section section = new Section();
            CommandLine cl = parseInto(section, s.args(), s.label() + ": ");
            if (section.help) {
                return new Invocation.Help(usage(cl));
            }
            sections.add(section);
        }
        List<ProviderConfig> providers = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            ArgvSections.Section s = split.sections().get(i);
            ProviderOptions options = sections.get(i).provider;
            String label = options.explicitName() != null ? "provider \"" + options.explicitName() + "\"" : s.label();
            try {
                if (s.name() != null) {
                    ProviderNames.check("--provider", s.name());
                }
                if (sections.size() > 1 && !options.hasPrefix()) {
                    throw new ConfigException("requires -prefix when multiple providers are configured");
                }
                providers.add(options.toConfig(s.name(), true));
            } catch (ConfigException e) {
                throw new ConfigException(label + ": " + e.getMessage());
            }
        }
        return new Invocation.Run(new ShaperConfig(head.server.toConfig(), providers));
    }

    private static CommandLine parseInto(Object command, List<String> args, String errorPrefix) {
        CommandLine cl = newCommandLine(command);
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (ParameterException e) {
            throw new UsageException(errorPrefix + e.getMessage());
        }
        return cl;
    }

    private static String usage(CommandLine cl) {
        return cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    static CommandLine newCommandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setPosixClusteredShortOptionsAllowed(false);
        // Like Go's flag package, a repeated flag takes its last value.
        cl.setOverwrittenOptionsAllowed(true);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // Like Go's flag package: "-name -h" names the provider "-h"; it does not ask for help.
        cl.setAllowOptionsAsOptionParameters(true);
        cl.registerConverter(Duration.class, new GoDurationConverter());
        cl.registerConverter(Boolean.class, new GoBoolean());
        cl.registerConverter(boolean.class, new GoBoolean());
        return cl;
    }
}
