package shaper.transcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Output bounds that could never hold a terminal frame are configuration errors; messages are bounded. */
class TranscodeLimitsTest {
    @Test
    void generatedFrameBoundBelowTheLargestTerminalIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TranscodeLimits(1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, TranscodeLimits.MIN_TERMINAL_FRAME_BYTES - 1));
        assertTrue(e.getMessage().contains("generatedFrameBytes"), e.getMessage());
        assertTrue(TranscodeLimits.defaults().generatedFrameBytes() >= TranscodeLimits.MIN_TERMINAL_FRAME_BYTES);
    }

    @Test
    void theLargestErrorFrameFitsTheMinimum() {
        String worst = "\u0000".repeat(10 * ErrorText.MAX_CHARS);
        String frame = "event: error\ndata: " + shaper.transcode.messages.MessagesErrors.event("overloaded_error", worst) + "\n\n";
        assertTrue(frame.length() <= TranscodeLimits.MIN_TERMINAL_FRAME_BYTES, frame.length() + " > " + TranscodeLimits.MIN_TERMINAL_FRAME_BYTES);
    }

    @Test
    void errorMessagesAreBoundedAndWhitespaceNormalised() {
        String s = ErrorText.bound("a \n\t b" + "x".repeat(5000));
        assertTrue(s.startsWith("a b"));
        assertEquals(ErrorText.MAX_CHARS + 1, s.length());
        assertTrue(s.endsWith("…"));
    }

    @Test
    void zeroOrNegativeBoundsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> TranscodeLimits.ofMebibytes(0, 1));
        assertThrows(ArithmeticException.class, () -> TranscodeLimits.ofMebibytes(Long.MAX_VALUE, 1));
    }
}
