package shaper.cli;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/**
 * Server-scope flags of the configuration file. They exist on the command line only: a file cannot
 * name another file, switch its own watching on or ask for its own printing.
 */
public final class ConfigOptions {
    @Option(names = {"-config", "--config"}, paramLabel = "FILE",
            description = "Read flags from this YAML file (keys = flag names without the dash); command-line flags override it")
    Path config;

    @Option(names = {"-config-watch", "--config-watch"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Reload -config when the file changes (SIGHUP always reloads)")
    boolean watch;

    @Option(names = {"-print-config", "--print-config"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Print the effective configuration (file + flags + defaults) as YAML that -config loads, and exit")
    boolean print;

    /** The {@code -config} file, or {@code null}. */
    public Path file() {
        return config;
    }

    public boolean watch() {
        return watch;
    }

    public boolean print() {
        return print;
    }
}
