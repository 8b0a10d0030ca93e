package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;


/** The stdout stand-in of the dashboard: whole lines reach the ring, however the bytes are cut. */
class LineCaptureTest {

    @Test
    void linesSplitAcrossWritesAndSeveralInOneWriteArriveWhole() {
        LogRing ring = new LogRing();
        LineCapture capture = new LineCapture(ring);
        byte[] text = "first line\nsecond\nthird, in two pieces\n".getBytes(StandardCharsets.UTF_8);
        capture.write(text, 0, 14);
        capture.write(text, 14, 20);
        capture.write(text, 34, text.length - 34);
        assertEquals(List.of("first line", "second", "third, in two pieces"), ring.lines());
    }

    @Test
    void aPrintStreamLineIsOneEntryWithControlCharactersReplacedAndCrDropped() {
        LogRing ring = new LogRing();
        PrintStream out = LineCapture.printStream(ring);
        out.println("exchange status=200 \u001b[31mred\tx\r");
        out.print("no end yet");
        assertEquals(List.of("exchange status=200 \uFFFD[31mred x"), ring.lines(), "a partial line waits for its end");
        out.println(" and done");
        assertEquals("no end yet and done", ring.lines().getLast());
    }

    @Test
    void aRunawayLineIsCutAtTheLimitAndTheNextLineIsWhole() {
        LogRing ring = new LogRing();
        LineCapture capture = new LineCapture(ring);
        byte[] big = "x".repeat(40_000).getBytes(StandardCharsets.US_ASCII);
        capture.write(big, 0, 10_000);
        capture.write(big, 10_000, 30_000);
        capture.write("\nnext\n".getBytes(StandardCharsets.US_ASCII), 0, 6);
        List<String> lines = ring.lines();
        assertEquals(16 * 1024, lines.get(0).length());
        assertEquals("next", lines.get(1));
    }
}
