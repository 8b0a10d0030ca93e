package shaper.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

class PathSegmentsTest {
    @Test
    void splitsOnSlashesDroppingEmptyAndDotSegments() {
        assertEquals(List.of("v1", "chat", "completions"), PathSegments.of("//v1/./chat//completions/"));
    }

    @Test
    void rootAndEmptyPathHaveNoSegments() {
        assertEquals(List.of(), PathSegments.of("/"));
        assertEquals(List.of(), PathSegments.of(""));
        assertEquals(List.of(), PathSegments.of("/./"));
    }

    @Test
    void dotDotPopsBeforeColonSplittingAndNeverClimbsAboveRoot() {
        assertEquals(List.of("v1", "chat", "completions"), PathSegments.of("/v1/x/../chat/completions"));
        assertEquals(List.of("chat"), PathSegments.of("/../../chat"));
        assertEquals(List.of("v1", "chat"), PathSegments.of("/v1/chat/completions/.."));
        // Traversal works on whole segments: "x:.." is a segment named "x:..", not a pop.
        assertEquals(List.of("a", "x", ".."), PathSegments.of("/a/x:.."));
    }

    @Test
    void colonsSplitSegmentsAndEmptyPiecesAreDropped() {
        assertEquals(List.of("v1beta", "models", "gemini-pro", "generateContent"),
                PathSegments.of("/v1beta/models/gemini-pro:generateContent"));
        assertEquals(List.of("a", "b"), PathSegments.of("/:a::b:"));
    }

    @Test
    void unreservedEscapesAreDecodedButReservedOnesStayData() {
        assertEquals(List.of("v1", "chat", "completions"), PathSegments.of("/v1/%63hat/completions"));
        assertEquals(List.of("chat"), PathSegments.of("/v1/%2E%2e/chat"));
        assertEquals(List.of("v1", "chat%2Fcompletions"), PathSegments.of("/v1/chat%2Fcompletions"));
        assertEquals(List.of("models", "gemini%3AgenerateContent"), PathSegments.of("/models/gemini%3AgenerateContent"));
        assertEquals(List.of("bad%zz", "tail%4"), PathSegments.of("/bad%zz/tail%4"));
    }
}
