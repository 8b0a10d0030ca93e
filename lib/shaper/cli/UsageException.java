package shaper.cli;

import shaper.config.FlagException;

/**
 * A usage error (unknown flag, malformed syntax, a value that does not parse): the CLI exits 2 with
 * a hint pointing at {@code -h}. It may say which flag of which part of the command line it is
 * about (see {@link FlagException}).
 */
public final class UsageException extends FlagException {
    public UsageException(String message) {
        this(message, null, -1);
    }

    /** See {@link FlagException#FlagException(String, String, int)}. */
    public UsageException(String message, String flag, int section) {
        super(message, flag, section);
    }
}
