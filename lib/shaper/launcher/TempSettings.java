package shaper.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The private copy of the settings Claude Code reads: {@code settings.json} ({@code 0600}) in a new
 * {@code 0700} directory. {@link #close} deletes both; it is idempotent and safe to call from a
 * signal handler or shutdown hook while the launch thread also calls it.
 */
public final class TempSettings implements AutoCloseable {
    static final String DIRECTORY_PREFIX = "shaper-claude-";
    static final String FILE_NAME = "settings.json";

    private final Path directory;
    private final Path file;
    private final AtomicBoolean closed = new AtomicBoolean();

    private TempSettings(Path directory) {
        this.directory = directory;
        this.file = directory.resolve(FILE_NAME);
    }

    /** Writes {@code content} to a fresh private directory below {@code tmpDir}. */
    public static TempSettings write(Path tmpDir, byte[] content) throws LaunchException {
        Path dir;
        try {
            dir = PrivateFiles.createDirectory(tmpDir, DIRECTORY_PREFIX);
        } catch (IOException e) {
            throw new LaunchException("cannot create a private directory in " + tmpDir + ": " + e.getMessage());
        }
        TempSettings temp = new TempSettings(dir);
        try {
            PrivateFiles.writeNew(temp.file, content);
        } catch (IOException e) {
            temp.close();
            throw new LaunchException("cannot write the settings copy " + temp.file + ": " + e.getMessage());
        }
        return temp;
    }

    public Path path() {
        return file;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // Nothing else can be done at exit; say so, since the copy may hold credentials.
            System.err.println(LauncherMain.PREFIX + "could not delete " + directory + ": " + e.getMessage());
        }
    }
}
