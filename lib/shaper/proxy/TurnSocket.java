package shaper.proxy;

import java.time.Duration;

import shaper.usage.UsageScanner;

/**
 * The two sockets of one Responses WebSocket session, as one turn uses them ({@link SocketTurn}). The
 * session owns them and their frame loops; a turn only asks it to refuse, to relay one request, or
 * whether the client is still there. Implementations are safe to call from the turn's thread while
 * the sockets' own threads read.
 */
public interface TurnSocket {
    /**
     * Refuses the turn: one {@code error} event the client reads as an HTTP status (with the
     * {@code retry-after} it waits before a new socket), then both sockets close.
     *
     * @param retryAfter zero for none
     */
    void refuse(int status, String type, String code, String message, Duration retryAfter);

    /** False once the client closed its socket (or the session ended otherwise). */
    boolean clientOpen();

    /**
     * Sends {@code frame} upstream and relays the upstream's events to the client until the turn's
     * terminal event, the end of either socket, or {@code bound}, whichever comes first.
     *
     * @param usage      fed every relayed event, as an event stream's {@code data:} line
     * @param firstEvent run once, when the upstream's first event of the turn arrives
     */
    TurnEnd relay(byte[] frame, UsageScanner usage, Runnable firstEvent, Duration bound);

    /**
     * How a relayed turn ended.
     *
     * @param kind       what ended it
     * @param status     the HTTP status an upstream {@code error} event carried, else 0
     * @param retryAfter the {@code retry-after} such an event carried, zero when none
     * @param relayed    events that reached the client
     */
    record TurnEnd(Kind kind, int status, Duration retryAfter, int relayed) {
        /** What ends a turn. */
        public enum Kind {
            /** {@code response.completed}. */
            COMPLETED,
            /** {@code response.failed} or {@code response.incomplete}: the upstream answered, with a failed response. */
            FAILED,
            /** An upstream {@code error} event, with the status it names. */
            ERROR_EVENT,
            /** The upstream socket closed or broke before a terminal event. */
            UPSTREAM_CLOSED,
            /** The client closed its socket first. */
            CLIENT_LEFT,
            /** No terminal event within the bound. */
            TIMED_OUT
        }
    }
}
