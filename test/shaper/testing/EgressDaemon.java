package shaper.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;


/**
 * A real forward proxy for tests, started with a generated configuration on a free loopback port:
 * Debian's {@code squid} (HTTP, {@code CONNECT} to any port, host names from a hosts file of the
 * test's) or {@code dante-server} (SOCKS5, no authentication). Stopped by its own PID on close.
 * A test is skipped, not failed, where the program is not installed ({@code .ci/run} installs both).
 */
public final class EgressDaemon implements AutoCloseable {
    private static final Duration START_BOUND = Duration.ofSeconds(30);

    private final Process process;
    private final int port;
    private final Path dir;

    private EgressDaemon(List<String> argv, int port, Path dir) throws IOException {
        this.port = port;
        this.dir = dir;
        this.process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile()).start();
        try {
            awaitListening(argv.getFirst());
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private void awaitListening(String program) {
        RunningShaper.await(program + " listening on " + port, START_BOUND, () -> {
            if (!process.isAlive()) {
                throw new AssertionError(program + " exited: " + TestNet.read(dir.resolve("out.log")) + log());
            }
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** squid on a free port; {@code hosts} is its hosts file (lines {@code 127.0.0.1 name}). */
    public static EgressDaemon squid(String hosts) throws IOException {
        Path bin = installed("/usr/sbin/squid");
        Path dir = workDir("squid");
        return squid(bin, dir, hosts, "http_access allow localhost");
    }

    /**
     * squid on a free port that lets a loopback client through only with Basic credentials
     * {@code user}/{@code password}, checked by Debian's {@code basic_ncsa_auth} against a password
     * file made with {@code openssl passwd -apr1}.
     */
    public static EgressDaemon squidWithLogin(String user, String password) throws Exception {
        Path bin = installed("/usr/sbin/squid");
        Path helper = installed("/usr/lib/squid/basic_ncsa_auth");
        Path dir = workDir("squid");
        Process hash = new ProcessBuilder("openssl", "passwd", "-apr1", "-stdin").redirectErrorStream(true).start();
        try (var in = hash.getOutputStream()) {
            in.write((password + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        String hashed = new String(hash.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip();
        if (!hash.waitFor(30, TimeUnit.SECONDS) || hash.exitValue() != 0) {
            hash.destroyForcibly();
            throw new IOException("openssl passwd failed: " + hashed);
        }
        Path passwords = dir.resolve("passwd");
        Files.writeString(passwords, user + ":" + hashed + "\n");
        return squid(bin, dir, "", String.join("\n",
                "auth_param basic program " + helper + " " + passwords,
                "auth_param basic realm shaper-test",
                "acl login proxy_auth REQUIRED",
                "http_access allow localhost login"));
    }

    private static EgressDaemon squid(Path bin, Path dir, String hosts, String access) throws IOException {
        int port = TestNet.freePort();
        Files.writeString(dir.resolve("hosts"), hosts + "\n");
        Files.writeString(dir.resolve("squid.conf"), String.join("\n",
                "http_port 127.0.0.1:" + port,
                access,
                "http_access deny all",
                "cache deny all",
                "hosts_file " + dir.resolve("hosts"),
                "access_log stdio:" + dir.resolve("access.log"),
                "cache_log " + dir.resolve("cache.log"),
                "pid_filename " + dir.resolve("squid.pid"),
                "coredump_dir " + dir,
                "shutdown_lifetime 0 seconds",
                "") + "\n");
        return new EgressDaemon(List.of(bin.toString(), "-N", "-f", dir.resolve("squid.conf").toString()), port, dir);
    }

    /** danted on a free port, relaying CONNECT from loopback to loopback. */
    public static EgressDaemon dante() throws IOException {
        Path bin = installed("/usr/sbin/danted");
        Path dir = workDir("dante");
        int port = TestNet.freePort();
        Files.writeString(dir.resolve("danted.conf"), String.join("\n",
                "logoutput: " + dir.resolve("access.log"),
                "internal: 127.0.0.1 port = " + port,
                "external: 127.0.0.1",
                "clientmethod: none",
                "socksmethod: none",
                "user.privileged: root",
                "user.unprivileged: nobody",
                "client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }",
                "socks pass {", "  from: 127.0.0.0/8 to: 127.0.0.0/8", "  command: connect", "  log: connect", "}",
                "") + "\n");
        return new EgressDaemon(List.of(bin.toString(), "-f", dir.resolve("danted.conf").toString(), "-p", dir.resolve("danted.pid").toString()),
                port, dir);
    }

    private static Path installed(String path) {
        Path bin = Path.of(path);
        Assumptions.assumeTrue(Files.isExecutable(bin), path + " is not installed");
        return bin;
    }

    /** A directory the daemon can write after dropping its privileges. */
    private static Path workDir(String name) throws IOException {
        Path dir = Files.createTempDirectory("egress-" + name + "-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        return dir;
    }

    public int port() {
        return port;
    }

    /** What the daemon logged of the connections it carried. */
    public String log() {
        return TestNet.read(dir.resolve("access.log"));
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temp directory is harmless
        }
    }
}
