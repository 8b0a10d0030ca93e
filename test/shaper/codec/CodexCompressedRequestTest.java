package shaper.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.observe.ExchangeRecord;
import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import com.github.luben.zstd.Zstd;

import shaper.testing.NpmPackage;
import shaper.testing.RecordedRequest;
import shaper.testing.ScriptedUpstream;
import shaper.testing.RunningShaper;

/**
 * The real Codex CLI sends a zstd-compressed Responses request, and the transcoded route
 * ({@code -transcode-responses-chat}) converts it. Codex compresses ({@code Content-Encoding: zstd},
 * level 3) only with its {@code enable_request_compression} feature, a ChatGPT login and its
 * built-in OpenAI provider; all three can be given against a local fake: the feature in
 * {@code config.toml}, the built-in provider pointed at the shaper with {@code openai_base_url},
 * and a ChatGPT login in {@code auth.json} whose tokens are dummies (nothing verifies them
 * locally; {@code last_refresh} is now, so Codex does not try to refresh them). Codex first tries
 * Responses over a WebSocket on that provider; the upgrade fails against the chat-only fixture and
 * it falls back to HTTP POSTs, which are the requests looked at here.
 */
class CodexCompressedRequestTest {
    static final NpmPackage CODEX = new NpmPackage("codex", "@openai/codex", "0.171.0");
    private static final String REPLY = "Hi Codex, your compressed request arrived.";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void codexsZstdRequestPassesThroughVerbatimAndIsDecodedOnTheTranscodedRoute() throws Exception {
        CODEX.install();
        List<RecordedRequest> posts = new CopyOnWriteArrayList<>();
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                if (req.method().equals("POST") && req.target().startsWith("/v1/responses")) {
                    posts.add(req);
                    ex.respond(200, responsesStream(), "Content-Type: text/event-stream");
                } else {
                    ex.respond(404, "{\"error\":{\"message\":\"not here\"}}", "Content-Type: application/json");
                }
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            Run run = codex(shaper, "passthrough");
            assertEquals(0, run.exit(), run.stderr());
            assertEquals(REPLY, run.last(), run.stderr());
            assertFalse(posts.isEmpty(), run.stderr());
            for (RecordedRequest post : posts) {
                assertEquals(List.of("zstd"), post.values("Content-Encoding"), "Codex compressed its request: " + post.names());
                byte[] plain = Zstd.decompress(post.body(), 16 << 20);
                assertTrue(new String(plain, StandardCharsets.UTF_8).contains("\"input\""), "a Responses request, byte for byte");
                List<ExchangeRecord> seen = shaper.server().journal("default").recent().stream()
                        .filter(r -> r.method().equals("POST") && r.path().equals("/v1/responses")).toList();
                assertTrue(seen.stream().allMatch(r -> r.status() == 200), seen.toString());
            }
            capturedCodexBody = posts.get(0).body();
        }
        ProbeConfig d = ProbeConfig.defaults(0);
        ProbeServer probe = ProbeServer.start(d.withReply(REPLY));
        try (RunningShaper shaper = RunningShaper.start("-upstream", probe.uri("/chat").toString(), "-transcode-responses-chat")) {
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    shaper.uri("/v1/responses")).header("Content-Type", "application/json").header("Content-Encoding", "zstd")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(capturedCodexBody)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            System.out.println("Codex's compressed request on -transcode-responses-chat: " + r.statusCode() + " " + r.body());
            // the transcoder read the decoded JSON: whatever it answers is about fields, never about the coding
            assertFalse(r.body().contains("Content-Encoding") || r.body().contains("not valid zstd"), r.body());
            // and every field Codex sends signed in with ChatGPT is known: the request converts
            assertEquals(200, r.statusCode(), r.body());
        } finally {
            probe.stop();
        }
    }

    private byte[] capturedCodexBody;

    private record Run(int exit, String last, String stderr) {
    }

    private Run codex(RunningShaper shaper, String name) throws Exception {
        Path home = Files.createDirectories(dir.resolve(name).resolve("home"));
        Path codexHome = Files.createDirectories(home.resolve(".codex"));
        Files.writeString(codexHome.resolve("config.toml"), String.join("\n",
                "model = \"probe-chat-1\"",
                "openai_base_url = \"" + shaper.uri("/v1") + "\"",
                "",
                "[features]",
                "enable_request_compression = true",
                ""));
        Files.writeString(codexHome.resolve("auth.json"), chatgptLogin());
        Path work = Files.createDirectories(dir.resolve(name).resolve("project"));
        Path out = Files.createDirectories(dir.resolve(name).resolve("out"));
        ProcessBuilder pb = new ProcessBuilder(List.of(CODEX.prefix().resolve("node_modules/.bin/codex").toString(), "exec",
                "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-C", work.toString(),
                "-o", out.resolve("last").toString(), "say hi"))
                .directory(work.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.resolve("stdout").toFile()).redirectError(out.resolve("stderr").toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("CODEX_HOME", codexHome.toString());
        pb.environment().put("OPENAI_BASE_URL", shaper.uri("/v1").toString());
        pb.environment().remove("OPENAI_API_KEY");
        Process p = pb.start();
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                throw new AssertionError("codex exec did not finish in 180 s: " + Files.readString(out.resolve("stderr")));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        Path last = out.resolve("last");
        return new Run(p.exitValue(), Files.exists(last) ? Files.readString(last, StandardCharsets.UTF_8).strip() : "",
                Files.readString(out.resolve("stderr"), StandardCharsets.UTF_8));
    }

    /** A minimal Responses event stream: created, one assistant message, completed. */
    private static String responsesStream() {
        return "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_1\"}}\n\n"
                + "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":"
                + "{\"type\":\"message\",\"id\":\"msg_1\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\""
                + REPLY + "\"}]}}\n\n"
                + "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"usage\":"
                + "{\"input_tokens\":1,\"input_tokens_details\":null,\"output_tokens\":1,\"output_tokens_details\":null,\"total_tokens\":2}}}\n\n";
    }

    /** A ChatGPT login as Codex stores it, with dummy tokens: an unsigned JWT carrying the claims Codex reads. */
    private static String chatgptLogin() {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = b64.encodeToString(("{\"email\":\"tester@example.invalid\",\"exp\":" + (Instant.now().getEpochSecond() + 86_400)
                + ",\"https://api.openai.com/auth\":{\"chatgpt_plan_type\":\"pro\",\"chatgpt_account_id\":\"acct-test\","
                + "\"chatgpt_user_id\":\"user-test\"}}").getBytes(StandardCharsets.UTF_8));
        String jwt = header + "." + claims + ".sig";
        return "{\"auth_mode\":\"chatgpt\",\"OPENAI_API_KEY\":null,\"tokens\":{\"id_token\":\"" + jwt + "\",\"access_token\":\"" + jwt
                + "\",\"refresh_token\":\"dummy-refresh\",\"account_id\":\"acct-test\"},\"last_refresh\":\"" + Instant.now() + "\"}";
    }
}
