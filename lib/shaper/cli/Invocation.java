package shaper.cli;

import java.nio.file.Path;
import java.util.Optional;

import shaper.settings.ShaperConfig;

/** What a command line asks for: help text, the version, the effective configuration, or a proxy to run. */
public sealed interface Invocation {
    record Help(String text) implements Invocation {
    }

    record ShowVersion() implements Invocation {
    }

    /** {@code -print-config}: the effective configuration as YAML that {@code -config} loads back. */
    record PrintConfig(String yaml) implements Invocation {
    }

    /**
     * @param config     the validated configuration
     * @param configFile the {@code -config} file it was read from, if any (the reload source)
     * @param watch      {@code -config-watch}: reload when the file changes
     */
    record Run(ShaperConfig config, Optional<Path> configFile, boolean watch) implements Invocation {
    }
}
