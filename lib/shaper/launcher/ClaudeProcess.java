package shaper.launcher;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Claude Code as the launcher's child: inherited stdin/stdout/stderr, its exit code returned, and
 * stop signals passed on. State, shared between the launch thread and signal handlers under one lock:
 * <pre>
 *  NOT_STARTED --signal--> STOPPED (the launch ends with 128+signal; Claude Code never starts)
 *  NOT_STARTED --run()---> RUNNING --signal--> forwarded; after GRACE the child is killed
 *  RUNNING --exit--> its exit code is the launcher's
 * </pre>
 * A signal the child already received from the terminal is not sent again, and starts no kill
 * timer: Claude Code may handle an interrupt and keep running.
 */
public final class ClaudeProcess {
    /** How long Claude Code gets to exit after a forwarded signal before it is killed. */
    public static final Duration GRACE = Duration.ofSeconds(5);

    private final Object lock = new Object();
    private Process child;
    private StopSignal stoppedBeforeStart;
    private boolean killTimerStarted;

    /**
     * Starts Claude Code and waits for it.
     *
     * @return its exit code (128 + signal when a signal ended it)
     * @throws LaunchException when a stop signal came first or the executable cannot start
     */
    public int run(List<String> command, Map<String, String> env) throws LaunchException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p;
        synchronized (lock) {
            if (stoppedBeforeStart != null) {
                throw stopped(stoppedBeforeStart);
            }
            try {
                p = pb.start();
            } catch (IOException e) {
                throw new LaunchException("cannot start Claude Code (" + command.getFirst() + "): " + e.getMessage());
            }
            child = p;
        }
        try {
            return p.waitFor();
        } catch (InterruptedException e) {
            terminate(p);
            throw e;
        }
    }

    /**
     * A stop signal reached the launcher.
     *
     * @param childHasIt true when the child got the same signal from the terminal (Ctrl+C goes to the
     *                   whole foreground process group); then only a launch that has not started
     *                   Claude Code yet reacts, by stopping
     */
    public void signal(StopSignal s, boolean childHasIt) {
        Process p;
        synchronized (lock) {
            if (child == null) {
                if (stoppedBeforeStart == null) {
                    stoppedBeforeStart = s;
                }
                return;
            }
            if (childHasIt || !child.isAlive()) {
                return;
            }
            p = child;
        }
        forward(p, s);
        startKillTimer(p);
    }

    /** True once a stop signal arrived before Claude Code started: the launch should end. */
    public boolean stopRequested() {
        synchronized (lock) {
            return stoppedBeforeStart != null;
        }
    }

    /** The exit of a launch stopped before Claude Code ran. */
    public LaunchException stoppedException() {
        synchronized (lock) {
            return stopped(stoppedBeforeStart == null ? StopSignal.TERM : stoppedBeforeStart);
        }
    }

    /** For the JVM's shutdown: no new child may start, a running one gets SIGTERM and GRACE, then is killed. */
    public void shutdown() throws InterruptedException {
        Process p;
        synchronized (lock) {
            if (child == null && stoppedBeforeStart == null) {
                stoppedBeforeStart = StopSignal.TERM;
            }
            p = child;
        }
        if (p != null && p.isAlive()) {
            terminate(p);
        }
    }

    private static LaunchException stopped(StopSignal s) {
        return new LaunchException("stopped by " + s.signalName() + " before Claude Code started", s.exitCode());
    }

    private static void forward(Process p, StopSignal s) {
        if (s == StopSignal.TERM) {
            p.destroy();
            return;
        }
        // The JDK can only send SIGTERM and SIGKILL; kill(1) sends the rest.
        try {
            Process kill = new ProcessBuilder("kill", "-" + s.name(), Long.toString(p.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
                p.destroy();
            }
        } catch (IOException e) {
            p.destroy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroy();
        }
    }

    private void startKillTimer(Process p) {
        synchronized (lock) {
            if (killTimerStarted) {
                return;
            }
            killTimerStarted = true;
        }
        Thread.ofPlatform().daemon().name("claude-kill-timer").start(() -> {
            try {
                killAfterGrace(p);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static void terminate(Process p) throws InterruptedException {
        p.destroy();
        killAfterGrace(p);
    }

    private static void killAfterGrace(Process p) throws InterruptedException {
        if (!p.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
