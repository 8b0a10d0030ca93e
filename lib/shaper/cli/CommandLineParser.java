package shaper.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import shaper.config.ConfigException;
import shaper.config.ProviderNames;
import shaper.settings.ProviderConfig;
import shaper.settings.ShaperConfig;

/**
 * Parses the proxy's Go-style command line ({@code -upstream URL}, {@code -flag=value}, double-dash
 * spellings too) into an {@link Invocation}. Throws {@link UsageException} for syntax problems
 * (exit 2) and {@link shaper.config.ConfigException} for bad values (exit 1); both say, where they
 * can, which flag of which section they are about.
 *
 * <p>Two forms. Without {@code --provider} markers both scopes share one flattened command line
 * and configure a single provider named {@code default}. With markers ({@link ArgvSections}) the
 * head is parsed with the server-scope flags only and each section with the provider-scope flags
 * only; every error from a section names it ({@code provider section 2: ...}, {@code provider "x": ...}).
 */
public final class CommandLineParser {
    public static final String PROGRAM = "shaper";
    /** The command a user of the scripts types for the flag reference (the alias {@code shaper} is not on PATH). */
    public static final String HELP_COMMAND = "./jbang Shaper.java -h";

    @Command(name = PROGRAM)
    static final class Flattened {
        @Mixin
        ServerOptions server = new ServerOptions();
        @Mixin
        ProviderOptions provider = new ProviderOptions();
    }

    @Command(name = PROGRAM)
    static final class Head {
        @Mixin
        ServerOptions server = new ServerOptions();
    }

    @Command(name = PROGRAM + " --provider[=NAME]")
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
        CommandLine cl = parseInto(flags, argv, "", 0);
        if (flags.server.help) {
            return new Invocation.Help(HelpText.full(PROGRAM));
        }
        if (flags.server.version) {
            return new Invocation.ShowVersion();
        }
        ShaperConfig config = new ShaperConfig(flags.server.toConfig(), List.of(flags.provider.toConfig(null, false)));
        if (flags.server.config.print()) {
            return new Invocation.PrintConfig(EffectiveConfig.flattened(cl.getCommandSpec()));
        }
        return run(config, flags.server.config);
    }

    private static Invocation parseSections(ArgvSections split) {
        Head head = new Head();
        CommandLine headLine = parseInto(head, split.head(), "", 0);
        if (head.server.help) {
            return new Invocation.Help(HelpText.full(PROGRAM));
        }
        if (head.server.version) {
            return new Invocation.ShowVersion();
        }
        List<Section> sections = new ArrayList<>();
        List<CommandSpec> specs = new ArrayList<>();
        for (ArgvSections.Section s : split.sections()) {
            Section section = new Section();
            CommandLine cl = parseInto(section, s.args(), s.label() + ": ", s.number());
            if (section.help) {
                return new Invocation.Help(HelpText.section(PROGRAM));
            }
            sections.add(section);
            specs.add(cl.getCommandSpec());
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
                    throw new ConfigException("requires -prefix when multiple providers are configured", "-prefix", s.number());
                }
                providers.add(options.toConfig(s.name(), true));
            } catch (ConfigException e) {
                throw new ConfigException(label + ": " + e.getMessage(), e.flag(), s.number());
            }
        }
        ShaperConfig config = new ShaperConfig(head.server.toConfig(), providers);
        if (head.server.config.print()) {
            return new Invocation.PrintConfig(EffectiveConfig.sectioned(headLine.getCommandSpec(), specs,
                    providers.stream().map(ProviderConfig::name).toList()));
        }
        return run(config, head.server.config);
    }

    private static Invocation.Run run(ShaperConfig config, ConfigOptions options) {
        return new Invocation.Run(config, Optional.ofNullable(options.file()), options.watch());
    }

    private static CommandLine parseInto(Object command, List<String> args, String errorPrefix, int section) {
        CommandLine cl = newCommandLine(command);
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (UnmatchedArgumentException e) {
            String message = UnknownFlag.message(e, cl.getCommandSpec()).orElse(e.getMessage());
            throw new UsageException(errorPrefix + message, null, section);
        } catch (ParameterException e) {
            String flag = e.getArgSpec() instanceof OptionSpec o ? OptionModel.of(o).flag() : null;
            throw new UsageException(errorPrefix + e.getMessage(), flag, section);
        }
        return cl;
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
