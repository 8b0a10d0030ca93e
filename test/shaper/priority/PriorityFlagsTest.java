package shaper.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.cli.CommandLineParser;
import shaper.cli.Invocation;
import shaper.main.ShaperMain;
import shaper.limit.AdaptiveConfig;
import shaper.limit.QueueClass;
import shaper.settings.ProviderConfig;

/** The smarter queue's flags: parsed into the provider's config, bad values are semantic errors naming them. */
class PriorityFlagsTest {
    private static final String UP = "http://127.0.0.1:9";

    private static ProviderConfig provider(String... flags) {
        List<String> argv = new ArrayList<>(List.of("-upstream", UP));
        argv.addAll(List.of(flags));
        return assertInstanceOf(Invocation.Run.class, CommandLineParser.parse(argv)).config().providers().get(0);
    }

    private static void fails(String expected, String... flags) {
        List<String> argv = new ArrayList<>(List.of("-upstream", UP));
        argv.addAll(List.of(flags));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ShaperMain.run(argv.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, text);
        assertTrue(text.contains(expected), "expected \"" + expected + "\" in: " + text);
    }

    @Test
    void defaultsAreNoClassesTheStandardHeaderAndFixedLimits() {
        ProviderConfig p = provider();
        assertEquals(PriorityConfig.NONE, p.priority());
        assertEquals("X-Shaper-Priority", p.priority().header());
        assertEquals(AdaptiveConfig.OFF, p.adaptive());
    }

    @Test
    void classesRulesAndTheDefaultParse() {
        ProviderConfig p = provider("-priority-class", "interactive=4", "--priority-class=background=1",
                "-priority-rule", "model~*haiku*=background", "-priority-rule", "header:User-Agent~ci-*=background",
                "-priority-header", "X-Lane", "-adaptive-concurrency", "-concurrency-min", "2");
        assertEquals(List.of(new QueueClass("interactive", 4), new QueueClass("background", 1)), p.priority().classes());
        assertEquals("interactive", p.priority().defaultClass(), "the first declared class is the default");
        assertEquals("X-Lane", p.priority().header());
        assertEquals("model~*haiku*=background", p.priority().rules().get(0).toString());
        assertEquals("header:User-Agent~ci-*=background", p.priority().rules().get(1).toString());
        assertEquals(new AdaptiveConfig(true, 2), p.adaptive());
        assertEquals("background", provider("-priority-class", "a=1", "-priority-class", "background=1",
                "-priority-default", "background").priority().defaultClass());
    }

    @Test
    void badValuesAreSemanticErrorsNamingTheFlag() {
        fails("-priority-class \"interactive\": expected NAME=WEIGHT", "-priority-class", "interactive");
        fails("-priority-class \"a=0\": weight must be an integer 1..1000", "-priority-class", "a=0");
        fails("-priority-class \"a=x\": weight must be an integer 1..1000", "-priority-class", "a=x");
        fails("-priority-class \"A\" is declared twice", "-priority-class", "a=1", "-priority-class", "A=2");
        fails("-priority-rule \"model~*haiku*=bg\": unknown class \"bg\" (declared: a)", "-priority-class", "a=1",
                "-priority-rule", "model~*haiku*=bg");
        fails("-priority-rule \"size~big=a\": unknown field \"size\"", "-priority-class", "a=1", "-priority-rule", "size~big=a");
        fails("-priority-rule \"model=a\": expected FIELD~GLOB=CLASS", "-priority-class", "a=1", "-priority-rule", "model=a");
        fails("-priority-rule needs at least one -priority-class", "-priority-rule", "model~x=a");
        fails("-priority-default \"b\": unknown class (declared: a)", "-priority-class", "a=1", "-priority-default", "b");
        fails("-priority-header \"X Lane\": not a header name", "-priority-header", "X Lane");
        fails("-concurrency-min must be >= 1, got 0", "-concurrency-min", "0");
    }

    @Test
    void adaptiveConcurrencyIsAcceptedInClusterMode() {
        var p = provider("-adaptive-concurrency", "-concurrency-min", "2", "-limiter-backend", "redis://127.0.0.1:9");
        assertEquals(new AdaptiveConfig(true, 2), p.adaptive());
        org.junit.jupiter.api.Assertions.assertTrue(p.cluster().clustered());
    }
}
