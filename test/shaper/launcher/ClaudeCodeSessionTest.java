package shaper.launcher;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import shaper.probe.ProbeConfig;
import shaper.probe.ProbeServer;
import shaper.testing.LocalRefusals;
import shaper.testing.RunningShaper;
import shaper.tui.TmuxSession;

/**
 * Issue 16 done-when: an interactive session of the newest Claude Code ({@link RealClaudeCode}), in
 * tmux with a private HOME as a new user would start it, goes through each Messages transcoding
 * preset against the probe's fixture upstream, and the proxy refuses none of its requests locally
 * (read from the journal: Claude Code retries a refused first turn silently with features off, so
 * its screen alone would not show it). The session answers the first-run screens by keys, says hi,
 * runs one Bash tool round trip and quits. Offline, Claude Code cannot check a new API key, so the
 * key is pre-approved in {@code ~/.claude.json} the way its own dialog records it.
 */
class ClaudeCodeSessionTest {
    private static final String REPLY = "Hi from the session's upstream.";
    private static final String KEY = "sk-ant-api03-shaper-session-test-0123456789abcdef";
    private static final Duration SCREEN_BOUND = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void interactiveSessionThroughMessagesToChatIsNeverRefusedLocally() throws Exception {
        session("/chat", "/chat/v1/chat/completions", "-transcode-messages-chat");
    }

    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void interactiveSessionThroughMessagesToResponsesIsNeverRefusedLocally() throws Exception {
        session("/responses", "/responses/v1/responses", "-transcode-messages-responses", "-transcode-allow-loss", "tool_schema_strictness");
    }

    private void session(String fixture, String hits, String... transcodeFlags) throws Exception {
        TmuxSession.assumeTmux();
        Path claude = RealClaudeCode.install();
        ProbeConfig d = ProbeConfig.defaults(0);
        ProbeServer probe = ProbeServer.start(d.withReply(REPLY));
        List<String> argv = new ArrayList<>(List.of("-upstream", probe.uri(fixture).toString()));
        argv.addAll(List.of(transcodeFlags));
        try (RunningShaper shaper = RunningShaper.start(argv.toArray(String[]::new));
             TmuxSession tmux = TmuxSession.start(160, 50)) {
            start(tmux, launcher(claude, shaper));
            prompt(tmux, "say hi");
            tmux.await("the upstream's reply", SCREEN_BOUND, s -> s.contains(REPLY));
            prompt(tmux, "please [[bash:echo session-ok]]");
            tmux.await("the tool's output sent back upstream", SCREEN_BOUND, s -> s.contains("tool said: session-ok"));
            tmux.keys("C-c");
            tmux.await("the exit hint", SCREEN_BOUND, s -> s.contains("again to exit"));
            tmux.keys("C-c");
            tmux.await("the shell's prompt after Claude Code quit", SCREEN_BOUND,
                    s -> TmuxSession.lastRow(s.stripTrailing()).strip().equals(TmuxSession.PROMPT.strip()));

            assertTrue(probe.stats().snapshot().hits(hits) >= 3, probe.stats().snapshot().hits().toString());
            LocalRefusals.assertNone(shaper);
            assertTrue(LocalRefusals.exchanges(shaper) >= 3, "the session went through the proxy");
        } finally {
            probe.stop();
        }
    }

    /** A script that starts Claude Code in a fresh project with a private HOME whose key is approved, pointed at the shaper. */
    private Path launcher(Path claude, RunningShaper shaper) throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path project = Files.createDirectories(dir.resolve("project"));
        Files.writeString(home.resolve(".claude.json"), "{\"customApiKeyResponses\":{\"approved\":[\"" + KEY.substring(KEY.length() - 20)
                + "\"],\"rejected\":[]}}", StandardCharsets.UTF_8);
        Path script = dir.resolve("claude-session.sh");
        Files.writeString(script, String.join("\n",
                "#!/bin/sh",
                "cd '" + project + "' || exit 1",
                "exec env -i PATH=\"$PATH\" TERM=tmux-256color HOME='" + home + "' ANTHROPIC_BASE_URL='" + shaper.uri("") + "'"
                        + " ANTHROPIC_API_KEY='" + KEY + "' DISABLE_TELEMETRY=1 DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 '"
                        + claude + "'",
                ""), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    /** The first-run screens, each by the text that marks it, and answered by Enter (the trust screen by choosing Yes first). */
    private static final List<String> SCREENS = List.of("Yes, I trust this folder", "Choose the text style", "Press Enter to continue",
            "Enter to continue");

    /** What Claude Code prints when the trust screen was answered No. */
    private static final String NOT_TRUSTED = "folder isn't trusted";

    /** Starts Claude Code on a cleared screen and answers its first-run screens; starts it again (bounded) if it quit at the trust screen. */
    private static void start(TmuxSession tmux, Path launcher) throws Exception {
        for (int launch = 1; ; launch++) {
            tmux.type("clear; " + launcher);
            if (firstRunScreens(tmux)) {
                return;
            }
            if (launch == 3) {
                throw new AssertionError("Claude Code quit at its trust screen three times; the screen:\n" + tmux.screen());
            }
            tmux.await("the shell's prompt", SCREEN_BOUND, s -> TmuxSession.lastRow(s.stripTrailing()).strip().equals(TmuxSession.PROMPT.strip()));
        }
    }

    /**
     * Theme, security notes, folder trust (whose default is "No, exit") and any notice, until the
     * input box shows (true) or Claude Code quit at the trust screen (false). Each answer waits for
     * its screen to go away, so a screen still redrawing never gets a key meant for the next one;
     * Yes must stay selected a second before it is confirmed (the dialog may mount again and reset it).
     */
    private static boolean firstRunScreens(TmuxSession tmux) throws Exception {
        long deadline = System.nanoTime() + SCREEN_BOUND.multipliedBy(3).toNanos();
        java.util.function.Predicate<String> next = s -> marker(s) != null || ready(s) || s.contains(NOT_TRUSTED);
        String screen = tmux.await("Claude Code's first screen", SCREEN_BOUND, next);
        while (!ready(screen)) {
            if (screen.contains(NOT_TRUSTED)) {
                return false;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Claude Code never reached its input box; the screen:\n" + screen);
            }
            String marker = marker(screen);
            if (marker.equals(SCREENS.get(0))) {
                chooseYes(tmux, marker);
            }
            press(tmux, "Enter", "the screen after \"" + marker + "\"", s -> !s.contains(marker) || s.contains(NOT_TRUSTED));
            screen = tmux.await("the next first-run screen", SCREEN_BOUND, next);
        }
        return true;
    }

    /**
     * Selects Yes on the trust screen and waits until it has stayed selected for a second. The dialog
     * may mount again and reset the choice to its default ("No, exit"), so a choice that does not
     * hold is made again (bounded).
     */
    private static void chooseYes(TmuxSession tmux, String marker) throws Exception {
        for (int attempt = 1; ; attempt++) {
            String now = tmux.screen();
            if (now.contains(NOT_TRUSTED) || !now.contains(marker)) {
                return; // answered (or quit): the caller's next look says which
            }
            if (!selected(now, marker)) {
                press(tmux, "Down", "Yes selected", s -> selected(s, marker) || s.contains(NOT_TRUSTED));
            }
            try {
                steady(tmux, s -> selected(s, marker), Duration.ofSeconds(1), Duration.ofSeconds(10));
                return;
            } catch (AssertionError reset) {
                if (attempt == 12) {
                    throw reset;
                }
            }
        }
    }

    /** Waits (at most {@code bound}) until {@code condition} has held on every look of the session's poll for {@code span}. */
    private static void steady(TmuxSession tmux, java.util.function.Predicate<String> condition, Duration span, Duration bound)
            throws Exception {
        long[] since = {-1};
        tmux.await("a steady screen", bound, s -> {
            long now = System.nanoTime();
            if (!condition.test(s)) {
                since[0] = -1;
                return false;
            }
            since[0] = since[0] < 0 ? now : since[0];
            return now - since[0] >= span.toNanos();
        });
    }

    /**
     * Presses {@code key} until {@code done} shows: a dialog may draw before it listens for keys,
     * so a key can be lost; a retry comes only after a pause long enough that a slow one would have shown.
     */
    private static void press(TmuxSession tmux, String key, String what, java.util.function.Predicate<String> done) throws Exception {
        for (int attempt = 1; ; attempt++) {
            tmux.keys(key);
            try {
                tmux.await(what, Duration.ofSeconds(5), done);
                return;
            } catch (AssertionError e) {
                if (attempt == 12) {
                    throw e;
                }
            }
        }
    }

    private static String marker(String s) {
        return SCREENS.stream().filter(s::contains).findFirst().orElse(null);
    }

    private static boolean selected(String screen, String option) {
        return screen.lines().anyMatch(l -> l.contains("❯") && l.contains(option));
    }

    /** The input box's footer. */
    private static boolean ready(String s) {
        return marker(s) == null && (s.contains("shift+tab to cycle") || s.contains("? for shortcuts"));
    }

    /** Types a prompt, waits until it shows in the input box, and sends it. */
    private static void prompt(TmuxSession tmux, String text) throws Exception {
        tmux.await("the input box", SCREEN_BOUND, ClaudeCodeSessionTest::ready);
        tmux.keys("-l", text);
        tmux.await("the typed prompt", SCREEN_BOUND, s -> s.contains(text));
        tmux.keys("Enter");
    }
}
