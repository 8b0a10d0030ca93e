package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * The official OpenAI TypeScript SDK (pinned npm {@code openai}) consumes what the transcoder emits
 * from the probe's Chat Completions fixture: {@code responses.create({stream: true})} events and
 * {@code response.completed}, {@code responses.stream()} with a function call and
 * {@code finalResponse()}, the tool output round trip, a non-streaming {@code responses.create}
 * ({@code output_text}), and a rejected control as an SDK error.
 */
class OpenAiSdkTest {
    static final NpmPackage SDK = new NpmPackage("openai-sdk", "openai", "7.59.0");
    private static final String REPLY = "Hi from the chat fixture, in Responses.";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void theSdkParsesTranscodedResponsesStreamsAnswersAndErrors() throws Exception {
        SDK.install();
        ProbeConfig d = ProbeConfig.defaults(0);
        ProbeServer probe = ProbeServer.start(d.withReply(REPLY));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/chat").toString(), "-transcode-responses-chat")) {
            Path script = ProjectRoot.find().resolve("test/shaper/transcode/responses/openai_sdk_client.cjs");
            ProcessBuilder pb = new ProcessBuilder("node", script.toString()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
            pb.environment().put("SDK_DIR", SDK.packageDir().toString());
            pb.environment().put("BASE_URL", shaper.uri("/v1").toString());
            Process node = pb.start();
            if (!node.waitFor(120, TimeUnit.SECONDS)) {
                node.destroyForcibly();
                throw new AssertionError("the SDK script did not finish in 120 s: " + Files.readString(dir.resolve("err")));
            }
            String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
            String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
            assertEquals(0, node.exitValue(), "stdout:\n" + out + "\nstderr:\n" + err);
            JsonNode r = ResponsesFixtures.MAPPER.readTree(out);

            JsonNode created = r.get("created");
            assertEquals(REPLY, created.get("text").asText());
            List<String> types = ResponsesFixtures.MAPPER.convertValue(created.get("types"), ResponsesFixtures.MAPPER.getTypeFactory()
                    .constructCollectionType(List.class, String.class));
            assertEquals("response.created", types.get(0));
            assertEquals("response.completed", types.get(types.size() - 1));
            assertTrue(types.contains("response.reasoning_text.delta"), types.toString());
            JsonNode completed = created.get("completed");
            assertEquals("completed", completed.get("status").asText());
            assertEquals("gpt-sdk-test", completed.get("model").asText());
            assertEquals("reasoning", completed.get("output").get(0).get("type").asText());
            assertTrue(completed.get("usage").get("input_tokens").asInt() > 0, completed.toString());

            JsonNode tool = r.get("tool");
            JsonNode call = tool.get("final").get("output").get(0);
            assertEquals("function_call", call.get("type").asText());
            assertEquals("Bash", call.get("name").asText());
            assertEquals("ls -la", ResponsesFixtures.MAPPER.readTree(call.get("arguments").asText()).get("command").asText());
            assertTrue(tool.get("argDeltas").asInt() >= 3, "the arguments arrived in several deltas: " + tool);
            assertEquals("tool said: a.txt b.txt", r.get("roundTrip").get("text").asText());

            JsonNode plain = r.get("plain");
            assertEquals(REPLY, plain.get("text").asText());
            assertEquals("response", plain.get("object").asText());

            JsonNode rejected = r.get("rejected");
            assertEquals(400, rejected.get("status").asInt());
            assertEquals("transcode field background uses unsupported feature \"responses_controls\"", rejected.get("message").asText());
            assertEquals("invalid_request_error", rejected.get("type").asText());
        } finally {
            probe.stop();
        }
    }
}
