package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.ProjectRoot;
import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.NpmPackage;
import shaper.testing.RunningShaper;

/**
 * The official Anthropic TypeScript SDK consumes what the transcoder emits from the probe's Chat
 * Completions fixture: {@code messages.stream} text and thinking, {@code finalMessage()}, stop
 * reason, usage, a streamed tool call, a plain {@code messages.create}, and a rejected loss as an
 * SDK error.
 */
class AnthropicSdkTest {
    static final NpmPackage SDK = new NpmPackage("anthropic-sdk", "@anthropic-ai/sdk", "1.14.0");
    private static final String REPLY = "Hi from the chat fixture.";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void theSdkParsesTranscodedStreamsAnswersAndErrors() throws Exception {
        SDK.install();
        ProbeConfig d = ProbeConfig.defaults(0);
        ProbeServer probe = ProbeServer.start(d.withReply(REPLY));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/chat").toString(), "-transcode-messages-chat")) {
            Path script = ProjectRoot.find().resolve("test/shaper/transcode/anthropic_sdk_client.cjs");
            ProcessBuilder pb = new ProcessBuilder("node", script.toString()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
            pb.environment().put("SDK_DIR", SDK.packageDir().toString());
            pb.environment().put("BASE_URL", shaper.uri("").toString());
            Process node = pb.start();
            if (!node.waitFor(120, TimeUnit.SECONDS)) {
                node.destroyForcibly();
                throw new AssertionError("the SDK script did not finish in 120 s: " + Files.readString(dir.resolve("err")));
            }
            String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
            String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
            assertEquals(0, node.exitValue(), "stdout:\n" + out + "\nstderr:\n" + err);
            JsonNode r = Mappings.JSON.readTree(out);

            JsonNode stream = r.get("stream");
            assertEquals(REPLY, stream.get("text").asText());
            assertEquals("Thinking it over: the probe considers the question.",
                    stream.get("thinking").asText());
            JsonNode fin = stream.get("final");
            assertEquals("claude-sdk-test", fin.get("model").asText());
            assertEquals("end_turn", fin.get("stop_reason").asText());
            assertEquals("thinking", fin.get("content").get(0).get("type").asText());
            assertEquals("shaper-synth-thinking-1", fin.get("content").get(0).get("signature").asText());
            assertEquals(REPLY, fin.get("content").get(1).get("text").asText());
            assertTrue(fin.get("usage").get("input_tokens").asInt() > 0, fin.toString());
            assertTrue(fin.get("usage").get("output_tokens").asInt() > 0, fin.toString());

            JsonNode tool = r.get("tools").get("final");
            assertEquals("tool_use", tool.get("stop_reason").asText());
            JsonNode use = tool.get("content").get(0);
            assertEquals("tool_use", use.get("type").asText());
            assertEquals("Bash", use.get("name").asText());
            assertEquals("ls -la", use.get("input").get("command").asText());
            assertTrue(r.get("tools").get("partials").asInt() >= 3, "the arguments arrived in several input_json_delta events");

            JsonNode plain = r.get("plain");
            assertEquals(REPLY, plain.get("content").get(0).get("text").asText());
            assertEquals("end_turn", plain.get("stop_reason").asText());

            JsonNode rejected = r.get("rejected");
            assertEquals(400, rejected.get("status").asInt(), r.toString());
            assertEquals("invalid_request_error", rejected.get("type").asText());
            assertEquals("transcode field top_k uses unsupported feature \"top_k\"", rejected.get("message").asText());
        } finally {
            probe.stop();
        }
    }
}
