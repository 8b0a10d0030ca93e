package shaper.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import shaper.limit.QueueClass;

/** Header first, then the first matching rule, then the default; unknown header classes counted, never an error. */
class PriorityClassifierTest {
    private static final PriorityClassifier CLASSIFIER = new PriorityClassifier(PriorityConfig.parse(
            List.of("interactive=4", "background=1", "batch=2"), null,
            List.of("header:User-Agent~*ci-runner*=batch", "model~*haiku*=background", "path~/v1/batches/*=batch"), null));

    private record Facts(String path, Map<String, String> headers, String model) implements RequestFacts {
        @Override
        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue)
                    .findFirst().orElse(null);
        }
    }

    private static String classOf(String path, Map<String, String> headers, String model) {
        return CLASSIFIER.classify(new Facts(path, headers, model)).name();
    }

    @Test
    void theHeaderNamesTheClassCaseInsensitively() {
        assertEquals("background", classOf("/v1/messages", Map.of("x-shaper-priority", " Background "), "claude-opus-4"));
        assertEquals("interactive", classOf("/v1/messages", Map.of("X-Shaper-Priority", "interactive"), "claude-3-5-haiku"));
    }

    @Test
    void rulesApplyInOrderThenTheDefault() {
        assertEquals("background", classOf("/v1/messages", Map.of(), "claude-3-5-HAIKU-latest"));
        assertEquals("batch", classOf("/v1/messages", Map.of("User-Agent", "gh-ci-runner/2"), "claude-3-5-haiku"),
                "the first matching rule wins");
        assertEquals("batch", classOf("/v1/batches/b1", Map.of(), null));
        assertEquals("interactive", classOf("/V1/batches/b1", Map.of(), null), "paths compare case-sensitively");
        assertEquals("interactive", classOf("/v1/messages", Map.of(), "claude-opus-4"));
    }

    @Test
    void anUnknownHeaderClassFallsThroughAndIsCounted() {
        PriorityClassifier c = new PriorityClassifier(PriorityConfig.parse(List.of("a=2", "b=1"), null, List.of("model~m*=b"), "a"));
        assertEquals("a", c.classify(new Facts("/x", Map.of("X-Shaper-Priority", "urgent"), null)).name());
        assertEquals("b", c.classify(new Facts("/x", Map.of("X-Shaper-Priority", "urgent"), "m1")).name());
        assertEquals(2, c.unknownHeaderClasses());
        c.classify(new Facts("/x", Map.of("X-Shaper-Priority", ""), null));
        assertEquals(2, c.unknownHeaderClasses(), "an empty header names nothing");
    }

    @Test
    void withoutClassesEverythingIsTheDefaultFifo() {
        assertEquals(QueueClass.DEFAULT, PriorityClassifier.NONE.classify(new Facts("/x", Map.of("X-Shaper-Priority", "a"), "m")));
        assertFalse(PriorityClassifier.NONE.needsModel());
        assertTrue(CLASSIFIER.needsModel());
    }

    @Test
    void globsMatchWholeValues() {
        Glob g = new Glob("*haiku*", true);
        assertTrue(g.matches("claude-3-5-haiku-20241022"));
        assertTrue(g.matches("haiku"));
        assertFalse(g.matches("claude-sonnet"));
        assertFalse(g.matches(null));
        assertTrue(new Glob("gpt-?o", false).matches("gpt-4o"));
        assertFalse(new Glob("gpt-?o", false).matches("gpt-4o-mini"));
        assertTrue(new Glob("a*b*c", false).matches("aXXbYYbZc"));
        assertFalse(new Glob("a*b*c", false).matches("aXXbYYbZ"));
    }

    @Test
    void theModelIsPeekedFromTheTopLevelOfAPossiblyTruncatedBody() {
        byte[] body = "{\"metadata\":{\"model\":\"inner\"},\"stream\":true,\"model\":\"claude-3-5-haiku\",\"messages\":[".getBytes(StandardCharsets.UTF_8);
        assertEquals("claude-3-5-haiku", ModelPeek.model(body, body.length));
        assertNull(ModelPeek.model(body, 20), "cut before the model");
        assertNull(ModelPeek.model("[1,2]".getBytes(StandardCharsets.UTF_8), 5));
        assertNull(ModelPeek.model("not json".getBytes(StandardCharsets.UTF_8), 8));
        assertNull(ModelPeek.model("{\"model\":7}".getBytes(StandardCharsets.UTF_8), 11));
    }
}
