package shaper.probe;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import shaper.cli.GoDurationConverter;
import shaper.cli.UsageException;
import shaper.config.ConfigException;

/**
 * The fixture server's entry point behind {@code ProbeServer.java}: parse, start, block until the
 * JVM is asked to stop. Exit codes as the proxy's: 0, 1 for a bad value or a port in use, 2 for a usage error.
 */
public final class ProbeMain {
    static final String PROGRAM = "probe-server";
    private static final int HELP_COLUMN = 23;
    private static final int HELP_WIDTH = 100;

    private ProbeMain() {
    }

    /**
     * The JVM entry when the fixture server runs from the proxy's own build ({@code ./jbang ProbeServer.java}
     * through the wrapper, the {@code probe-server} alias): the same as {@code ProbeServer.java}'s main.
     */
    public static void main(String[] argv) {
        System.exit(run(argv, System.out, System.err));
    }

    public static int run(String[] argv, PrintStream out, PrintStream err) {
        CommandLine cl = commandLine(new ProbeOptions());
        ProbeConfig config;
        try {
            config = parse(cl, List.of(argv));
        } catch (UsageException e) {
            err.println(PROGRAM + ": " + e.getMessage());
            err.println("Run './jbang ProbeServer.java -h' for the flag and fixture reference.");
            return 2;
        } catch (ConfigException e) {
            err.println(PROGRAM + ": " + e.getMessage());
            return 1;
        }
        if (config == null) {
            out.print(help(cl));
            return 0;
        }
        ProbeServer server;
        try {
            server = ProbeServer.start(config, Sleeper.REAL, out);
        } catch (RuntimeException e) {
            err.println(PROGRAM + ": cannot listen on " + config.bind() + ": " + e.getMessage());
            return 1;
        }
        out.println(PROGRAM + " listening on " + server.uri("") + " (" + Fixture.values().length + " fixtures; -h lists them)");
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "probe-shutdown"));
        server.awaitStop();
        return 0;
    }

    /** The config argv asks for; throws {@link UsageException} (exit 2) or {@link ConfigException} (exit 1). */
    public static ProbeConfig parse(List<String> argv) {
        ProbeConfig config = parse(commandLine(new ProbeOptions()), argv);
        if (config == null) {
            throw new UsageException("-h asks for help, not a server");
        }
        return config;
    }

    /** The {@code -h} text: flags, then one line per fixture prefix and the admin routes. */
    public static String help() {
        return help(commandLine(new ProbeOptions()));
    }

    private static ProbeConfig parse(CommandLine cl, List<String> argv) {
        try {
            cl.parseArgs(argv.toArray(String[]::new));
        } catch (ParameterException e) {
            throw new UsageException(e.getMessage());
        }
        ProbeOptions options = cl.getCommand();
        return options.help ? null : options.toConfig();
    }

    private static String help(CommandLine cl) {
        StringBuilder text = new StringBuilder(cl.getUsageMessage(CommandLine.Help.Ansi.OFF));
        text.append("\nFixtures (a prefix also answers every path below it):\n");
        for (Fixture f : Fixture.values()) {
            text.append(entry(f.prefix(), f.summary()));
        }
        text.append("\nProbe routes (not counted as hits):\n");
        text.append(entry("POST " + AdminHandler.RESET, "clear every counter"));
        text.append(entry("GET " + AdminHandler.STATS, "JSON: hits per path; hits, inFlight, peakInFlight per prefix"));
        text.append(entry("GET " + AdminHandler.RATE_LIMITED, "JSON: /ratelimited requests admitted and refused (429), tokens charged"));
        return text.toString();
    }

    /** {@code "  NAME  summary"}, the summary wrapped at {@link #HELP_WIDTH} under its own column. */
    private static String entry(String name, String summary) {
        String indent = " ".repeat(HELP_COLUMN);
        StringBuilder out = new StringBuilder(String.format("  %-" + (HELP_COLUMN - 3) + "s ", name));
        int lineLength = out.length();
        for (String word : summary.split(" ")) {
            if (lineLength > HELP_COLUMN && lineLength + 1 + word.length() > HELP_WIDTH) {
                out.append('\n').append(indent);
                lineLength = HELP_COLUMN;
            } else if (lineLength > HELP_COLUMN) {
                out.append(' ');
                lineLength++;
            }
            out.append(word);
            lineLength += word.length();
        }
        return out.append('\n').toString();
    }

    private static CommandLine commandLine(ProbeOptions options) {
        CommandLine cl = new CommandLine(options);
        cl.setPosixClusteredShortOptionsAllowed(false);
        cl.registerConverter(Duration.class, new GoDurationConverter());
        return cl;
    }
}
