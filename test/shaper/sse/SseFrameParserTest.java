package shaper.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.Test;

class SseFrameParserTest {
    private static final String MESSAGES_STREAM = """
            event: message_start
            data: {"type":"message_start","message":{"id":"msg_01","model":"claude-sonnet-4-5"}}

            : keepalive

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo ✓ 🚀"}}

            id: 7
            data: line one
            data: line two

            """;

    private static List<SseFrame> parseWhole(String text) {
        return new SseFrameParser().feed(text.getBytes(StandardCharsets.UTF_8));
    }

    private static List<SseFrame> parseInChunks(byte[] bytes, int[] cuts) {
        SseFrameParser p = new SseFrameParser();
        List<SseFrame> frames = new ArrayList<>();
        int from = 0;
        for (int cut : cuts) {
            frames.addAll(p.feed(bytes, from, cut - from));
            from = cut;
        }
        frames.addAll(p.feed(bytes, from, bytes.length - from));
        return frames;
    }

    @Test
    void parsesEventDataIdAndComments() {
        List<SseFrame> frames = parseWhole(MESSAGES_STREAM);
        assertEquals(4, frames.size());
        assertEquals("message_start", frames.get(0).event());
        assertTrue(frames.get(0).data().startsWith("{\"type\":\"message_start\""));
        assertEquals(List.of(" keepalive"), frames.get(1).comments());
        assertTrue(frames.get(1).isCommentOnly());
        assertTrue(frames.get(2).data().contains("héllo ✓ 🚀"));
        assertEquals(new SseFrame(null, "line one\nline two", "7", List.of()), frames.get(3));
    }

    @Test
    void crlfAndBareCrLineEndingsGiveTheSameFrames() {
        List<SseFrame> lf = parseWhole(MESSAGES_STREAM);
        assertEquals(lf, parseWhole(MESSAGES_STREAM.replace("\n", "\r\n")));
        assertEquals(lf, parseWhole(MESSAGES_STREAM.replace("\n", "\r")));
    }

    @Test
    void everySplitPointGivesTheSameFrames() {
        for (String text : new String[] {MESSAGES_STREAM, MESSAGES_STREAM.replace("\n", "\r\n"), MESSAGES_STREAM.replace("\n", "\r")}) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            List<SseFrame> expected = parseWhole(text);
            for (int cut = 0; cut <= bytes.length; cut++) {
                assertEquals(expected, parseInChunks(bytes, new int[] {cut}), "cut at " + cut);
            }
        }
    }

    @Test
    void oneByteAtATimeAndRandomChunksGiveTheSameFrames() {
        byte[] bytes = MESSAGES_STREAM.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8);
        List<SseFrame> expected = parseWhole(MESSAGES_STREAM);
        SseFrameParser p = new SseFrameParser();
        List<SseFrame> frames = new ArrayList<>();
        for (byte b : bytes) {
            frames.addAll(p.feed(new byte[] {b}));
        }
        assertEquals(expected, frames);
        Random random = new Random(11);
        for (int round = 0; round < 50; round++) {
            int[] cuts = random.ints(4, 0, bytes.length + 1).sorted().toArray();
            assertEquals(expected, parseInChunks(bytes, cuts), "round " + round);
        }
    }

    @Test
    void crlfSplitBetweenChunksIsOneLineEnding() {
        SseFrameParser p = new SseFrameParser();
        assertEquals(List.of(), p.feed("data: a\r".getBytes(StandardCharsets.UTF_8)));
        List<SseFrame> frames = p.feed("\ndata: b\r\n\r\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of(new SseFrame(null, "a\nb", null, List.of())), frames);
    }

    @Test
    void fieldValueRulesFollowTheStandard() {
        List<SseFrame> frames = parseWhole("data\n\ndata:no-space\n\ndata:  two spaces\n\nevent:\ndata: x\n\n");
        assertEquals("", frames.get(0).data());
        assertEquals("no-space", frames.get(1).data());
        assertEquals(" two spaces", frames.get(2).data());
        assertEquals("", frames.get(3).event());
    }

    @Test
    void idWithNulIsIgnoredAndUnknownFieldsAreDropped() {
        List<SseFrame> frames = parseWhole("id: a\0b\nretry: 3000\nfoo: bar\ndata: x\n\n");
        assertEquals(new SseFrame(null, "x", null, List.of()), frames.get(0));
    }

    @Test
    void leadingByteOrderMarkIsDropped() {
        List<SseFrame> frames = parseWhole("\uFEFFevent: ping\ndata: {}\n\n");
        assertEquals("ping", frames.get(0).event());
    }

    @Test
    void extraBlankLinesDispatchNothing() {
        assertEquals(1, parseWhole("\n\n\ndata: x\n\n\n\n").size());
    }

    @Test
    void completedBytesTrackTheLastFrameBoundary() {
        SseFrameParser p = new SseFrameParser();
        p.feed("data: one\n\ndata: tw".getBytes(StandardCharsets.UTF_8));
        assertEquals("data: one\n\n".length(), p.completedBytes());
        assertEquals("data: one\n\ndata: tw".length(), p.consumedBytes());
    }

    @Test
    void finishDispatchesAFrameCutShortByTheClose() {
        SseFrameParser p = new SseFrameParser();
        assertEquals(List.of(), p.feed("event: error\ndata: {\"type\":\"error\"}".getBytes(StandardCharsets.UTF_8)));
        Optional<SseFrame> last = p.finish();
        assertEquals("error", last.orElseThrow().event());
        assertEquals("{\"type\":\"error\"}", last.get().data());
        assertEquals(Optional.empty(), new SseFrameParser().finish());
    }

    @Test
    void frameWithoutDataHasNullData() {
        SseFrame f = parseWhole("event: ping\n\n").get(0);
        assertEquals("ping", f.event());
        assertNull(f.data());
    }
}
