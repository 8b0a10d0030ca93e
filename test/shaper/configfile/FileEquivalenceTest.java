package shaper.configfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;

/**
 * The shared table: a file (plus command-line flags on top) and the equivalent command line give the
 * same configuration, and a mistake gives the same exit code, the file's message naming file:line:column.
 */
class FileEquivalenceTest {
    @TempDir
    Path dir;

    /** name, file, extra command-line flags after -config, the equivalent flags, expected exit (0 = runs), expected line:column. */
    static Stream<Arguments> table() {
        return Stream.of(
                row("single provider, every value type", """
                        bind: 127.0.0.1:8123
                        upstream: http://127.0.0.1:9001/base
                        concurrency: 3
                        queue-timeout: 1m30s
                        limit-all: true
                        limit: ["POST /v1/messages:2", "POST /v1/chat/completions@chat"]
                        retry-status: 422,429,503
                        release-cooldown: 0
                        """, List.of(), List.of("-bind", "127.0.0.1:8123", "-upstream", "http://127.0.0.1:9001/base", "-concurrency", "3",
                        "-queue-timeout", "1m30s", "-limit-all", "-limit", "POST /v1/messages:2", "-limit", "POST /v1/chat/completions@chat",
                        "-retry-status", "422,429,503", "-release-cooldown", "0"), 0, null),
                row("command line overrides the file, a repeatable replaces the whole list", """
                        upstream: http://127.0.0.1:9001
                        concurrency: 3
                        limit: ["POST /v1/messages:2", "POST /v1/x"]
                        """, List.of("-concurrency", "7", "-limit", "POST /v1/y"),
                        List.of("-upstream", "http://127.0.0.1:9001", "-concurrency", "7", "-limit", "POST /v1/y"), 0, null),
                row("two providers, a section on the command line overrides its entry", """
                        bind: 127.0.0.1:8124
                        providers:
                          - name: anthropic
                            upstream: http://127.0.0.1:9001/ok
                            prefix: /anthropic
                            concurrency: 4
                            auth-source: env:SHAPER_PROVIDER_ANTHROPIC_API_KEY
                            auth-mode: x-api-key
                          - name: openai
                            upstream: http://127.0.0.1:9002/ok
                            prefix: /openai
                            concurrency: 8
                        """, List.of("--provider=openai", "-concurrency", "2", "--provider=extra", "-upstream", "http://127.0.0.1:9003",
                        "-prefix", "/extra"),
                        List.of("-bind", "127.0.0.1:8124", "--provider=anthropic", "-upstream", "http://127.0.0.1:9001/ok", "-prefix", "/anthropic",
                                "-concurrency", "4", "-auth-source", "env:SHAPER_PROVIDER_ANTHROPIC_API_KEY", "-auth-mode", "x-api-key",
                                "--provider=openai", "-upstream", "http://127.0.0.1:9002/ok", "-prefix", "/openai", "-concurrency", "2",
                                "--provider=extra", "-upstream", "http://127.0.0.1:9003", "-prefix", "/extra"), 0, null),
                row("a value that does not parse is a usage error", """
                        upstream: http://127.0.0.1:9001
                        concurrency: lots
                        """, List.of(), List.of("-upstream", "http://127.0.0.1:9001", "-concurrency", "lots"), 2, "2:1"),
                row("a bad duration is a usage error", """
                        upstream: http://127.0.0.1:9001
                        queue-timeout: 30 seconds
                        """, List.of(), List.of("-upstream", "http://127.0.0.1:9001", "-queue-timeout", "30 seconds"), 2, "2:1"),
                row("a bad value is a semantic error", """
                        upstream: ftp://127.0.0.1:9001
                        """, List.of(), List.of("-upstream", "ftp://127.0.0.1:9001"), 1, "1:1"),
                row("a bind port out of range is a semantic error", """
                        bind: 127.0.0.1:99999
                        upstream: http://127.0.0.1:9001
                        """, List.of(), List.of("-bind", "127.0.0.1:99999", "-upstream", "http://127.0.0.1:9001"), 1, "1:1"),
                row("a bind without a numeric port is a usage error", """
                        bind: 127.0.0.1:abc
                        upstream: http://127.0.0.1:9001
                        """, List.of(), List.of("-bind", "127.0.0.1:abc", "-upstream", "http://127.0.0.1:9001"), 2, "1:1"),
                row("overlapping prefixes", """
                        providers:
                          - name: a
                            upstream: http://127.0.0.1:9001
                            prefix: /anthropic
                          - name: b
                            upstream: http://127.0.0.1:9002
                            prefix: /anthropic/v1
                        """, List.of(), List.of("--provider=a", "-upstream", "http://127.0.0.1:9001", "-prefix", "/anthropic",
                        "--provider=b", "-upstream", "http://127.0.0.1:9002", "-prefix", "/anthropic/v1"), 1, "7:5"),
                row("a literal secret is refused", """
                        upstream: http://127.0.0.1:9001
                        auth-source: sk-ant-literal-secret
                        """, List.of(), List.of("-upstream", "http://127.0.0.1:9001", "-auth-source", "sk-ant-literal-secret"), 1, "2:1"),
                row("a missing upstream in an entry names the entry", """
                        providers:
                          - name: a
                            prefix: /a
                        """, List.of(), List.of("--provider=a", "-prefix", "/a"), 1, "2:5"));
    }

    private static Arguments row(String name, String yaml, List<String> extra, List<String> flags, int exit, String lineColumn) {
        return Arguments.of(name, yaml, extra, flags, exit, lineColumn);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void fileAndFlagsBehaveTheSame(String name, String yaml, List<String> extra, List<String> flags, int exit, String lineColumn) {
        Path file = ConfigFiles.write(dir, "shaper.yaml", yaml);
        List<String> withFile = new ArrayList<>(List.of("-config", file.toString()));
        withFile.addAll(extra);
        if (exit == 0) {
            Invocation.Run fromFile = assertInstanceOf(Invocation.Run.class, ConfigLoader.parse(withFile));
            Invocation.Run fromFlags = assertInstanceOf(Invocation.Run.class, CommandLineParser.parse(flags));
            assertEquals(fromFlags.config(), fromFile.config());
            withFile.add(0, "-print-config");
            List<String> printFlags = new ArrayList<>(List.of("-print-config"));
            printFlags.addAll(flags);
            assertEquals(ConfigFiles.run(printFlags.toArray(String[]::new)).out(), ConfigFiles.run(withFile.toArray(String[]::new)).out());
            return;
        }
        ConfigFiles.Result viaFlags = ConfigFiles.run(flags.toArray(String[]::new));
        ConfigFiles.Result viaFile = ConfigFiles.run(withFile.toArray(String[]::new));
        assertEquals(exit, viaFlags.code(), viaFlags.err());
        assertEquals(exit, viaFile.code(), viaFile.err());
        assertTrue(viaFile.err().contains(file + ":" + lineColumn + ": "), viaFile.err());
    }
}
