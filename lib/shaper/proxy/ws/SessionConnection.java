package shaper.proxy.ws;

import java.time.Duration;

import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.websocket.WsConnection;
import io.helidon.websocket.WsCloseCodes;

/**
 * The client connection after a Responses WebSocket handshake: Helidon's frame loop for the session,
 * or nothing when the handshake was answered otherwise (returning from {@link #handle} closes the
 * connection). Never idle to the listener's head-read timeout: a session rests between turns for as
 * long as its client keeps it. When the frame loop ends, however it ended, the session ends too (its
 * upstream socket closed, its gauge counted down).
 *
 * @param frames  the session's frame loop, null for an answered handshake
 * @param session the session the loop serves, null for an answered handshake
 */
record SessionConnection(WsConnection frames, ResponsesSession session) implements ServerConnection {
    /** A handshake answered otherwise: returning from {@link #handle} closes the connection. */
    static SessionConnection answered() {
        return new SessionConnection(null, null);
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
        if (frames == null) {
            return;
        }
        try {
            frames.handle(limit);
        } finally {
            session.end(WsCloseCodes.NORMAL_CLOSE, "session over");
        }
    }

    @Override
    public Duration idleTime() {
        return Duration.ZERO;
    }

    @Override
    public void close(boolean interrupt) {
        if (frames != null) {
            frames.close(interrupt);
        }
    }
}
