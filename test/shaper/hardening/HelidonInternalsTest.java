package shaper.hardening;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.proxy.watch.HelidonInternals;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * The proxy reaches into Helidon internals pinned to 4.5.0 (the client socket for the end-of-stream
 * watch, the upstream connection of a cut upload). After a Helidon upgrade that moves them this
 * test fails, and the proxy announces the loss at startup rather than degrading silently.
 */
class HelidonInternalsTest {

    @Test
    void everyInternalIsReachable() {
        assertEquals(List.of(), HelidonInternals.problems());
    }

    @Test
    void startupAnnouncesNothingWhenAllAreReachable() {
        try (ScriptedUpstream up = ScriptedUpstream.ok("ok");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            assertFalse(shaper.stderr().contains("cannot reach Helidon"), shaper.stderr());
        }
    }
}
