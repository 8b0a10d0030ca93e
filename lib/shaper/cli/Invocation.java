package shaper.cli;

import shaper.config.ShaperConfig;

/** What a command line asks for: help text, the version, or a proxy to run. */
public sealed interface Invocation {
    record Help(String text) implements Invocation {
    }

    record ShowVersion() implements Invocation {
    }

    record Run(ShaperConfig config) implements Invocation {
    }
}
