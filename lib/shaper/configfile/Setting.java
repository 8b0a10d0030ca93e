package shaper.configfile;

import java.util.List;

import shaper.cli.FlagSpec;

/**
 * One flag as the merged command line carries it: its tokens, and where the file wrote it
 * ({@code null} when it came from the command line).
 *
 * @param flag   the flag, or {@code null} for a command-line token that is no known flag (the parser reports it)
 * @param tokens the argv tokens ({@code -concurrency=4}; a repeatable has one per value)
 * @param at     the file position of the key, or {@code null}
 */
record Setting(FlagSpec flag, List<String> tokens, Location at) {
    Setting {
        tokens = List.copyOf(tokens);
    }
}
