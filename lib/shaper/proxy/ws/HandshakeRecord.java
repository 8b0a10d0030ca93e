package shaper.proxy.ws;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import shaper.observe.ExchangeEnding;
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
 *
 * @param request the handshake's header fields, as the record keeps them
 * @param path    the path after the mount prefix
 * @param trace   the record in the making
 */
record HandshakeRecord(ProviderAssembly provider, Headers request, String path, ExchangeTrace trace) {
    /** Begins the record of a handshake on {@code path} (after the mount prefix): passthrough, never queued. */
    static HandshakeRecord begin(ProviderAssembly provider, HttpPrologue prologue, Headers request, String path) {
        ExchangeTrace trace = provider.publisher().journal().begin("GET", path, prologue.query().rawValue());
        trace.classified(RouteKind.PASSTHROUGH, "");
        trace.queueEnded(false);
        return new HandshakeRecord(provider, request, path, trace);
    }

    /**
     * Answers the handshake with {@code status} and a plain-text {@code body}, closes the connection
     * after it, and ends the record: a local answer, or the upstream's refusal relayed ({@link Outcome#CLEAN}).
     */
    ServerConnection answer(ConnectionContext ctx, int status, String phrase, String body, Outcome outcome) {
        return answer(ctx, status + " " + phrase, "text/plain", body, outcome);
    }

    /** Answers the handshake with the proxy's own {@code failure}, in the dialect of the path (the Responses path: OpenAI's JSON). */
    ServerConnection answer(ConnectionContext ctx, String statusLine, shaper.proxy.LocalFailure failure) {
        java.util.Optional<String> json = failure.jsonAt(path);
        return answer(ctx, statusLine, json.isPresent() ? "application/json" : "text/plain", json.orElse(failure.message() + "\n"), Outcome.FAILED);
    }

    private ServerConnection answer(ConnectionContext ctx, String statusLine, String type, String body, Outcome outcome) {
        int status = Integer.parseInt(statusLine, 0, 3, 10);
        String head = "HTTP/1.1 " + statusLine + "\r\nContent-Type: " + type + "\r\nX-Content-Type-Options: nosniff\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n";
        try {
            ctx.dataWriter().writeNow(BufferData.create((head + body).getBytes(StandardCharsets.UTF_8)));
        } catch (RuntimeException clientGone) {
            end(status, Outcome.ABORTED, EndReason.CLIENT_LEFT);
            return SessionConnection.answered();
        }
        EndReason reason = switch (outcome) {
            case CLEAN, LOCAL -> EndReason.COMPLETED;
            case FAILED -> status == 400 ? EndReason.BAD_INPUT : EndReason.UPSTREAM_UNREACHABLE;
            case ABORTED -> EndReason.CLIENT_LEFT;
        };
        end(status, outcome, reason);
        return SessionConnection.answered();
    }

    void end(int status, Outcome outcome, EndReason reason) {
        trace.clientHeaders();
        provider.publisher().publish(trace.finish(new ExchangeEnding(status, outcome, reason,
                ResponsesUpgrader.provenance(outcome, status)), JournalHeaders.of(request), List.of()));
    }

}
