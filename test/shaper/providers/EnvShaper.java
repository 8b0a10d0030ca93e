package shaper.providers;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;
import shaper.server.ShaperServer;

/**
 * The real proxy started in this JVM from a command line, like {@code RunningShaper}, but with an
 * injected environment so {@code env:VAR} secrets can be set per test. The argv must bind an
 * ephemeral loopback port itself ({@code -bind 127.0.0.1:0} before the first marker).
 * Captures stdout and stderr.
 */
final class EnvShaper implements AutoCloseable {
    private final ShaperServer server;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private EnvShaper(Map<String, String> env, List<String> argv) {
        Invocation inv = CommandLineParser.parse(argv);
        if (!(inv instanceof Invocation.Run run)) {
            throw new IllegalArgumentException("not a run invocation: " + argv);
        }
        this.server = ShaperServer.start(run.config(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env::get);
    }

    static EnvShaper start(Map<String, String> env, String... argv) {
        return new EnvShaper(env, List.of(argv));
    }

    ShaperServer server() {
        return server;
    }

    int port() {
        return server.port();
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port() + pathAndQuery);
    }

    String stdout() {
        synchronized (out) {
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    String stderr() {
        synchronized (err) {
            return err.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
