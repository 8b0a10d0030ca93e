package shaper.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * An identity header over real sockets: a header of the shaper's own ({@code x-shaper-...}) names the
 * client and is not forwarded; a header of the client's own names it and goes on; the journal and the
 * exchange line carry the name.
 */
class IdentityHeaderTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void theShapersOwnHeaderIsDroppedTheClientsIsKept() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, "{}"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-client-id", "header:x-shaper-client,header:x-team")) {
            HttpResponse<String> own = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).header("X-Shaper-Client", "ann")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> theirs = CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).header("X-Team", "ben")
                    .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, own.statusCode());
            assertEquals(200, theirs.statusCode());
            assertTrue(up.requests().get(0).header("x-shaper-client") == null, "the shaper's own header is not forwarded");
            assertEquals("ben", up.requests().get(1).header("x-team"), "the client's own header goes on");
            RunningShaper.await("both recorded", java.time.Duration.ofSeconds(10),
                    () -> shaper.server().journal("default").recent().size() == 2 && shaper.logLines(" exchange ").size() == 2);
            assertEquals(java.util.List.of("ben", "ann"), shaper.server().journal("default").recent().stream().map(r -> r.client()).toList());
            assertTrue(shaper.logLines(" exchange ").get(0).contains(" client=ann "), shaper.stdout());
        }
    }
}
