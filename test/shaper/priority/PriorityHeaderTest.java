package shaper.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/** The priority header is for the proxy alone: removed before forwarding on every route, classes declared or not. */
class PriorityHeaderTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static void send(RunningShaper shaper, String path, String header, String value) throws Exception {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).header(header, value).header("X-Kept", "1")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
    }

    @Test
    void theDefaultHeaderIsNeverForwardedOnLimitedOrPassthroughRoutes() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            send(shaper, "/v1/messages", "X-Shaper-Priority", "background");
            send(shaper, "/v1/other", "x-shaper-priority", "interactive");
            assertEquals(2, up.requests().size());
            up.requests().forEach(r -> {
                assertFalse(r.has("X-Shaper-Priority"), r.names().toString());
                assertEquals("1", r.header("X-Kept"));
            });
        }
    }

    @Test
    void aRenamedHeaderIsRemovedWithClassesDeclared() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("{}");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-priority-header", "X-Lane",
                     "-priority-class", "interactive=4", "-priority-class", "background=1")) {
            send(shaper, "/v1/messages", "X-Lane", "background");
            assertFalse(up.onlyRequest().has("X-Lane"));
        }
    }
}
