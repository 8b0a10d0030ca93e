package shaper.cli;

import java.time.Duration;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;
import shaper.config.ShaperConfig;

/**
 * Parses the proxy's Go-style command line ({@code -upstream URL}, {@code -flag=value}, double-dash
 * spellings too) into an {@link Invocation}. Throws {@link UsageException} for syntax problems
 * (exit 2) and {@link shaper.config.ConfigException} for bad values (exit 1).
 */
public final class CommandLineParser {
    static final String PROGRAM = "shaper";

    @Command(name = PROGRAM, sortOptions = false, usageHelpAutoWidth = true,
            description = "Stealth reverse proxy with bounded concurrency for AI/LLM APIs.")
    static final class Flattened {
        @Mixin
        ServerOptions server = new ServerOptions();
        @Mixin
        ProviderOptions provider = new ProviderOptions();
    }

    private CommandLineParser() {
    }

    public static Invocation parse(List<String> argv) {
        Flattened flags = new Flattened();
        CommandLine cl = newCommandLine(flags);
        try {
            cl.parseArgs(argv.toArray(String[]::new));
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage());
        }
        if (flags.server.help) {
            return new Invocation.Help(cl.getUsageMessage(CommandLine.Help.Ansi.OFF));
        }
        if (flags.server.version) {
            return new Invocation.ShowVersion();
        }
        return new Invocation.Run(new ShaperConfig(flags.server.toConfig(), List.of(flags.provider.toConfig())));
    }

    static CommandLine newCommandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setPosixClusteredShortOptionsAllowed(false);
        // Like Go's flag package, a repeated flag takes its last value.
        cl.setOverwrittenOptionsAllowed(true);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.registerConverter(Duration.class, new GoDurationConverter());
        cl.registerConverter(Boolean.class, new GoBoolean());
        cl.registerConverter(boolean.class, new GoBoolean());
        return cl;
    }
}
