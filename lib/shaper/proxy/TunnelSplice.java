package shaper.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.function.Consumer;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.webserver.spi.ServerConnection;

/**
 * Splices client and upstream bytes both ways. For a non-101 answer only the upstream's body is
 * relayed (the connection closes afterwards, so its framing needs no parsing), within the deadline
 * of the call, and {@code onEnd} hears whether all of it arrived.
 */
final class TunnelSplice implements ServerConnection {
    private final DataReader clientIn;
    private final DataWriter clientOut;
    private final Socket upstream;
    private final boolean bidirectional;
    private final long deadline;
    private final Consumer<Boolean> onEnd;
    private long remaining;

    /**
     * @param remaining upstream bytes to relay before closing, or -1 for until end of stream
     * @param deadline  {@link System#nanoTime()} by which a one-way relay must end (unused when bidirectional)
     * @param onEnd     told whether the one-way relay delivered the whole body
     */
    TunnelSplice(DataReader clientIn, DataWriter clientOut, Socket upstream, boolean bidirectional, long remaining,
                 long deadline, Consumer<Boolean> onEnd) {
        this.clientIn = clientIn;
        this.clientOut = clientOut;
        this.upstream = upstream;
        this.bidirectional = bidirectional;
        this.remaining = remaining;
        this.deadline = deadline;
        this.onEnd = onEnd;
    }

    @Override
    public void handle(io.helidon.common.concurrency.limits.Limit limit) {
        Thread clientToUpstream = bidirectional ? Thread.ofVirtual().name("tunnel-up").start(this::pumpUp) : null;
        boolean complete = false;
        try {
            InputStream in = upstream.getInputStream();
            byte[] buf = new byte[StreamCopy.BUFFER];
            int n;
            while (remaining != 0) {
                if (!bidirectional) {
                    upstream.setSoTimeout(UpgradeTunnel.remainingMillis(deadline));
                }
                n = in.read(buf, 0, remaining < 0 ? buf.length : (int) Math.min(buf.length, remaining));
                if (n < 0) {
                    break;
                }
                clientOut.writeNow(BufferData.create(java.util.Arrays.copyOf(buf, n)));
                if (remaining > 0) {
                    remaining -= n;
                }
            }
            complete = remaining <= 0;
        } catch (IOException | RuntimeException e) {
            // either side closed: the tunnel's life is over
        } finally {
            UpgradeTunnel.closeQuietly(upstream);
            if (!bidirectional) {
                onEnd.accept(complete);
            }
            if (clientToUpstream != null) {
                clientToUpstream.interrupt();
            }
        }
    }

    private void pumpUp() {
        try {
            OutputStream out = upstream.getOutputStream();
            while (true) {
                BufferData data = clientIn.readBuffer();
                byte[] bytes = new byte[data.available()];
                data.read(bytes);
                out.write(bytes);
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            UpgradeTunnel.closeQuietly(upstream);
        }
    }

    /** Never idle to Helidon: a tunnel lives as long as its peers keep it (the idle check is the head-read timeout). */
    @Override
    public Duration idleTime() {
        return Duration.ZERO;
    }

    @Override
    public void close(boolean interrupt) {
        UpgradeTunnel.closeQuietly(upstream);
    }
}
