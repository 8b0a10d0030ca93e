/**
 * The terminal dashboard ({@code -tui}), on JLine 3.
 *
 * <p>Data flows one way. {@link shaper.tui.ServerFrames} is the only class that talks to the running
 * proxy: four times a second it copies the public snapshots of the providers in force (one list, so a
 * reload that adds or removes a provider shows at the next frame: limiter views with their held slots,
 * the reasons of the holds running, breaker snapshots and transitions, counters, the journal, token usage per model,
 * the upstream's stated rate limits and the pacing budget) into an immutable {@link shaper.tui.Frame}. Renderers (one per tab, plus
 * header, tab bar, footer and overlays) turn a frame and the operator's {@code ViewState} into rows
 * of styled text; they never see a limiter, a breaker or a mutable counter. Every colour comes from
 * {@link shaper.tui.Theme}.
 *
 * <p>Threads: the render loop ({@link shaper.tui.Dashboard}) owns the view state, the frames and the
 * terminal's display; a key reader thread and JLine's signal handlers only post {@code Input}s to its
 * queue. While the dashboard runs, stdout, stderr and java.util.logging go to a {@link shaper.tui.LogRing}
 * shown in the Logs tab, so nothing prints over the screen.
 *
 * <p>Terminal states: opened (nothing changed; fails when stdout is not a TTY) → entered (raw mode,
 * alternate screen, hidden cursor, mouse) → restored (all of it undone; idempotent, also run from
 * the shutdown hook on SIGTERM). A terminal below 40×12 shows a one-line notice instead of the
 * dashboard.
 *
 * <p>Themes: {@link shaper.tui.Theme} holds a dark and a light palette; the render loop picks one
 * from the terminal's answer to a background colour query, which only the key reader reads.
 * Toasts: {@link shaper.tui.Toasts#post} from any thread; breaker and cluster-link transitions since
 * the last frame are posted by {@link shaper.tui.ServerFrames}, each breaker transition from the
 * breaker's own record of them, so a flap between two frames is not lost.
 */
package shaper.tui;
