package shaper.proxy.watch;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * One selector thread that watches parked client connections for end of stream, so ten thousand
 * waiting requests cost one blocked thread instead of a probe each.
 *
 * <pre>
 * request thread          selector thread
 * watch(channel) ──cmd──▶ non-blocking + register OP_READ
 *   (parked in queue)     readable: bytes pending? alive (stop looking) : end of stream, gone
 * stop()        ──cmd──▶ cancel key, selectNow, blocking again ──▶ request thread continues
 * </pre>
 *
 * A readable channel with nothing available has reached end of stream (or was reset): nothing is
 * ever read, so bytes a client sends while it waits stay in the socket for Helidon. Registration
 * changes run on the selector thread; callers wait for them (a few microseconds). A channel must
 * be used by nobody else between {@link #watch} and {@link Handle#stop()}.
 */
public final class SelectorWatch implements AutoCloseable {
    private final Selector selector;
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    public SelectorWatch() {
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a selector", e);
        }
        this.thread = Thread.ofPlatform().daemon().name("shaper-client-watch").start(this::loop);
    }

    /** A watched channel. */
    public final class Handle {
        private final SocketChannel channel;
        private SelectionKey key;
        private volatile boolean gone;
        private boolean stopped;

        private Handle(SocketChannel channel) {
            this.channel = channel;
        }

        /** True once the client closed or reset the connection. */
        public boolean gone() {
            return gone;
        }

        /** Ends the watch and gives the channel back in blocking mode. Idempotent; call from the request thread. */
        public void stop() {
            if (stopped) {
                return;
            }
            stopped = true;
            boolean restored = run(() -> {
                if (key != null) {
                    key.cancel();
                    selector.selectNow(); // deregisters, so blocking mode can come back
                }
                if (channel.isOpen()) {
                    channel.configureBlocking(true);
                }
            });
            if (!restored) {
                restoreWithoutSelector();
            }
        }

        /**
         * The selector thread is gone (shutdown): a closed selector has dropped its keys, so blocking
         * mode can be restored here; a channel that cannot be restored is closed rather than handed
         * back to Helidon in non-blocking mode.
         */
        private void restoreWithoutSelector() {
            try {
                if (key != null) {
                    key.cancel();
                }
                if (channel.isOpen()) {
                    channel.configureBlocking(true);
                }
            } catch (IOException | RuntimeException e) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // closing is the last resort
                }
            }
        }
    }

    /** Starts watching {@code channel}; null when it cannot be watched (closed, or registration failed). */
    public Handle watch(SocketChannel channel) {
        Handle h = new Handle(channel);
        boolean ok = run(() -> {
            channel.configureBlocking(false);
            h.key = channel.register(selector, SelectionKey.OP_READ, h);
        });
        if (!ok) {
            h.stop();
            return null;
        }
        return h;
    }

    @FunctionalInterface
    private interface Command {
        void run() throws IOException;
    }

    /** Runs {@code c} on the selector thread and waits for it; false if it failed. */
    private boolean run(Command c) {
        if (!running) {
            return false;
        }
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        commands.add(() -> {
            try {
                c.run();
                done.complete(true);
            } catch (IOException | RuntimeException e) {
                done.complete(false);
            }
        });
        selector.wakeup();
        try {
            return done.get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;
        }
    }

    private void loop() {
        try {
            while (running) {
                selector.select();
                Runnable command;
                while ((command = commands.poll()) != null) {
                    command.run();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    if (key.isValid() && key.attachment() instanceof Handle h) {
                        inspect(key, h);
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | ClosedSelectorException e) {
            running = false;
        } finally {
            Runnable command;
            while ((command = commands.poll()) != null) {
                command.run();
            }
        }
    }

    private static void inspect(SelectionKey key, Handle h) {
        try {
            if (h.channel.socket().getInputStream().available() == 0) {
                h.gone = true;
            }
        } catch (IOException | RuntimeException e) {
            h.gone = true;
        }
        // Either verdict is final: stop selecting this channel until the request thread stops the watch.
        key.interestOps(0);
    }

    @Override
    public void close() {
        running = false;
        try {
            selector.close();
        } catch (IOException e) {
            // shutting down
        }
    }
}
