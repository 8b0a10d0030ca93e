package shaper.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.Version;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** The reserved health route is answered locally and never forwarded. */
class HealthTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @Test
    void healthIsAnsweredLocallyWithServicePidVersionAndProviders() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("from upstream");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url() + "/v1?token=hidden")) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/__shaper/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("content-type").orElseThrow().startsWith("application/json"));
            JsonNode doc = new ObjectMapper().readTree(r.body());
            assertEquals(Version.SERVICE, doc.get("service").asText());
            assertEquals(ProcessHandle.current().pid(), doc.get("pid").asLong());
            assertEquals(Version.VERSION, doc.get("version").asText());
            assertEquals("default", doc.get("providers").get(0).get("name").asText());
            assertTrue(!r.body().contains("hidden"), "the upstream query is never shown");
            assertEquals(0, up.requests().size(), "health must never be forwarded");
        }
    }

    @Test
    void otherMethodsOnTheHealthPathAreRefusedLocally() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("from upstream");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/__shaper/health"))
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, r.statusCode());
            assertEquals(0, up.requests().size());
        }
    }
}
