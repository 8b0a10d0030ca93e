package shaper.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A stand-in {@code claude}: a POSIX shell script that records its argv, the settings copy it was
 * handed (content, file and directory modes) and the launcher depth it sees, then exits with a
 * chosen code or waits for a signal. Everything lands in files next to the script.
 */
final class FakeClaude {
    /** What the script does after recording. */
    enum Mode {
        EXIT,
        /** Records SIGTERM/SIGINT in {@code signals} and exits 42 / 43 on them. */
        WAIT_FOR_SIGNAL,
        /** Records SIGTERM but keeps running: only a kill ends it. */
        IGNORE_SIGTERM
    }

    private final Path dir;
    private final Path script;

    private FakeClaude(Path dir) {
        this.dir = dir;
        this.script = dir.resolve("claude");
    }

    static FakeClaude exiting(Path parent, int code) {
        return create(parent, Mode.EXIT, code);
    }

    static FakeClaude waiting(Path parent, Mode mode) {
        return create(parent, mode, 0);
    }

    private static FakeClaude create(Path parent, Mode mode, int code) {
        try {
            FakeClaude fake = new FakeClaude(Files.createDirectories(parent.resolve("fake-claude")));
            String tail = switch (mode) {
                case EXIT -> "exit " + code + "\n";
                case WAIT_FOR_SIGNAL -> """
                        trap 'echo TERM >> "$d/signals"; exit 42' TERM
                        trap 'echo INT >> "$d/signals"; exit 43' INT
                        touch "$d/ready"
                        while :; do sleep 0.05; done
                        """;
                case IGNORE_SIGTERM -> """
                        trap 'echo TERM >> "$d/signals"' TERM
                        touch "$d/ready"
                        while :; do sleep 0.05; done
                        """;
            };
            String text = "#!/bin/sh\n"
                    + "d='" + fake.dir + "'\n"
                    + """
                    : > "$d/argv.tmp"
                    for a in "$@"; do printf '%s\\n' "$a" >> "$d/argv.tmp"; done
                    prev=
                    for a in "$@"; do
                      if [ "$prev" = --settings ]; then
                        cp "$a" "$d/settings.json"
                        stat -c %a "$a" > "$d/settings.mode"
                        stat -c %a "$(dirname "$a")" > "$d/settings.dirmode"
                      fi
                      prev=$a
                    done
                    printf '%s' "${SHAPER_LAUNCHER_DEPTH:-}" > "$d/depth"
                    mv "$d/argv.tmp" "$d/argv"
                    """ + tail;
            Files.writeString(fake.script, text);
            Files.setPosixFilePermissions(fake.script, PosixFilePermissions.fromString("rwx------"));
            return fake;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path executable() {
        return script;
    }

    /** True once the script ran (its argv record is complete). */
    boolean ran() {
        return Files.exists(dir.resolve("argv"));
    }

    /** True once a waiting script has set its traps. */
    boolean ready() {
        return Files.exists(dir.resolve("ready"));
    }

    List<String> argv() {
        return new ArrayList<>(lines("argv"));
    }

    /** The path after {@code --settings}. */
    Path settingsPath() {
        List<String> argv = argv();
        int i = argv.indexOf("--settings");
        if (i < 0 || i + 1 >= argv.size()) {
            throw new AssertionError("no --settings in " + argv);
        }
        return Path.of(argv.get(i + 1));
    }

    /** The settings copy as the script saw it. */
    String settings() {
        return read("settings.json").orElseThrow(() -> new AssertionError("claude was given no settings file"));
    }

    String settingsMode() {
        return read("settings.mode").orElse("").trim();
    }

    String settingsDirMode() {
        return read("settings.dirmode").orElse("").trim();
    }

    String depth() {
        return read("depth").orElse("");
    }

    List<String> signals() {
        return Files.exists(dir.resolve("signals")) ? lines("signals") : List.of();
    }

    private List<String> lines(String name) {
        try {
            return Files.readAllLines(dir.resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Optional<String> read(String name) {
        try {
            Path p = dir.resolve(name);
            return Files.exists(p) ? Optional.of(Files.readString(p)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
