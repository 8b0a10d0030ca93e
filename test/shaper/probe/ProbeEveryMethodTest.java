package shaper.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

/** Every method below a fixture prefix gets the fixture's answer, the bare prefix included (GET /ok). */
class ProbeEveryMethodTest {

    @Test
    void okAnswersEveryMethodOnItsPrefixAndBelow() {
        try (RunningProbe probe = RunningProbe.start()) {
            for (String method : new String[] {"GET", "PUT", "DELETE", "PATCH", "OPTIONS"}) {
                for (String path : new String[] {"/ok", "/ok/", "/ok/anything"}) {
                    HttpRequest.BodyPublisher body = method.equals("GET") || method.equals("DELETE") || method.equals("OPTIONS")
                            ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("{}");
                    HttpResponse<String> r = probe.send(HttpRequest.newBuilder(probe.uri(path)).method(method, body).build());
                    assertEquals(200, r.statusCode(), method + " " + path + ": " + r.body());
                    assertTrue(r.body().contains("\"type\":\"message\""), method + " " + path + ": " + r.body());
                }
            }
        }
    }
}
