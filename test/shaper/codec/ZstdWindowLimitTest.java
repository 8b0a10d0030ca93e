package shaper.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static shaper.codec.CodedTranscodeTest.CHAT_ANSWER;
import static shaper.codec.CodedTranscodeTest.MESSAGES;
import static shaper.codec.CodedTranscodeTest.post;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;

import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * RFC 9659 caps the window of {@code Content-Encoding: zstd} at 8 MiB: a frame whose header asks for
 * more is refused as corrupt, over real sockets, on a route that decodes the body. The frames differ
 * only in their Window_Descriptor byte (RFC 8878 §3.1.1.1.2: window = 2^(10+Exponent) plus Mantissa
 * eighths of that), so the data itself decodes with any window and only the header's request decides.
 */
class ZstdWindowLimitTest {
    private static final byte[] PLAIN = MESSAGES.getBytes(StandardCharsets.UTF_8);

    /** A streamed frame (no pledged size, so not single-segment: its header carries a Window_Descriptor), rewritten to ask for the given window. */
    private static byte[] frameAskingFor(int exponent, int mantissa) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZstdOutputStream z = new ZstdOutputStream(out)) {
            z.write(PLAIN);
        }
        byte[] frame = out.toByteArray();
        assertEquals(0xFD2FB528, (frame[0] & 0xFF) | (frame[1] & 0xFF) << 8 | (frame[2] & 0xFF) << 16 | (frame[3] & 0xFF) << 24, "zstd magic");
        assertEquals(0, frame[4] & 0x20, "Single_Segment_flag clear: a Window_Descriptor follows the Frame_Header_Descriptor");
        frame[5] = (byte) (exponent << 3 | mantissa);
        return frame;
    }

    private static byte[] decodedWithoutTheCap(byte[] frame) throws Exception {
        try (ZstdInputStream z = new ZstdInputStream(new ByteArrayInputStream(frame))) {
            return z.readAllBytes();
        }
    }

    @Test
    void aFrameAskingForMoreThan8MiBIsRefusedAsCorruptAnd8MiBIsAccepted() throws Exception {
        byte[] exactly8MiB = frameAskingFor(13, 0);   // 2^23
        byte[] nineMiB = frameAskingFor(13, 1);       // 2^23 + 2^23/8
        byte[] sixteenMiB = frameAskingFor(14, 0);    // 2^24
        byte[] oneGiB = frameAskingFor(20, 0);        // 2^30
        assertArrayEquals(PLAIN, decodedWithoutTheCap(sixteenMiB), "the data is sound: only the window asked for is too large");
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, CHAT_ANSWER, "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-transcode-messages-chat")) {
            for (byte[] refused : new byte[][] {nineMiB, sixteenMiB, oneGiB}) {
                HttpResponse<String> r = post(shaper, "/v1/messages", refused, "zstd");
                assertEquals(400, r.statusCode(), r.body());
                assertEquals("invalid_request_error", new ObjectMapper().readTree(r.body()).path("error").path("type").asText(), r.body());
            }
            assertEquals(0, up.requests().size(), "no refused frame reached the upstream");
            HttpResponse<String> ok = post(shaper, "/v1/messages", exactly8MiB, "zstd");
            assertEquals(200, ok.statusCode(), "a window of exactly 8 MiB is within the limit: " + ok.body());
            assertTrue(up.onlyRequest().bodyText().contains("compressed hi"));
        }
    }
}
