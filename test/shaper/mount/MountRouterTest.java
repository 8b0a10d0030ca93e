package shaper.mount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import shaper.config.ConfigException;

/** Prefix parsing, whole-segment matching, dot-segment resolution and the forwarded path. */
class MountRouterTest {
    private static final MountRouter<String> TWO = MountRouter.<String>builder()
            .mount(MountPrefix.parse("/anthropic"), "anthropic")
            .mount(MountPrefix.parse("/openai/v1"), "openai")
            .build();

    private static String route(MountRouter<String> router, String rawPath) {
        Optional<Mounted<String>> m = router.route(rawPath);
        return m.map(x -> x.target() + " " + x.forwardedPath()).orElse("404");
    }

    @Test
    void prefixIsATrueMount() {
        assertEquals("anthropic /v1/messages", route(TWO, "/anthropic/v1/messages"));
        assertEquals("anthropic /", route(TWO, "/anthropic"));
        assertEquals("anthropic /", route(TWO, "/anthropic/"));
        assertEquals("anthropic /v1/", route(TWO, "/anthropic/v1/"));
        assertEquals("openai /chat/completions", route(TWO, "/openai/v1/chat/completions"));
    }

    @Test
    void matchingIsByWholeSegments() {
        assertEquals("404", route(TWO, "/anthropic2"));
        assertEquals("404", route(TWO, "/anthropic2/v1/messages"));
        assertEquals("404", route(TWO, "/anthropi"));
        assertEquals("404", route(TWO, "/openai/v12/x"));
        assertEquals("404", route(TWO, "/openai"));
        assertEquals("404", route(TWO, "/Anthropic/v1"));
        assertEquals("404", route(TWO, "/"));
        assertEquals("404", route(TWO, "*"));
    }

    @Test
    void dotSegmentsAreResolvedBeforeMatching() {
        assertEquals("anthropic /v1", route(TWO, "/x/../anthropic/v1"));
        assertEquals("anthropic /v1", route(TWO, "/openai/v1/../../anthropic/v1"));
        assertEquals("anthropic /v1", route(TWO, "/openai/%2e%2E/anthropic/./v1"));
        assertEquals("404", route(TWO, "/anthropic/../../openai2"));
        assertEquals("anthropic /", route(TWO, "/anthropic/v1/.."));
        assertEquals("404", route(TWO, "/anthropic/.."), "climbing out of the mount leaves it");
    }

    @Test
    void forwardedPathKeepsEveryOtherByteAsSent() {
        assertEquals("anthropic /a%2Fb/%7Ex//y%20z", route(TWO, "/anthropic/a%2Fb/%7Ex//y%20z"));
        assertEquals("anthropic /v1:batch", route(TWO, "/anthropic/v1:batch"));
    }

    @Test
    void unreservedEscapesInThePrefixSegmentStillMatch() {
        assertEquals("anthropic /v1", route(TWO, "/%61nthropic/v1"));
        assertEquals("404", route(TWO, "/anthropic%2Fv1"), "an escaped slash is data, not a separator");
    }

    @Test
    void bareRootServesEveryPathAfterCanonicalisation() {
        MountRouter<String> root = MountRouter.<String>builder().mount(MountPrefix.ROOT, "default").build();
        assertEquals("default /v1/messages", route(root, "/v1/messages"));
        assertEquals("default /v1/messages", route(root, "/x/../v1/./messages"));
        assertEquals("default /", route(root, ""));
        assertEquals("default *", route(root, "*"));
        assertEquals("default /a%2F..%2Fb", route(root, "/a%2F..%2Fb"), "an escaped slash does not make a dot segment");
    }

    @Test
    void prefixSpellingsNormalise() {
        assertTrue(MountPrefix.parse("/").isRoot());
        assertTrue(MountPrefix.parse("").isRoot());
        assertEquals("/anthropic", MountPrefix.parse("/anthropic/").path());
        assertEquals("/a/b", MountPrefix.parse("/a/b").path());
    }

    @Test
    void badPrefixesAreRefusedWithTheOriginalText() {
        assertEquals("-prefix must start with /, got \"anthropic\"",
                assertThrows(ConfigException.class, () -> MountPrefix.parse("anthropic")).getMessage());
        for (String bad : new String[] {"//a", "/a//b", "/a/../b", "/./a", "/a%2Fb", "/a?b", "/a#b", "/a b"}) {
            assertThrows(ConfigException.class, () -> MountPrefix.parse(bad), bad);
        }
    }

    @Test
    void overlapIsSegmentWise() {
        assertTrue(MountPrefix.parse("/anthropic").overlaps(MountPrefix.parse("/anthropic/v1")));
        assertTrue(MountPrefix.parse("/a").overlaps(MountPrefix.parse("/a")));
        assertTrue(MountPrefix.ROOT.overlaps(MountPrefix.parse("/openai")));
        assertFalse(MountPrefix.parse("/anthropic").overlaps(MountPrefix.parse("/anthropic2")));
        assertFalse(MountPrefix.parse("/a/b").overlaps(MountPrefix.parse("/a/c")));
        assertThrows(ConfigException.class, () -> MountRouter.<String>builder()
                .mount(MountPrefix.parse("/a"), "x").mount(MountPrefix.parse("/a/b"), "y").build());
    }

    @Test
    void resolveDotsFollowsRfc3986() {
        assertEquals("/a/", RequestPaths.resolveDots("/a/b/.."));
        assertEquals("/a/b", RequestPaths.resolveDots("/a/./b"));
        assertEquals("/", RequestPaths.resolveDots("/.."));
        assertEquals("/", RequestPaths.resolveDots("/../.."));
        assertEquals("/a//b", RequestPaths.resolveDots("/a//b"));
        assertEquals("/b", RequestPaths.resolveDots("/a/%2E%2e/b"));
        assertEquals("/..a/.b", RequestPaths.resolveDots("/..a/.b"));
    }
}
