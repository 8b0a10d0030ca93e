package shaper.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.ProjectRoot;
import shaper.testing.NpmPackage;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The official SDKs (pinned npm {@code openai} and {@code @anthropic-ai/sdk}) list the routed mount's
 * models through {@code /v1/models}, each parsing its own list shape, as model pickers do.
 */
class SdkModelListTest {
    private static final NpmPackage OPENAI = new NpmPackage("openai-sdk", "openai", "7.59.0");
    private static final NpmPackage ANTHROPIC = new NpmPackage("anthropic-sdk", "@anthropic-ai/sdk", "1.14.0");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void bothSdksListTheRoutesModels() throws Exception {
        OPENAI.install();
        ANTHROPIC.install();
        try (ScriptedUpstream a = ScriptedUpstream.ok("{}");
             ScriptedUpstream b = ScriptedUpstream.ok("{}");
             RunningShaper shaper = Routed.start(List.of("-model-route", "claude-sonnet-4-5=a,b", "-model-route", "gpt-5=b",
                     "-model-route", "claude-*=a"), a.url(), List.of(), b.url(), List.of())) {
            Path script = ProjectRoot.find().resolve("test/shaper/routing/models_list_client.cjs");
            ProcessBuilder pb = new ProcessBuilder("node", script.toString()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
            pb.environment().put("OPENAI_SDK_DIR", OPENAI.packageDir().toString());
            pb.environment().put("ANTHROPIC_SDK_DIR", ANTHROPIC.packageDir().toString());
            pb.environment().put("BASE_URL", shaper.uri("/r").toString());
            Process node = pb.start();
            try {
                if (!node.waitFor(120, TimeUnit.SECONDS)) {
                    throw new AssertionError("the SDK script did not finish in 120 s: " + Files.readString(dir.resolve("err")));
                }
            } finally {
                node.destroyForcibly(); // by its own handle: a no-op once it exited
            }
            String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
            assertEquals(0, node.exitValue(), "stdout:\n" + out + "\nstderr:\n" + Files.readString(dir.resolve("err")));
            JsonNode listed = new ObjectMapper().readTree(out);
            assertEquals("[\"claude-sonnet-4-5\",\"gpt-5\"]", listed.get("openai").toString());
            assertEquals("[\"claude-sonnet-4-5\",\"gpt-5\"]", listed.get("anthropic").toString());
            assertEquals(0, a.requests().size() + b.requests().size(), "the routed mount answers the list itself");
        }
    }
}
