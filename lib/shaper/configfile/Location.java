package shaper.configfile;

import java.nio.file.Path;

/** A place in a configuration file, 1-based, printed as {@code file:line:column} like a compiler's. */
public record Location(Path file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
