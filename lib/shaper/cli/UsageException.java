package shaper.cli;

/** A usage error (unknown flag, malformed syntax): the CLI exits 2 with a hint pointing at {@code -h}. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
