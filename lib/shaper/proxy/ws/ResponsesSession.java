package shaper.proxy.ws;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.helidon.common.buffers.BufferData;
import io.helidon.websocket.WsCloseCodes;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import shaper.observe.ExchangeTracing;
import shaper.proxy.ProviderAssembly;
import shaper.proxy.SocketTurn;
import shaper.proxy.TurnSocket;
import shaper.usage.UsageScanner;

/**
 * One terminated Responses WebSocket session: the client's socket (Helidon's frame loop calls this
 * listener) joined to one upstream socket ({@link UpstreamLink}).
 *
 * <pre>
 * client message ─▶ generating response.create ─▶ a turn thread: SocketTurn.serve (admission, relay, settlement)
 *                ─▶ prewarm (generate:false), anything else ─▶ upstream at once, unlimited and unrecorded
 * upstream event ─▶ client, and to the turn in flight (usage, its terminal event)
 * either side closes ─▶ the other is closed; a turn in flight ends (client first: aborted)
 * </pre>
 *
 * While a turn waits for admission the frame loop goes on (pings are answered, nothing is sent), so
 * the frame is held, not the socket. One turn at a time: the socket is free again the moment the
 * turn's terminal event is handed to the client (its next request may follow at once, before the
 * turn's thread has settled); a second generating request before that breaks the protocol (1008). A client message over
 * {@link #MAX_MESSAGE} bytes, joined from its fragments, closes with 1009; a binary message with 1003;
 * a message that is not a JSON object with a {@code type} with 1007. Thread-safety: the frame loop,
 * the upstream's listener and the turn thread meet only in volatile fields, the latch of the turn in
 * flight and the client session's send lock.
 */
final class ResponsesSession implements WsListener, TurnSocket, UpstreamLink.Events {
    /** The longest client message: the default {@code -transcode-max-request-mb}, the request bound of every conversion. */
    static final int MAX_MESSAGE = 10 * 1024 * 1024;

    private final ProviderAssembly provider;
    private final SocketTurn.Asked handshake;
    private final AtomicInteger openSessions;
    private final ExchangeTracing tracing;
    private final StringBuilder partial = new StringBuilder();
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile WsSession client;
    private volatile UpstreamLink upstream;
    /** The turn of this socket, from its request until its terminal event reached the client; null between turns. */
    private final AtomicReference<TurnRelay> current = new AtomicReference<>();

    /**
     * @param handshake    the handshake's fields, routed path and client identity (its frame is empty)
     * @param openSessions the provider's gauge of open sessions, counted up now and down once at the end
     * @param tracing      where each turn's spans come from
     */
    ResponsesSession(ProviderAssembly provider, SocketTurn.Asked handshake, AtomicInteger openSessions, ExchangeTracing tracing) {
        this.provider = provider;
        this.handshake = handshake;
        this.openSessions = openSessions;
        this.tracing = tracing;
        openSessions.incrementAndGet();
    }

    void attach(UpstreamLink link) {
        this.upstream = link;
    }

    /** The client's socket, once its {@code 101} is written: from now on upstream events are relayed to it. */
    void started(WsSession session) {
        client = session;
        upstream.start();
    }

    // ---- the client's socket (Helidon's frame loop)

    @Override
    public void onOpen(WsSession session) {
        client = session;
    }

    @Override
    public void onMessage(WsSession session, String text, boolean last) {
        if (partial.length() + text.length() > MAX_MESSAGE) {
            end(WsCloseCodes.TOO_BIG, "message too big");
            return;
        }
        partial.append(text);
        if (!last) {
            return;
        }
        String message = partial.toString();
        partial.setLength(0);
        TurnFrames.Request request;
        try {
            request = TurnFrames.request(message);
        } catch (IOException e) {
            end(WsCloseCodes.NOT_CONSISTENT, "not a JSON object with a type");
            return;
        }
        if (!request.generating()) {
            forward(message);
        } else if (!current.compareAndSet(null, new TurnRelay())) {
            end(WsCloseCodes.VIOLATED_POLICY, "one response at a time");
        } else {
            byte[] frame = message.getBytes(StandardCharsets.UTF_8);
            TurnRelay turn = current.get();
            Thread.ofVirtual().name("ws-turn").start(() -> {
                try {
                    SocketTurn.serve(provider, new SocketTurn.Asked(handshake.headers(), handshake.path(), handshake.client(), frame), this, tracing);
                } catch (RuntimeException | Error unexpected) {
                    // recorded by the settlement; the client is told the only way a socket can be
                    end(WsCloseCodes.UNEXPECTED_CONDITION, "proxy error");
                    throw unexpected;
                } finally {
                    current.compareAndSet(turn, null); // a turn refused or abandoned before its terminal event
                }
            });
        }
    }

    @Override
    public void onMessage(WsSession session, BufferData buffer, boolean last) {
        end(WsCloseCodes.CANNOT_ACCEPT, "binary messages are not part of the protocol");
    }

    @Override
    public void onPing(WsSession session, BufferData buffer) {
        session.pong(buffer);
    }

    @Override
    public void onClose(WsSession session, int status, String reason) {
        TurnRelay r = current.get();
        if (r != null) {
            r.end(new TurnEnd(TurnEnd.Kind.CLIENT_LEFT, 0, Duration.ZERO, r.relayed()));
        }
        end(WsCloseCodes.NORMAL_CLOSE, "client closed");
    }

    @Override
    public void onError(WsSession session, Throwable t) {
        onClose(session, WsCloseCodes.UNEXPECTED_CONDITION, "client socket failed");
    }

    /** A non-generating message goes upstream as it is: it takes no slot and is no exchange. */
    private void forward(String message) {
        try {
            upstream.send(message, provider.config().retry().upstreamTimeout());
        } catch (ExecutionException | TimeoutException e) {
            end(WsCloseCodes.UNEXPECTED_CONDITION, "upstream unreachable");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end(WsCloseCodes.UNEXPECTED_CONDITION, "interrupted");
        }
    }

    // ---- the upstream's socket

    @Override
    public void message(String text) {
        TurnRelay r = current.get();
        TurnEnd terminal = r == null ? null : r.seen(text);
        if (terminal != null) {
            // free before the client reads it: its next request may follow at once
            current.compareAndSet(r, null);
        }
        try {
            client.send(text, true);
        } catch (RuntimeException clientGone) {
            if (r != null) {
                r.end(new TurnEnd(TurnEnd.Kind.CLIENT_LEFT, 0, Duration.ZERO, r.relayed()));
            }
            end(WsCloseCodes.NORMAL_CLOSE, "client gone");
            return;
        }
        if (terminal != null) {
            r.end(terminal);
        }
    }

    @Override
    public void ended(int code, String reason) {
        TurnRelay r = current.get();
        if (r != null) {
            r.end(new TurnEnd(TurnEnd.Kind.UPSTREAM_CLOSED, 0, Duration.ZERO, r.relayed()));
        }
        // the upstream holds the conversation: without it the client must start over on a new socket
        end(code == WsCloseCodes.NORMAL_CLOSE ? WsCloseCodes.NORMAL_CLOSE : WsCloseCodes.UNEXPECTED_CONDITION, "upstream closed");
    }

    // ---- what a turn asks of the session

    @Override
    public void refuse(int status, String type, String code, String message, Duration retryAfter) {
        try {
            client.send(TurnFrames.errorEvent(status, type, code, message, retryAfter), true);
        } catch (RuntimeException clientGone) {
            // nobody to tell; the sockets close all the same
        }
        end(WsCloseCodes.TRY_AGAIN_LATER, "refused: " + status);
    }

    @Override
    public boolean clientOpen() {
        return !ended.get();
    }

    @Override
    public TurnEnd relay(byte[] frame, UsageScanner usage, Runnable firstEvent, Duration bound) {
        TurnRelay r = current.get();
        if (r == null) {
            // the session ended while the turn waited
            return new TurnEnd(TurnEnd.Kind.CLIENT_LEFT, 0, Duration.ZERO, 0);
        }
        r.attach(usage, firstEvent);
        try {
            if (!clientOpen()) {
                return new TurnEnd(TurnEnd.Kind.CLIENT_LEFT, 0, Duration.ZERO, 0);
            }
            try {
                upstream.send(new String(frame, StandardCharsets.UTF_8), bound);
            } catch (ExecutionException | TimeoutException e) {
                end(WsCloseCodes.UNEXPECTED_CONDITION, "upstream unreachable");
                return new TurnEnd(TurnEnd.Kind.UPSTREAM_CLOSED, 0, Duration.ZERO, 0);
            }
            TurnEnd end = r.await(bound);
            if (end == null) {
                end(WsCloseCodes.UNEXPECTED_CONDITION, "upstream timeout");
                return new TurnEnd(TurnEnd.Kind.TIMED_OUT, 0, Duration.ZERO, r.relayed());
            }
            return end;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end(WsCloseCodes.UNEXPECTED_CONDITION, "interrupted");
            return new TurnEnd(TurnEnd.Kind.CLIENT_LEFT, 0, Duration.ZERO, r.relayed());
        } finally {
            current.compareAndSet(r, null);
        }
    }

    /** Ends the session once: both sockets closed, the gauge counted down. */
    void end(int code, String reason) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }

        openSessions.decrementAndGet();
        UpstreamLink link = upstream;
        if (link != null) {
            link.close(WsCloseCodes.NORMAL_CLOSE, "client session ended");
        }
        WsSession c = client;
        if (c != null) {
            try {
                c.close(code, reason);
            } catch (RuntimeException alreadyGone) {
                // the client's socket is closed already
            }
        }
    }
}
