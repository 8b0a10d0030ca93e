package shaper.launcher;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.testing.RunningShaper;

/** Finds and stops a shaper that a launcher started as a detached process, by the pid its health reports. */
final class DetachedShapers {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private DetachedShapers() {
    }

    /** The pid in {@code /__shaper/health} on the port, if a shaper answers there. */
    static Optional<Long> pid(int port) {
        try {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/__shaper/health"))
                    .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return Optional.empty();
            }
            return Optional.of(new ObjectMapper().readTree(r.body()).path("pid").asLong());
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Stops the shaper on the port (SIGTERM, then SIGKILL after 10 s) and waits, bounded, for it to go. */
    static void stop(int port) {
        Optional<ProcessHandle> handle = pid(port).flatMap(ProcessHandle::of);
        if (handle.isEmpty()) {
            return;
        }
        ProcessHandle h = handle.get();
        if (h.pid() == ProcessHandle.current().pid()) {
            throw new AssertionError("the shaper on " + port + " is this JVM; it was not started detached");
        }
        h.destroy();
        try {
            h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            h.destroyForcibly();
        }
        RunningShaper.await("detached shaper on " + port + " gone", Duration.ofSeconds(10), () -> !h.isAlive());
    }

    /** A process's argv joined with spaces, from {@code /proc/PID/cmdline} (Linux). */
    static String commandLine(long pid) throws IOException {
        return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ').trim();
    }

    /** The session id of a process, from {@code /proc/PID/stat} (Linux). */
    static long sessionOf(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[3]);
    }
}
