package shaper.proxy.ws;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import shaper.observe.EndReason;
import shaper.observe.ExchangeTrace;
import shaper.observe.Outcome;
import shaper.observe.RouteKind;
import shaper.proxy.JournalHeaders;
import shaper.proxy.ProviderAssembly;

/**
 * The one record of a Responses WebSocket handshake (its turns have records of their own): begun on
 * arrival, ended by the {@code 101} or by the one local answer the client gets instead. A handshake
 * takes no slot. Confined to the connection's thread.
 */
final class HandshakeRecord {
    private final ProviderAssembly provider;
    private final Headers request;
    private final String path;
    private final ExchangeTrace trace;

    HandshakeRecord(ProviderAssembly provider, HttpPrologue prologue, Headers request, String path) {
        this.provider = provider;
        this.request = request;
        this.path = path;
        this.trace = provider.publisher().journal().begin("GET", path, prologue.query().rawValue());
        trace.classified(RouteKind.PASSTHROUGH, "");
        trace.queueEnded(false);
    }

    String provider() {
        return provider.name();
    }

    String path() {
        return path;
    }

    /**
     * Answers the handshake with {@code status} and a plain-text {@code body}, closes the connection
     * after it, and ends the record: a local answer, or the upstream's refusal relayed ({@link Outcome#CLEAN}).
     */
    ServerConnection answer(ConnectionContext ctx, int status, String phrase, String body, Outcome outcome) {
        String head = "HTTP/1.1 " + status + " " + phrase + "\r\nContent-Type: text/plain\r\nX-Content-Type-Options: nosniff\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n";
        try {
            ctx.dataWriter().writeNow(BufferData.create((head + body).getBytes(StandardCharsets.UTF_8)));
        } catch (RuntimeException clientGone) {
            end(status, Outcome.ABORTED, EndReason.CLIENT_LEFT);
            return new SessionConnection(null, null);
        }
        EndReason reason = switch (outcome) {
            case CLEAN, LOCAL -> EndReason.COMPLETED;
            case FAILED -> status == 400 ? EndReason.BAD_INPUT : EndReason.UPSTREAM_UNREACHABLE;
            case ABORTED -> EndReason.CLIENT_LEFT;
        };
        end(status, outcome, reason);
        return new SessionConnection(null, null);
    }

    void end(int status, Outcome outcome, EndReason reason) {
        trace.clientHeaders();
        provider.publisher().publish(trace.finish(new ExchangeTrace.Ending(status, outcome, reason,
                ResponsesUpgrader.provenance(outcome, status)), JournalHeaders.of(request), List.of()));
    }

}
