package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * On a transcoded route the proxy writes the error answer itself and re-emits the upstream's
 * {@code Retry-After} and request id: those are checked before they are written, so a value the
 * proxy cannot vouch for is left out instead of being sent (or failing the proxy's own answer).
 * Before, a CR in either turned the upstream's 429 into a 400 logged as two exchanges.
 */
class TranscodedErrorFieldsTest {
    private static final String LIMITED = "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}";

    private static ScriptedUpstream limited(String retryAfter, String requestId) {
        return ScriptedUpstream.start((req, ex) -> {
            byte[] body = LIMITED.getBytes(StandardCharsets.UTF_8);
            ex.write(("HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: " + retryAfter
                    + "\r\nx-request-id: " + requestId + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            ex.write(body);
        });
    }

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static HttpResponse<String> messages(RunningShaper shaper) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/messages")).timeout(HostileUpstream.BOUND)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-x\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aRetryAfterOrRequestIdThatIsNotOneIsLeftOut() throws Exception {
        try (ScriptedUpstream up = limited("7 days, maybe <b>", "req_" + "x".repeat(300));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "0")) {
            HttpResponse<String> r = messages(shaper);
            assertEquals(429, r.statusCode(), r.body());
            assertTrue(r.headers().firstValue("retry-after").isEmpty(), r.headers().toString());
            assertFalse(r.headers().firstValue("request-id").orElse("").contains("xxxx"), "the proxy's own id, not the upstream's: " + r.headers());
            JsonNode e = JSON.readTree(r.body());
            assertFalse(r.body().contains("xxxx"), r.body());
            assertEquals("rate_limit_error", e.get("error").get("type").asText());
        }
    }

    @Test
    void validValuesAreReEmitted() throws Exception {
        try (ScriptedUpstream up = limited("Wed, 21 Oct 2037 07:28:00 GMT", "req_01-ab.c:d");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "0")) {
            HttpResponse<String> r = messages(shaper);
            assertEquals(429, r.statusCode(), r.body());
            assertEquals("Wed, 21 Oct 2037 07:28:00 GMT", r.headers().firstValue("retry-after").orElse(null));
            assertEquals("req_01-ab.c:d", r.headers().firstValue("request-id").orElse(null));
        }
    }

    @Test
    void aCrInEitherIsOneFailedExchangeNotTwo() throws Exception {
        try (ScriptedUpstream up = limited("7\rX-Injected: evil", "req_1\rX-Injected: evil");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat", "-retry", "0")) {
            HttpResponse<String> r = messages(shaper);
            assertEquals(502, r.statusCode(), r.body());
            assertFalse(r.headers().map().containsKey("x-injected"), r.headers().toString());
            List<String> exchanges = HostileUpstream.exchanges(shaper, 1);
            assertEquals(1, exchanges.size(), exchanges.toString());
            assertEquals(1, shaper.logLines("upstream error").size(), shaper.stdout());
        }
    }
}
