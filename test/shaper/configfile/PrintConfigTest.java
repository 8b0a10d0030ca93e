package shaper.configfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;

/** {@code -print-config} prints file + flags + defaults as a file that {@code -config} loads back to the same configuration. */
class PrintConfigTest {
    @TempDir
    Path dir;

    private void roundTrips(String... argv) {
        ConfigFiles.Result printed = ConfigFiles.run(withPrint(argv));
        assertEquals(0, printed.code(), printed.err());
        Path file = ConfigFiles.write(dir, "effective.yaml", printed.out());
        Invocation.Run original = assertInstanceOf(Invocation.Run.class, CommandLineParser.parse(List.of(argv)));
        Invocation.Run loaded = assertInstanceOf(Invocation.Run.class, ConfigLoader.parse(List.of("-config", file.toString())));
        assertEquals(original.config(), loaded.config(), printed.out());
        assertEquals(printed.out(), ConfigFiles.run("-config", file.toString(), "-print-config").out(), "printing is a fixed point");
    }

    private static String[] withPrint(String... argv) {
        String[] all = new String[argv.length + 1];
        all[0] = "-print-config";
        System.arraycopy(argv, 0, all, 1, argv.length);
        return all;
    }

    @Test
    void singleProviderWithDefaults() {
        roundTrips("-upstream", "http://127.0.0.1:9/base");
    }

    @Test
    void singleProviderWithEveryKindOfValue() {
        roundTrips("-upstream", "http://127.0.0.1:9", "-concurrency", "2", "-limit", "POST /v1/messages:1", "-limit", "GET /v1/models",
                "-queue-timeout", "90s", "-limit-all", "-client-key", "env:SHAPER_CLIENT_KEY", "-transcode-messages-chat",
                "-transcode-allow-loss", "top_k", "-transcode-model", "claude=gpt");
    }

    @Test
    void severalProvidersKeepTheirNames() {
        roundTrips("--provider=a", "-upstream", "http://127.0.0.1:9", "-prefix", "/a", "--provider", "-upstream", "http://127.0.0.2:9",
                "-prefix", "/b", "-retry", "2");
    }

    @Test
    void defaultsArePrinted() {
        String out = ConfigFiles.run("-print-config", "-upstream", "http://127.0.0.1:9").out();
        assertTrue(out.contains("concurrency: 4") && out.contains("queue-timeout: 30s") && out.contains("retry: -1"), out);
    }
}
