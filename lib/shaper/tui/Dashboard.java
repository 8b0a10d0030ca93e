package shaper.tui;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

import org.jline.terminal.Size;
import org.jline.terminal.Terminal;

/**
 * The render loop. One thread takes a {@link Frame} every {@link #TICK}, applies whatever input
 * arrived in between, and draws; keys come from {@link KeyInput}'s thread, resizes and signals from
 * JLine's handlers, all through one queue:
 * <pre>
 *   keys thread ──┐
 *   SIGWINCH    ──┼─▶ queue ─▶ render loop ─▶ Controller ─▶ ViewState
 *   SIGINT/TERM ──┘                │
 *                  every 250 ms: FrameSource.take() ─▶ Screen.render ─▶ TuiTerminal.draw
 * </pre>
 * The first quit starts the proxy's graceful stop and keeps drawing while exchanges drain; a
 * second one cuts them; the loop returns once the proxy has stopped, and the caller restores the
 * terminal.
 *
 * <p>Theme: right after entering the screen the loop asks the terminal for its background
 * ({@link TerminalReplies#QUERIES}) and waits at most {@link #THEME_BOUND} for the answer before the
 * first frame, keeping any key that arrives meanwhile. A terminal that answers later (a busy
 * machine) switches the theme then; the replies are read by the key reader, never as keys.
 */
public final class Dashboard {
    /** A fresh frame four times a second: counters look live, and copying the snapshots stays cheap. */
    static final Duration TICK = Duration.ofMillis(250);
    /** While the proxy stops, the loop looks this often whether it is done. */
    private static final long POLL_WHILE_STOPPING = Duration.ofMillis(20).toNanos();
    /** The longest the first frame waits for the terminal to say its background colour. */
    static final Duration THEME_BOUND = Duration.ofMillis(300);

    private final TuiTerminal terminal;
    private final FrameSource source;
    private final Clock clock;
    private final ProxyStop stop;
    private final Toasts toasts;
    private final BlockingDeque<Input> queue = new LinkedBlockingDeque<>();

    Dashboard(TuiTerminal terminal, FrameSource source, Clock clock, ProxyStop stop, Toasts toasts) {
        this.terminal = terminal;
        this.source = source;
        this.clock = clock;
        this.stop = stop;
        this.toasts = toasts;
    }

    /** Asks the loop to end (a signal or the shutdown hook). */
    void quit() {
        queue.offer(new Input.Quit());
    }

    /** Draws until the operator has quit and the proxy has stopped. */
    void run() throws InterruptedException {
        Terminal t = terminal.terminal();
        t.handle(Terminal.Signal.WINCH, s -> queue.offer(new Input.Resize()));
        t.handle(Terminal.Signal.INT, s -> quit());
        terminal.enter();
        Thread keys = KeyInput.start(t, queue);
        terminal.ask(TerminalReplies.QUERIES);
        Theme theme = awaitTheme(Theme.initial(System.getenv("COLORFGBG")));
        ViewState state = new ViewState();
        Throughput throughput = new Throughput();
        Controller controller = new Controller(state, source, throughput, toasts);
        ZoneId zone = ZoneId.systemDefault();
        Frame frame = source.take();
        throughput.observe(frame);
        Hits hits = Hits.NONE;
        boolean resized = false;
        long nextTick = System.nanoTime() + TICK.toNanos();
        int quitsSeen = 0;
        try {
            while (!(quitsSeen > 0 && stop.done())) {
                if (state.quitRequests > quitsSeen) {
                    if (quitsSeen == 0) {
                        stop.begin();
                    } else {
                        stop.cut();
                    }
                    quitsSeen = state.quitRequests;
                    state.toast(stop.note(), clock.instant().plus(Duration.ofHours(1)));
                }
                Size size = terminal.size();
                Screen.Drawn drawn = Screen.render(frame, state, throughput, theme, toasts.showing(clock.instant()), size.getColumns(),
                        size.getRows(), terminal.mouse(), zone);
                hits = drawn.hits();
                terminal.draw(drawn.rows(), resized);
                resized = false;
                long wait = nextTick - System.nanoTime();
                Input in = wait <= 0 ? null : queue.poll(quitsSeen > 0 ? Math.min(wait, POLL_WHILE_STOPPING) : wait, TimeUnit.NANOSECONDS);
                if (in == null) {
                    if (System.nanoTime() - nextTick >= 0) {
                        frame = source.take();
                        throughput.observe(frame);
                        nextTick = System.nanoTime() + TICK.toNanos();
                    }
                    continue;
                }
                do {
                    resized |= in instanceof Input.Resize;
                    if (in instanceof Input.Background b) {
                        theme = Theme.forBackground(b.rgb());
                        resized = true; // every cell changes colour: repaint all of it
                    }
                    controller.apply(in, hits, clock.instant());
                } while ((in = queue.poll()) != null);
            }
        } finally {
            keys.interrupt();
        }
    }

    /**
     * Waits at most {@link #THEME_BOUND} for the terminal's background (or for its DA1 reply, which
     * says none is coming); inputs that arrive meanwhile go back to the front of the queue, in order.
     */
    private Theme awaitTheme(Theme fallback) throws InterruptedException {
        List<Input> kept = new ArrayList<>();
        Theme theme = fallback;
        long deadline = System.nanoTime() + THEME_BOUND.toNanos();
        try {
            for (long wait; (wait = deadline - System.nanoTime()) > 0; ) {
                Input in = queue.poll(wait, TimeUnit.NANOSECONDS);
                if (in instanceof Input.Background b) {
                    return Theme.forBackground(b.rgb());
                }
                if (in instanceof Input.QueriesAnswered) {
                    return theme;
                }
                if (in != null) {
                    kept.add(in);
                }
            }
            return theme;
        } finally {
            for (int i = kept.size() - 1; i >= 0; i--) {
                queue.putFirst(kept.get(i));
            }
        }
    }
}
