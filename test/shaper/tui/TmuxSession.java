package shaper.tui;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import shaper.ProjectRoot;

/**
 * A shell in a detached tmux session of a fixed size, on a tmux server of its own (a private
 * socket), so tests see exactly what a person at that terminal would: {@link #type} a command line,
 * {@link #keys} presses keys, {@link #screen} is {@code capture-pane -p}. {@link #close} ends the
 * pane's processes by their pids and then that tmux server.
 */
public final class TmuxSession implements AutoCloseable {
    /** Covers a first compile of Shaper.java on a busy machine. */
    public static final Duration START_BOUND = Duration.ofSeconds(300);
    /** What the shell prints as its prompt. */
    public static final String PROMPT = "tui-test$ ";

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final String socket;
    private final long panePid;

    private TmuxSession(String socket, long panePid) {
        this.socket = socket;
        this.panePid = panePid;
    }

    /** Skips the test when tmux is missing (.ci/run installs it). */
    public static void assumeTmux() {
        assumeTrue(onPath("tmux"), "tmux is not installed (.ci/run installs it)");
    }

    /** A {@code width}×{@code height} session running a plain shell in the repository root. */
    public static TmuxSession start(int width, int height) throws IOException, InterruptedException {
        return start(width, height, null);
    }

    /**
     * Like {@link #start(int, int)}, with tmux's {@code window-style} set (e.g. {@code bg=#ffffff}): tmux
     * then answers a program's background colour query (OSC 11) with that colour, as a terminal does.
     */
    public static TmuxSession start(int width, int height, String windowStyle) throws IOException, InterruptedException {
        assumeTmux();
        String socket = "shaper-tui-test-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
        Path root = ProjectRoot.find();
        run(List.of("tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", String.valueOf(width), "-y",
                String.valueOf(height), "-c", root.toString(),
                "env PS1='" + PROMPT + "' TERM=tmux-256color bash --norc --noprofile"));
        run(List.of("tmux", "-L", socket, "set-option", "-g", "window-size", "manual"));
        if (windowStyle != null) {
            run(List.of("tmux", "-L", socket, "set-option", "-g", "window-style", windowStyle));
        }
        long pid = Long.parseLong(run(List.of("tmux", "-L", socket, "display-message", "-p", "#{pane_pid}")).trim());
        TmuxSession s = new TmuxSession(socket, pid);
        try {
            s.await("the shell's prompt", Duration.ofSeconds(20), screen -> screen.contains(PROMPT.strip()));
        } catch (AssertionError | IOException | InterruptedException e) {
            s.close(); // the caller never gets the session to close
            throw e;
        }
        return s;
    }

    /** Types {@code line} into the shell and presses Enter. */
    public void type(String line) throws IOException, InterruptedException {
        run(List.of("tmux", "-L", socket, "send-keys", "-l", line));
        run(List.of("tmux", "-L", socket, "send-keys", "Enter"));
    }

    /** Presses keys by tmux name ({@code 2}, {@code Tab}, {@code BTab}, {@code Enter}, {@code Escape}, {@code C-c}). */
    public void keys(String... names) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket, "send-keys"));
        cmd.addAll(List.of(names));
        run(cmd);
    }

    /** The visible screen as text, one line per row. */
    public String screen() throws IOException, InterruptedException {
        return run(List.of("tmux", "-L", socket, "capture-pane", "-p"));
    }

    /** The visible screen with its colours and attributes as SGR escape sequences ({@code capture-pane -p -e}). */
    String screenWithStyles() throws IOException, InterruptedException {
        return run(List.of("tmux", "-L", socket, "capture-pane", "-p", "-e"));
    }

    /** Resizes the window (the program gets SIGWINCH). */
    void resize(int width, int height) throws IOException, InterruptedException {
        run(List.of("tmux", "-L", socket, "resize-window", "-x", String.valueOf(width), "-y", String.valueOf(height)));
    }

    /** Polls the screen (bounded) until {@code condition} holds; returns that screen, or fails showing the last one. */
    public String await(String what, Duration bound, Predicate<String> condition) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        String screen = screen();
        while (!condition.test(screen)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + bound + " waiting for " + what + "; the screen:\n" + screen);
            }
            Thread.sleep(50);
            screen = screen();
        }
        return screen;
    }

    /** The screen's rows. */
    static List<String> rows(String screen) {
        return screen.lines().toList();
    }

    /** The screen's bottom row. */
    public static String lastRow(String screen) {
        List<String> rows = rows(screen);
        return rows.isEmpty() ? "" : rows.getLast();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Optional<ProcessHandle> pane = ProcessHandle.of(panePid);
        List<ProcessHandle> all = new ArrayList<>();
        pane.ifPresent(p -> {
            p.descendants().forEach(all::add);
            all.add(p);
        });
        for (ProcessHandle h : all) {
            h.destroy();
        }
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
        try {
            run(List.of("tmux", "-L", socket, "kill-server"));
        } catch (IOException e) {
            // the server already exited with its last pane
        }
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + command);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(command + " exited " + p.exitValue() + ": " + text);
        }
        return text;
    }

    private static boolean onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }
}
