package shaper.launcher;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Owner-only files: the settings overlay (it may hold credentials) and the shaper's logs. Files are
 * created {@code 0600}, directories {@code 0700}, both with the mode set at creation so there is
 * no moment in which another user could open them. On a file system without POSIX permissions the
 * files are created plainly.
 */
final class PrivateFiles {
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private PrivateFiles() {
    }

    /** A new {@code 0700} directory below {@code parent}. */
    static Path createDirectory(Path parent, String prefix) throws IOException {
        return POSIX ? Files.createTempDirectory(parent, prefix, mode("rwx------")) : Files.createTempDirectory(parent, prefix);
    }

    /** Writes {@code content} to a new {@code 0600} file; fails if {@code file} exists. */
    static void writeNew(Path file, byte[] content) throws IOException {
        Files.createFile(file, POSIX ? new FileAttribute<?>[] {mode("rw-------")} : new FileAttribute<?>[0]);
        Files.write(file, content, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Makes {@code log} safe to append to: creates it {@code 0600} when absent; an existing one must
     * be a regular file (not a symbolic link), owned by this user and closed to group and others.
     *
     * @param variable the setting that named the file, for the message
     * @throws LaunchException saying why the file is refused
     */
    static void prepareLog(Path log, String variable) throws LaunchException {
        String named = variable + " " + log;
        try {
            Files.createFile(log, POSIX ? new FileAttribute<?>[] {mode("rw-------")} : new FileAttribute<?>[0]);
            return;
        } catch (FileAlreadyExistsException e) {
            // an existing file (or link) is checked below rather than trusted
        } catch (IOException e) {
            throw new LaunchException("cannot create " + named + ": " + e);
        }
        if (Files.isSymbolicLink(log)) {
            throw new LaunchException(named + " is a symbolic link; refusing to write the shaper's log through it");
        }
        if (!Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS)) {
            throw new LaunchException(named + " is not a regular file");
        }
        if (!POSIX) {
            return;
        }
        PosixFileAttributes attrs;
        try {
            attrs = Files.readAttributes(log, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new LaunchException("cannot inspect " + named + ": " + e);
        }
        String me = System.getProperty("user.name");
        if (!attrs.owner().getName().equals(me)) {
            throw new LaunchException(named + " belongs to " + attrs.owner().getName() + ", not " + me
                    + "; remove it or set " + variable + " to a file of your own");
        }
        Set<PosixFilePermission> open = EnumSet.copyOf(attrs.permissions());
        open.retainAll(OTHERS);
        if (!open.isEmpty()) {
            throw new LaunchException(named + " is open to group or others (" + PosixFilePermissions.toString(attrs.permissions())
                    + "); run chmod 600 on it or set " + variable + " to another file");
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> mode(String rwx) {
        return PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(rwx));
    }
}
