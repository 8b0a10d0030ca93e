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
 * It returns when the operator quits; the caller restores the terminal and stops the proxy.
 */
public final class Dashboard {
    /** As the original tool's feeder: a fresh frame four times a second. */
    static final Duration TICK = Duration.ofMillis(250);

    private final TuiTerminal terminal;
    private final FrameSource source;
    private final Clock clock;
    private final BlockingQueue<Input> queue = new LinkedBlockingQueue<>();

    Dashboard(TuiTerminal terminal, FrameSource source, Clock clock) {
        this.terminal = terminal;
        this.source = source;
        this.clock = clock;
    }

    /** Asks the loop to end (a signal or the shutdown hook). */
    void quit() {
        queue.offer(new Input.Quit());
    }

    /** Draws until the operator quits. */
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
        try {
            while (!state.quit) {
                Size size = terminal.size();
                Screen.Drawn drawn = Screen.render(frame, state, throughput, size.getColumns(), size.getRows(), terminal.mouse(), zone);
                hits = drawn.hits();
                terminal.draw(drawn.rows(), resized);
                resized = false;
                long wait = nextTick - System.nanoTime();
                Input in = wait > 0 ? queue.poll(wait, TimeUnit.NANOSECONDS) : null;
                if (in == null) {
                    frame = source.take();
                    throughput.observe(frame);
                    nextTick = System.nanoTime() + TICK.toNanos();
                    continue;
                }
                do {
                    resized |= in instanceof Input.Resize;
                    controller.apply(in, hits, clock.instant());
                } while (!state.quit && (in = queue.poll()) != null);
            }
        } finally {
            keys.interrupt();
        }
    }
}
