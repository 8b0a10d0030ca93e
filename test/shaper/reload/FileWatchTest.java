package shaper.reload;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.testing.RunningShaper;

/**
 * {@link FileWatch} on a real directory: a reload that fails unexpectedly does not end the watch,
 * and a watch that cannot start releases the JDK watch service it opened.
 */
class FileWatchTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static void save(Path file, String text) throws IOException {
        Path tmp = Files.writeString(file.resolveSibling(".watched.swp"), text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    void aReloadThatThrowsDoesNotEndTheWatch() throws Exception {
        Path file = dir.resolve("shaper.yaml");
        Files.writeString(file, "first\n");
        AtomicInteger calls = new AtomicInteger();
        BlockingQueue<Integer> ran = new LinkedBlockingQueue<>();
        Runnable reload = () -> {
            int n = calls.incrementAndGet();
            ran.add(n);
            if (n == 1) {
                throw new IllegalStateException("a bug in the reload, not a bad file");
            }
        };
        try (FileWatch watch = FileWatch.start(file, reload)) {
            save(file, "second\n");
            assertTrue(ran.poll(BOUND.toSeconds(), TimeUnit.SECONDS) != null, "the first save reloads");
            save(file, "third\n");
            Integer second = ran.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(second != null && second == 2, "the save after a failed reload reloads again");
        }
    }

    @Test
    void aWatchThatCannotStartClosesItsWatchService() {
        long before = pollers();
        for (int i = 0; i < 5; i++) {
            Path missing = dir.resolve("no-such-dir-" + i).resolve("shaper.yaml");
            assertThrows(IOException.class, () -> FileWatch.start(missing, () -> { }));
        }
        // each JDK watch service runs a poller thread (and holds an inotify descriptor) until closed
        RunningShaper.await("the failed starts' watch-service pollers end", BOUND, () -> pollers() <= before);
    }

    private static long pollers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("FileSystemWatch") && t.isAlive()).count();
    }
}
