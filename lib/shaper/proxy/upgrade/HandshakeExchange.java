package shaper.proxy.upgrade;

import java.util.List;

import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import shaper.observe.ExchangeEnding;
import shaper.observe.EndReason;
import shaper.observe.ExchangeTrace;
import shaper.observe.Outcome;
import shaper.observe.Provenance;
import shaper.observe.RouteKind;
import shaper.proxy.JournalHeaders;

/**
 * One upgrade request's exchange: traced from arrival, ended by exactly one record. The record
 * covers the handshake only; bytes of an established tunnel are not an exchange. An upgrade is
 * passthrough and takes no slot. Confined to the connection's thread until {@link #end}, which a
 * refused upgrade calls from the thread that relayed its body.
 */
final class HandshakeExchange {
    final UpgradeTunnel.Target target;
    final String method;
    final long start = System.nanoTime();
    final ExchangeTrace trace;
    private final Headers request;

    HandshakeExchange(UpgradeTunnel.Target target, HttpPrologue prologue, Headers request) {
        this.target = target;
        this.method = prologue.method().text();
        this.request = request;
        this.trace = target.publisher().journal().begin(method, target.rawPath(), prologue.query().rawValue());
        trace.classified(RouteKind.PASSTHROUGH, "");
        trace.queueEnded(false);
    }

    /** @param head the relayed response head, or null when none was relayed */
    void end(int status, Outcome outcome, EndReason reason, ResponseHead head) {
        Provenance provenance = reason == EndReason.COMPLETED && status >= 400 ? Provenance.UPSTREAM_HTTP : null;
        target.publisher().publish(trace.finish(new ExchangeEnding(status, outcome, reason, provenance), JournalHeaders.of(request),
                head == null ? List.of() : head.fields()));
    }
}
