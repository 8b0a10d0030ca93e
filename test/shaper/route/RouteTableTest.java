package shaper.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class RouteTableTest {
    @Test
    void defaultsAreTheCommonEndpointsInOrderAllPost() {
        assertEquals(List.of("/chat/completions", "/completions", "/responses", "/api/embeddings", "/embeddings",
                "/images/generations", "/images/edits", "/images/variations", "/audio/speech", "/audio/transcriptions",
                "/audio/translations", "/moderations", "/runs", "/threads", "/submit_tool_outputs", "/messages/batches",
                "/batches", "/realtime/sessions", "/realtime/transcript_sessions", "/messages", "/api/generate",
                "/api/chat", "/generateContent", "/streamGenerateContent"),
                RouteTable.DEFAULTS.stream().map(p -> p.substring("POST ".length())).toList());
        assertTrue(RouteTable.DEFAULTS.stream().allMatch(p -> p.startsWith("POST /")));
    }

    @Test
    void defaultsApplyWhenNoLimitIsGiven() {
        for (RouteTable table : List.of(RouteTable.of(List.of()), RouteTable.of(null))) {
            assertEquals(RouteTable.DEFAULTS.size(), table.patterns().size());
            RouteMatch m = table.match("POST", "/v1/chat/completions").orElseThrow();
            assertEquals("POST /chat/completions", m.limiterKey());
            assertTrue(m.usesDefaultPool());
            assertEquals("POST /messages", table.match("POST", "/v1/messages").orElseThrow().limiterKey());
            assertEquals("POST /messages/batches", table.match("POST", "/v1/messages/batches").orElseThrow().limiterKey());
            assertEquals("POST /generateContent",
                    table.match("POST", "/v1beta/models/gemini-pro:generateContent").orElseThrow().limiterKey());
            assertFalse(table.match("GET", "/v1/models").isPresent());
            assertFalse(table.match("GET", "/v1/chat/completions").isPresent());
            assertTrue(table.warnings().isEmpty());
        }
    }

    @Test
    void anyExplicitLimitReplacesAllDefaults() {
        RouteTable table = RouteTable.of(List.of("POST /embeddings:4"));
        assertFalse(table.match("POST", "/v1/chat/completions").isPresent());
        assertEquals(4, table.match("POST", "/v1/embeddings").orElseThrow().limit());
        assertEquals(1, table.patterns().size());
    }

    @Test
    void firstMatchWinsInConfigurationOrder() {
        RouteTable table = RouteTable.of(List.of("POST /completions:1", "POST /chat/completions:2"));
        RouteMatch m = table.match("POST", "/v1/chat/completions").orElseThrow();
        assertEquals("POST /completions:1", m.pattern().raw());
        assertEquals(1, m.limit());
    }

    @Test
    void ungroupedPatternIsItsOwnLimiterKeyedByMethodAndPathWithoutTheLimit() {
        RouteTable table = RouteTable.of(List.of("POST /chat/completions:2", "POST /embeddings"));
        RouteMatch chat = table.match("POST", "/openai/deployments/x/chat/completions").orElseThrow();
        assertEquals("POST /chat/completions", chat.limiterKey());
        assertEquals(2, chat.limit());
        assertFalse(chat.usesDefaultPool());
        assertTrue(table.match("POST", "/v1/embeddings").orElseThrow().usesDefaultPool());
        assertEquals(List.of(new RouteClass("POST /chat/completions", 2), new RouteClass("POST /embeddings", 0)),
                table.limiterClasses());
    }

    @Test
    void groupedPatternsShareOneLimiter() {
        RouteTable table = RouteTable.of(List.of("POST /messages:3@messages", "POST /messages/batches:3@messages"));
        RouteMatch messages = table.match("POST", "/v1/messages").orElseThrow();
        RouteMatch batches = table.match("POST", "/v1/messages/batches").orElseThrow();
        assertEquals("messages", messages.limiterKey());
        assertEquals("messages", batches.limiterKey());
        assertEquals(3, batches.limit());
        assertEquals(List.of(new RouteClass("messages", 3)), table.limiterClasses());
        assertTrue(table.warnings().isEmpty());
    }

    @Test
    void conflictingGroupLimitWarnsAndTheFirstWins() {
        RouteTable table = RouteTable.of(List.of("POST /messages:3@messages", "POST /messages/batches:5@messages"));
        assertEquals(List.of("WARNING: route \"POST /messages/batches:5@messages\" specifies group \"messages\" "
                + "with limit 5, but group already has limit 3. Using 3."), table.warnings());
        assertEquals(3, table.match("POST", "/v1/messages/batches").orElseThrow().limit());
        assertEquals(List.of(new RouteClass("messages", 3)), table.limiterClasses());
    }

    @Test
    void groupMemberWithoutLimitJoinsTheGroupLimiter() {
        RouteTable table = RouteTable.of(List.of("POST /messages@anthropic", "POST /complete:2@anthropic"));
        assertEquals(2, table.match("POST", "/v1/messages").orElseThrow().limit());
        assertEquals(List.of(new RouteClass("anthropic", 2)), table.limiterClasses());
        assertTrue(table.warnings().isEmpty());
    }

    @Test
    void groupWithoutAnyLimitUsesTheDefaultPool() {
        RouteTable table = RouteTable.of(List.of("POST /a@g", "POST /b:0@g"));
        assertTrue(table.match("POST", "/b").orElseThrow().usesDefaultPool());
        assertEquals(List.of(new RouteClass("g", 0)), table.limiterClasses());
    }

    @Test
    void unlimitedRouteIsExemptAndHasNoLimiterClass() {
        RouteTable table = RouteTable.of(List.of("POST /messages/count_tokens:unlimited", "POST /messages:2"));
        RouteMatch m = table.match("POST", "/v1/messages/count_tokens").orElseThrow();
        assertTrue(m.unlimited());
        assertFalse(m.usesDefaultPool());
        assertEquals(0, m.limit());
        assertEquals(List.of(new RouteClass("POST /messages", 2)), table.limiterClasses());
    }

    @Test
    void nonMatchingRequestHasNoRoute() {
        RouteTable table = RouteTable.of(List.of("POST /chat/completions:2"));
        assertFalse(table.match("POST", "/v1/chat/completions/123").isPresent());
        assertFalse(table.match("POST", "/").isPresent());
    }

    @Test
    void traversalIsResolvedBeforeMatching() {
        RouteTable table = RouteTable.of(List.of("POST /chat/completions:2"));
        assertTrue(table.match("POST", "/v1/x/../chat/completions").isPresent());
        assertTrue(table.match("POST", "/v1/x/%2e%2E/chat/completions").isPresent());
        assertFalse(table.match("POST", "/v1/chat/completions/..").isPresent());
    }

    @Test
    void matchingIgnoresCase() {
        RouteTable table = RouteTable.of(List.of("post /Chat/Completions:2"));
        assertTrue(table.match("POST", "/V1/CHAT/COMPLETIONS").isPresent());
        assertTrue(table.match("post", "/v1/chat/completions").isPresent());
    }

    @Test
    void rootPatternMatchesOnlyTheRoot() {
        RouteTable table = RouteTable.of(List.of("GET /:1"));
        assertEquals(1, table.match("GET", "/").orElseThrow().limit());
        assertTrue(table.match("GET", "").isPresent());
        assertFalse(table.match("GET", "/v1").isPresent());
    }

    @Test
    void limitWrittenAfterTheGroupIsFlagged() {
        RouteTable table = RouteTable.of(List.of("POST /v1/messages@messages:3"));
        assertEquals(List.of("WARNING: route \"POST /v1/messages@messages:3\" has group \"messages:3\"; "
                + "a limit after the group is part of its name. Write :N before @group."), table.warnings());
        assertTrue(table.match("POST", "/v1/messages").orElseThrow().usesDefaultPool());
    }

    @Test
    void invalidPatternFailsTheWholeTable() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RouteTable.of(List.of("POST /ok:1", "POST nope")));
        assertEquals("route: path must start with / in \"POST nope\"", e.getMessage());
    }
}
