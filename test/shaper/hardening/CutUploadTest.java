package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import shaper.testing.HoldingUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;

/**
 * A client that breaks off while its body streams upstream: the proxy closes the upstream request
 * at once, and only then frees the slot, so the upstream never sees more open requests than the
 * limit. Checked at the upstream socket.
 */
class CutUploadTest {
    private static final Duration CLOSE_BOUND = Duration.ofSeconds(5);

    @Test
    void cutStreamedUploadClosesTheUpstreamRequestBeforeTheSlotIsFreed() throws Exception {
        try (HoldingUpstream up = HoldingUpstream.start();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1",
                     "-retry-max-body-mb", "1", "-cancel-cooldown", "20ms", "-release-cooldown", "0s")) {
            cutUpload(shaper, up, HoldingUpstream.postHead("/v1/messages", 20L * 1024 * 1024), false);
            // the next request is forwarded only once the cut one is closed upstream
            cutUpload(shaper, up, HoldingUpstream.postHead("/v1/messages", 20L * 1024 * 1024), false);
            assertEquals(1, up.peakOpen(), "open requests at the upstream");
            RunningShaper.await("both cut exchanges logged aborted", Duration.ofSeconds(5),
                    () -> shaper.logLines("outcome=aborted").size() >= 2);
        }
    }

    @Test
    void cutChunkedUploadWithoutRetriesClosesTheUpstreamRequest() throws Exception {
        try (HoldingUpstream up = HoldingUpstream.start();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", "1", "-retry", "0",
                     "-cancel-cooldown", "20ms", "-release-cooldown", "0s")) {
            String head = "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n";
            cutUpload(shaper, up, head, true);
            cutUpload(shaper, up, head, true);
            assertEquals(1, up.peakOpen(), "open requests at the upstream");
        }
    }

    /** Sends a head and part of a large body, waits until the upstream holds it, then closes. */
    private static void cutUpload(RunningShaper shaper, HoldingUpstream up, String head, boolean chunked) throws Exception {
        int before = up.closedByProxy();
        int heads = up.heads();
        RawHttp raw = new RawHttp(shaper.port());
        raw.send(head);
        OutputStream out = raw.socket().getOutputStream();
        byte[] piece = new byte[64 * 1024];
        java.util.Arrays.fill(piece, (byte) 'a');
        // more than any buffering bound (8 MiB queue buffer, 1 MiB replay buffer), then stop midway
        for (int i = 0; i < 160; i++) {
            if (chunked) {
                out.write((Integer.toHexString(piece.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.write(piece);
            if (chunked) {
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
        }
        out.flush();
        RunningShaper.await("the upstream holding the request", Duration.ofSeconds(10), () -> up.heads() > heads);
        raw.close();
        long cut = System.nanoTime();
        RunningShaper.await("the upstream request closed by the proxy", CLOSE_BOUND, () -> up.closedByProxy() > before);
        assertTrue(System.nanoTime() - cut < CLOSE_BOUND.toNanos());
    }
}
