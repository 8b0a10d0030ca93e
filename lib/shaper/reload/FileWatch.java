package shaper.reload;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code -config-watch}: asks for a reload when the file's content changes. The directory is watched,
 * not the file, so an editor that saves by writing a new file and renaming it over the old one is
 * seen too (the rename arrives as a create of the name). Events are coalesced: the reload runs once
 * the name has been quiet for {@link #SETTLE_MILLIS}, and only when the content differs from the
 * last content seen (a touch or a save without change does nothing). The watch starts after the
 * proxy is listening; a save in between is caught by comparing the file with the hash of the
 * content the running configuration was loaded from.
 */
public final class FileWatch implements AutoCloseable {
    /** A save is often several events (truncate, write, rename); one reload follows them all. */
    static final long SETTLE_MILLIS = 150;

    private final Path file;
    private final Runnable reload;
    private final WatchService watcher;
    private final Thread thread;
    private byte[] lastDigest;

    private final boolean changedSinceLoad;

    private FileWatch(Path file, Runnable reload, Optional<String> loadedHash) throws IOException {
        this.file = file.toAbsolutePath().normalize();
        this.reload = reload;
        // Register before reading the content: a save after the read is then an event, and a save
        // before it shows in the digest; read first, a save in between was lost.
        this.watcher = FileSystems.getDefault().newWatchService();
        try {
            this.file.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
        } catch (IOException | RuntimeException e) {
            // the watch service holds an inotify descriptor and a poller thread of its own
            watcher.close();
            throw e;
        }
        this.lastDigest = digest();
        this.changedSinceLoad = lastDigest != null && loadedHash.isPresent()
                && !HexFormat.of().formatHex(lastDigest).startsWith(loadedHash.get());
        this.thread = Thread.ofPlatform().daemon().name("shaper-config-watch").start(this::run);
    }

    /** Starts watching {@code file}; {@code reload} runs on the watch thread. */
    public static FileWatch start(Path file, Runnable reload) throws IOException {
        return new FileWatch(file, reload, Optional.empty());
    }

    /**
     * Starts watching {@code file}, first reloading once if it no longer holds the content whose
     * short hash ({@code ConfigLoader}'s) is {@code loadedHash}.
     */
    public static FileWatch start(Path file, Runnable reload, Optional<String> loadedHash) throws IOException {
        return new FileWatch(file, reload, loadedHash);
    }

    private void run() {
        if (changedSinceLoad) {
            reloadKeepingWatch();
        }
        try {
            while (true) {
                WatchKey key = watcher.take();
                boolean touched = concernsFile(key);
                // Coalesce: keep draining until the directory has been quiet for a while.
                for (WatchKey more = watcher.poll(SETTLE_MILLIS, TimeUnit.MILLISECONDS); more != null;
                        more = watcher.poll(SETTLE_MILLIS, TimeUnit.MILLISECONDS)) {
                    touched |= concernsFile(more);
                }
                if (touched && Files.isRegularFile(file)) {
                    byte[] now = digest();
                    if (now != null && !Arrays.equals(now, lastDigest)) {
                        lastDigest = now;
                        reloadKeepingWatch();
                    }
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed: the proxy is stopping
        }
    }

    /**
     * Runs the reload; a failure it did not turn into a refusal (a bug, not a bad file) is reported
     * and the watch goes on: an exception out of {@link #run} would end the thread, and every later
     * save would be ignored without a word.
     */
    private void reloadKeepingWatch() {
        try {
            reload.run();
        } catch (RuntimeException e) {
            Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, e);
        }
    }

    private boolean concernsFile(WatchKey key) {
        boolean touched = false;
        for (WatchEvent<?> e : key.pollEvents()) {
            touched |= e.kind() == StandardWatchEventKinds.OVERFLOW || file.getFileName().equals(e.context());
        }
        key.reset();
        return touched;
    }

    /** The content's digest, or {@code null} when the file cannot be read at the moment (mid-rename). */
    private byte[] digest() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
        } catch (IOException e) {
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            watcher.close();
        } catch (IOException e) {
            // nothing left to release
        }
        thread.interrupt();
    }
}
