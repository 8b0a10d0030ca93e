package shaper.proxy.upgrade;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.webserver.spi.ServerConnection;

/**
 * What the client connection does after the upstream's head was relayed. A {@link #tunnel} splices
 * client and upstream bytes both ways until either side closes: the reading side runs on the
 * connection's thread, client-to-upstream on a virtual thread of its own, and whichever ends closes
 * the upstream, which ends the other. A {@link #refusedBody} relays only the upstream's body of a
 * refused upgrade (the connection closes afterwards, so its framing needs no parsing), within the
 * call's deadline, and tells {@code onEnd} whether all of it arrived.
 */
final class TunnelSplice implements ServerConnection {
    private static final int BUFFER = 16 * 1024;
    private final DataReader clientIn;
    private final DataWriter clientOut;
    private final UpstreamSocket upstream;
    /** Null for a tunnel, which is neither bounded nor reported. */
    private final Bound bound;
    private long remaining;

    /** What bounds a refused upgrade's body and who hears how it ended, as {@link #refusedBody} documents them. */
    private record Bound(long length, long deadline, Consumer<Boolean> onEnd) {
    }

    private TunnelSplice(DataReader clientIn, DataWriter clientOut, UpstreamSocket upstream, Bound bound) {
        this.clientIn = clientIn;
        this.clientOut = clientOut;
        this.upstream = upstream;
        this.bound = bound;
        this.remaining = bound == null ? -1 : bound.length();
    }

    /** Both ways, unbounded in time: an established tunnel lives as long as its peers keep it. */
    static TunnelSplice tunnel(DataReader clientIn, DataWriter clientOut, UpstreamSocket upstream) {
        return new TunnelSplice(clientIn, clientOut, upstream, null);
    }

    /**
     * Upstream to client only, then close.
     *
     * @param length   upstream bytes to relay, or -1 for until end of stream
     * @param deadline {@link System#nanoTime()} by which the relay must end
     * @param onEnd    told whether the whole body was delivered
     */
    static TunnelSplice refusedBody(DataWriter clientOut, UpstreamSocket upstream, long length, long deadline,
                                    Consumer<Boolean> onEnd) {
        return new TunnelSplice(null, clientOut, upstream, new Bound(length, deadline, onEnd));
    }

    @Override
    public void handle(io.helidon.common.concurrency.limits.Limit limit) {
        Thread clientToUpstream = bound == null ? Thread.ofVirtual().name("tunnel-up").start(this::pumpUp) : null;
        boolean complete = false;
        try {
            InputStream in = upstream.in();
            byte[] buf = new byte[BUFFER];
            while (remaining != 0) {
                if (bound != null) {
                    upstream.boundReads(bound.deadline());
                }
                int n = in.read(buf, 0, remaining < 0 ? buf.length : (int) Math.min(buf.length, remaining));
                if (n < 0) {
                    break;
                }
                clientOut.writeNow(BufferData.create(Arrays.copyOf(buf, n)));
                if (remaining > 0) {
                    remaining -= n;
                }
            }
            complete = remaining <= 0;
        } catch (IOException | RuntimeException e) {
            // either side closed: the tunnel's life is over
        } finally {
            upstream.close();
            if (bound != null) {
                bound.onEnd().accept(complete);
            }
            if (clientToUpstream != null) {
                clientToUpstream.interrupt();
            }
        }
    }

    private void pumpUp() {
        try {
            OutputStream out = upstream.out();
            while (true) {
                BufferData data = clientIn.readBuffer();
                byte[] bytes = new byte[data.available()];
                data.read(bytes);
                out.write(bytes);
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            upstream.close();
        }
    }

    /** Never idle to Helidon: a tunnel lives as long as its peers keep it (the idle check is the head-read timeout). */
    @Override
    public Duration idleTime() {
        return Duration.ZERO;
    }

    @Override
    public void close(boolean interrupt) {
        upstream.close();
    }
}
