package shaper.tui;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
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
 */
public final class Dashboard {
    /** As the original tool's feeder: a fresh frame four times a second. */
    static final Duration TICK = Duration.ofMillis(250);
    /** While the proxy stops, the loop looks this often whether it is done. */
    private static final long POLL_WHILE_STOPPING = Duration.ofMillis(20).toNanos();

    private final TuiTerminal terminal;
    private final FrameSource source;
    private final Clock clock;
    private final ProxyStop stop;
    private final BlockingQueue<Input> queue = new LinkedBlockingQueue<>();

    Dashboard(TuiTerminal terminal, FrameSource source, Clock clock, ProxyStop stop) {
        this.terminal = terminal;
        this.source = source;
        this.clock = clock;
        this.stop = stop;
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
        ViewState state = new ViewState();
        Throughput throughput = new Throughput();
        Controller controller = new Controller(state, source, throughput);
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
                Screen.Drawn drawn = Screen.render(frame, state, throughput, size.getColumns(), size.getRows(), terminal.mouse(), zone);
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
                    controller.apply(in, hits, clock.instant());
                } while ((in = queue.poll()) != null);
            }
        } finally {
            keys.interrupt();
        }
    }
}
