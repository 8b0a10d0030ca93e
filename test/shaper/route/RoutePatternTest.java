package shaper.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class RoutePatternTest {
    @Test
    void groupIsSplitBeforeTheLimit() {
        RoutePattern p = RoutePattern.parse("POST /messages:3@messages");
        assertEquals(new RoutePattern("POST", List.of("messages"), "POST /messages:3@messages", 3, false, "messages"), p);
        assertEquals("messages", p.limiterKey());
    }

    @Test
    void limitWrittenAfterTheGroupBecomesPartOfTheGroupName() {
        RoutePattern p = RoutePattern.parse("POST /v1/messages@messages:3");
        assertEquals("messages:3", p.group());
        assertEquals(0, p.limit());
        assertEquals(List.of("v1", "messages"), p.segments());
    }

    @Test
    void atFollowedBySlashStaysInThePath() {
        RoutePattern p = RoutePattern.parse("POST /users/a@b/items:2");
        assertNull(p.group());
        assertEquals(2, p.limit());
        assertEquals(List.of("users", "a@b", "items"), p.segments());
        assertEquals("POST /users/a@b/items", p.limiterKey(), "the limiter key leaves the limit out");
    }

    @Test
    void theNamesOfTheProvidersOwnLimitersAreNotGroupNames() {
        for (String group : List.of("default", "global", "large-request gate")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RoutePattern.parse("POST /x:1@" + group));
            assertTrue(e.getMessage().contains("reserved"), e.getMessage());
        }
        assertEquals("defaults", RoutePattern.parse("POST /x:1@defaults").group());
    }

    @Test
    void methodIsUpperCased() {
        assertEquals("POST", RoutePattern.parse("post /chat/completions").method());
        assertEquals("PATCH", RoutePattern.parse("Patch\t/x").method());
    }

    @Test
    void missingOrZeroLimitMeansDefaultPool() {
        assertEquals(0, RoutePattern.parse("POST /chat/completions").limit());
        RoutePattern zero = RoutePattern.parse("POST /chat/completions:0");
        assertEquals(0, zero.limit());
        assertEquals(List.of("chat", "completions"), zero.segments());
    }

    @Test
    void unlimitedSuffixExemptsTheRoute() {
        RoutePattern p = RoutePattern.parse("POST /messages/count_tokens:unlimited");
        assertTrue(p.unlimited());
        assertEquals(0, p.limit());
        assertEquals(List.of("messages", "count_tokens"), p.segments());
        assertTrue(RoutePattern.parse("POST /x:UNLIMITED").unlimited());
    }

    @Test
    void geminiMethodColonStaysInThePath() {
        RoutePattern plain = RoutePattern.parse("POST /v1beta/models/gemini-pro:generateContent");
        assertEquals(0, plain.limit());
        assertEquals(List.of("v1beta", "models", "gemini-pro", "generateContent"), plain.segments());

        RoutePattern limited = RoutePattern.parse("POST /models/gemini-pro:streamGenerateContent:2@gemini");
        assertEquals(2, limited.limit());
        assertEquals("gemini", limited.group());
        assertEquals(List.of("models", "gemini-pro", "streamGenerateContent"), limited.segments());
    }

    @Test
    void signedNumbersAreNotLimits() {
        RoutePattern p = RoutePattern.parse("POST /x:-1");
        assertEquals(0, p.limit());
        assertEquals(List.of("x", "-1"), p.segments());
        assertEquals(List.of("x", "+3"), RoutePattern.parse("POST /x:+3").segments());
    }

    @Test
    void errorsCarryTheExactMessages() {
        assertError("route: invalid pattern \"POST\"", "POST");
        assertError("route: invalid pattern \"/chat/completions\"", "/chat/completions");
        assertError("route: path must start with / in \"POST chat/completions\"", "POST chat/completions");
        assertError("route: path must start with / in \"POST \"", "POST ");
        assertError("route: empty method in \" /chat/completions\"", " /chat/completions");
        assertError("route: pattern \"POST /x:unlimited@g\" declares :unlimited with a group \"g\"; "
                + "the unlimited class has no limiter to share", "POST /x:unlimited@g");
        assertError("route: invalid pattern \"POST /x@\"", "POST /x@");
        assertError("route: invalid pattern \"POST /x:99999999999\"", "POST /x:99999999999");
        // Quoted like Go's %q, so a quote or tab in the input cannot make the message ambiguous.
        assertError("route: path must start with / in \"GET\\t\\\"x\\\"\"", "GET\t\"x\"");
    }

    @Test
    void matchesTrailingSegmentsOnly() {
        RoutePattern p = RoutePattern.parse("POST /chat/completions");
        assertTrue(p.matches("POST", PathSegments.of("/v1/chat/completions")));
        assertTrue(p.matches("POST", PathSegments.of("/openai/deployments/x/chat/completions")));
        assertTrue(p.matches("POST", PathSegments.of("/chat/completions")));
        assertFalse(p.matches("POST", PathSegments.of("/v1/chat/completions/123")));
        assertFalse(p.matches("POST", PathSegments.of("/completions")));
        assertFalse(p.matches("POST", PathSegments.of("/v1/mychat/completions")));
    }

    @Test
    void methodAndSegmentsCompareIgnoringCase() {
        RoutePattern p = RoutePattern.parse("post /Chat/Completions");
        assertTrue(p.matches("POST", PathSegments.of("/V1/CHAT/completions")));
        assertTrue(p.matches("post", PathSegments.of("/v1/chat/completions")));
        assertFalse(p.matches("GET", PathSegments.of("/v1/chat/completions")));
    }

    @Test
    void colonSuffixPatternMatchesGeminiPaths() {
        RoutePattern p = RoutePattern.parse("POST /generateContent");
        assertTrue(p.matches("POST", PathSegments.of("/v1beta/models/gemini-2.0-flash:generateContent")));
        assertFalse(p.matches("POST", PathSegments.of("/v1beta/models/gemini-2.0-flash:streamGenerateContent")));
    }

    @Test
    void rootPatternMatchesOnlyTheRoot() {
        RoutePattern root = RoutePattern.parse("GET /");
        assertEquals(List.of(), root.segments());
        assertTrue(root.matches("GET", PathSegments.of("/")));
        assertTrue(root.matches("GET", PathSegments.of("/v1/..")));
        assertFalse(root.matches("GET", PathSegments.of("/v1")));
    }

    @Test
    void patternPathIsCanonicalisedLikeRequestPaths() {
        assertEquals(List.of("chat", "completions"), RoutePattern.parse("POST //v1/../chat/./completions/").segments());
    }

    private static void assertError(String message, String pattern) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RoutePattern.parse(pattern), pattern);
        assertEquals(message, e.getMessage());
    }
}
