package shaper.configfile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import shaper.main.ShaperMain;

/** Writes configuration files for tests and runs the real entry point on them. */
final class ConfigFiles {
    record Result(int code, String out, String err) {
    }

    private ConfigFiles() {
    }

    static Path write(Path dir, String name, String yaml) {
        try {
            return Files.writeString(dir.resolve(name), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code ShaperMain.run} with {@code -config file} before {@code argv}. */
    static Result runWith(Path file, String... argv) {
        List<String> all = new ArrayList<>(List.of("-config", file.toString()));
        all.addAll(List.of(argv));
        return run(all.toArray(String[]::new));
    }

    static Result run(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ShaperMain.run(argv, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
