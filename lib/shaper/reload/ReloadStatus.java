package shaper.reload;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What reloads have done so far, for {@code /metrics} and {@code /__shaper/health}: the generation
 * in force (1 at startup, +1 per applied reload), the hash of the file it came from, and how many
 * reloads succeeded and failed. Thread-safe; read without locking.
 */
public final class ReloadStatus {
    private final AtomicLong generation = new AtomicLong(1);
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile Optional<String> fileHash;

    public ReloadStatus(Optional<String> fileHash) {
        this.fileHash = fileHash;
    }

    /** A proxy started without a file: generation 1 forever. */
    public static ReloadStatus fixed() {
        return new ReloadStatus(Optional.empty());
    }

    /** Records the hash of the file the proxy started from. */
    public void startedFrom(Optional<String> hash) {
        fileHash = hash;
    }

    public long generation() {
        return generation.get();
    }

    /** The first 16 hex digits of the SHA-256 of the file in force, or empty without a file. */
    public Optional<String> fileHash() {
        return fileHash;
    }

    public long succeeded() {
        return ok.get();
    }

    public long failed() {
        return failed.get();
    }

    void applied(Optional<String> hash) {
        fileHash = hash;
        generation.incrementAndGet();
        ok.incrementAndGet();
    }

    void rejected() {
        failed.incrementAndGet();
    }
}
