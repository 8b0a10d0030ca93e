package shaper.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;
import shaper.cli.FlagScopes;
import shaper.testing.ScriptedUpstream;

/** docs/providers.md's "Multiple providers" section against the code: its example runs, its scope table matches. */
class ReadmeProvidersTest {
    private static final Pattern FENCE = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern EXPORT = Pattern.compile("^export (\\w+)=(\\S+)", Pattern.MULTILINE);

    private static String section(String heading) throws Exception {
        String readme = Files.readString(ProjectRoot.find().resolve("docs/providers.md"));
        int start = readme.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, "docs/providers.md has " + heading);
        int end = readme.indexOf("\n## ", start + heading.length() + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    @Test
    void twoProviderExampleReachesEachUpstreamWithItsOwnCredentialAndLimit() throws Exception {
        Matcher block = FENCE.matcher(section("## Multiple providers"));
        assertTrue(block.find());
        String script = block.group(1);
        Map<String, String> env = new HashMap<>();
        Matcher exports = EXPORT.matcher(script);
        while (exports.find()) {
            env.put(exports.group(1), exports.group(2));
        }
        String command = script.substring(script.indexOf("./jbang Shaper.java")).replace("\\\n", " ");
        try (ScriptedUpstream anthropic = ScriptedUpstream.ok("from the anthropic stand-in");
             ScriptedUpstream openai = ScriptedUpstream.ok("from the openai stand-in")) {
            List<String> argv = new ArrayList<>();
            for (String token : command.trim().split("\\s+")) {
                argv.add(token.replace("127.0.0.1:9001", "127.0.0.1:" + anthropic.port())
                        .replace("127.0.0.1:9002", "127.0.0.1:" + openai.port())
                        .replace("127.0.0.1:8080", "127.0.0.1:0"));
            }
            assertEquals(List.of("./jbang", "Shaper.java"), argv.subList(0, 2));
            try (EnvShaper shaper = EnvShaper.start(env, argv.subList(2, argv.size()).toArray(String[]::new))) {
                HttpClient client = HttpClient.newHttpClient();
                for (String path : new String[] {"/anthropic/v1/messages", "/openai/v1/messages"}) {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(Duration.ofSeconds(10))
                            .header("Authorization", "Bearer client-side-key")
                            .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode(), path);
                }
                assertEquals("/ok/v1/messages", anthropic.onlyRequest().target());
                assertEquals(env.get("SHAPER_PROVIDER_ANTHROPIC_API_KEY"), anthropic.onlyRequest().header("X-Api-Key"));
                assertEquals("Bearer " + env.get("SHAPER_PROVIDER_OPENAI_API_KEY"), openai.onlyRequest().header("Authorization"));
                assertEquals(4, defaultPool(shaper, "anthropic"));
                assertEquals(8, defaultPool(shaper, "openai"));
            }
        }
    }

    @Test
    void scopeTableListsExactlyTheServerFlagsAndOnlyProviderFlagsAsProvider() throws Exception {
        Set<String> server = new LinkedHashSet<>();
        Set<String> provider = new LinkedHashSet<>();
        Pattern flag = Pattern.compile("`(-[a-z][a-z0-9-]*)");
        for (String line : section("### Flag scopes").lines().toList()) {
            String[] cells = line.split("(?<!\\\\)\\|");
            if (cells.length < 3 || cells[1].contains("every other flag")) {
                continue;
            }
            Matcher m = flag.matcher(cells[1]);
            while (m.find()) {
                (cells[2].trim().equals("server") ? server : provider).add(m.group(1));
            }
        }
        Set<String> codeServer = new LinkedHashSet<>();
        for (String name : FlagScopes.current().server()) {
            if (!name.startsWith("--")) {
                codeServer.add(name);
            }
        }
        assertEquals(codeServer, server, "server-scope flags in README vs code");
        assertTrue(FlagScopes.current().provider().containsAll(provider), "provider-scope flags in README: " + provider);
    }

    private static int defaultPool(EnvShaper shaper, String provider) {
        return shaper.server().limiters(provider).stream().filter(s -> s.name().endsWith(" default")).findFirst().orElseThrow().limit();
    }
}
