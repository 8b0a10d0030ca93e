package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeRecord;
import shaper.observe.Outcome;
import shaper.observe.Provenance;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A client that leaves in the middle of a transcoded stream: the upstream call is closed (so the
 * upstream stops generating), the slot comes back, and the exchange is one aborted record from the
 * client's side, exactly as on a passthrough route.
 */
class TranscodedClientLeavesTest {
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final int MAX_CHUNKS = 500;

    @Test
    void aClientLeavingMidStreamClosesTheUpstreamCallAndFreesTheSlot() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                 if (!req.bodyText().contains("\"stream\":true")) {
                     ex.respond(200, TranscodeProxyTest.COMPLETION, "Content-Type: application/json");
                     return;
                 }
                 ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                 // a long generation: it stops only when the proxy closes the connection
                 for (int i = 0; i < MAX_CHUNKS; i++) {
                     ex.chunk(ChatStreamTest.chunk("{\"content\":\"w" + i + " \"}", "null"));
                     Thread.sleep(20); // the model's pace
                 }
                 ex.chunk(ChatStreamTest.chunk("{}", "\"stop\"") + ChatStreamTest.DONE);
                 ex.endChunks();
             });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat",
                     "-limit", "POST /v1/messages:1", "-cancel-cooldown", "0", "-release-cooldown", "0")) {
            try (RawHttp raw = new RawHttp(shaper.port())) {
                String body = ChatStreamTest.REQ;
                raw.send("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.length() + "\r\n\r\n" + body);
                assertEquals(200, raw.readHead().status());
                StringBuilder seen = new StringBuilder();
                while (!seen.toString().contains("\"text\":\"w1 \"")) {
                    String chunk = raw.readChunk();
                    assertTrue(chunk != null, "the stream ended before its second delta: " + seen);
                    seen.append(chunk);
                }
            } // the client leaves here, mid-generation
            RunningShaper.await("the upstream connection closed by the proxy", BOUND, () -> up.failedWrites() == 1);
            RunningShaper.await("the slot back", BOUND,
                    () -> shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::inUse).sum() == 0);
            RunningShaper.await("the exchange recorded", BOUND, () -> !shaper.server().journal("default").recent().isEmpty());
            ExchangeRecord r = shaper.server().journal("default").recent().getFirst();
            assertEquals(Outcome.ABORTED, r.outcome(), r.toString());
            assertEquals(Provenance.CLIENT_ABORT, r.provenance(), r.toString());
            assertEquals(200, r.status());
            // the freed slot serves the next request
            HttpResponse<String> next = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + shaper.port() + "/v1/messages"))
                    .timeout(BOUND).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(ChatStreamTest.REQ.replace("\"stream\":true", "\"stream\":false"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, next.statusCode(), next.body());
        }
    }
}
