/**
 * The Claude Code launcher behind {@code ClaudeLauncher.java} and {@code ./claude.sh}: make sure a
 * shaper serves {@code 127.0.0.1:SHAPER_PORT}, then run Claude Code with a private settings overlay
 * whose {@code env.ANTHROPIC_BASE_URL} points at it.
 *
 * <p>One launch, in order; any failure before step 5 ends it with exit 1 (2 for a usage error)
 * and Claude Code is not started:
 * <pre>
 *  1 parse argv: --settings FILE|JSON is the launcher's, the rest is Claude Code's
 *  2 read the overlay source (--settings, ~/.claude/retry-proxy.json, SHAPER_SETTINGS, or {})
 *    and validate it: a JSON object whose "env", if present, maps names to strings
 *  3 find the Claude Code executable (SHAPER_CLAUDE, else "claude" on PATH minus this launcher)
 *  4 write the overlay owner-only (0600 file in a 0700 directory), then settle the port:
 *      health JSON says ai-concurrency-shaper -> reuse it
 *      connection refused                     -> start a detached shaper, wait for health (bounded)
 *      anything else answers                  -> refuse ("held by something that is not a shaper")
 *  5 run Claude Code with --settings TEMP and inherited stdio; its exit code is the launcher's
 *  6 delete the overlay and its directory, on every path out of steps 4-5
 * </pre>
 *
 * <p>Signals ({@link shaper.launcher.PosixSignals}, production only): SIGTERM is forwarded to
 * Claude Code, which gets {@link shaper.launcher.ClaudeProcess#GRACE} to exit before it is killed.
 * SIGINT is forwarded the same way unless the launcher has a controlling terminal: there it is
 * taken to be Ctrl+C, which already reached Claude Code through the foreground process group, and
 * Claude Code decides what an interrupt means (it cancels a turn and keeps running), so the
 * launcher neither sends a second one nor exits. A programmatic stop should use SIGTERM. A signal
 * before Claude Code started ends the launch with 128+signal; the settings copy is deleted on
 * every one of these paths (and by a shutdown hook when the JVM ends any other catchable way).
 *
 * <p>The detached shaper runs {@code ./jbang Shaper.java} with the arguments that
 * {@link shaper.launcher.ShaperArgs} builds, in a new session (so terminal signals and the
 * launcher's exit do not reach it), stdin from {@code /dev/null}, stdout and stderr appended to the
 * owner-only log. It keeps running after Claude Code exits; its pid is in the health JSON.
 *
 * <p>Thread-safety: a launch runs on one thread; {@link shaper.launcher.ClaudeProcess} is the only
 * state shared with signal handlers and the shutdown hook, and guards it with a lock.
 */
package shaper.launcher;
