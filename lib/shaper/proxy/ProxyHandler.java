package shaper.proxy;

import java.util.Optional;

import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.observe.ExchangeTrace;
import shaper.proxy.watch.ClientConnection;

/**
 * One provider's request path, stage by stage:
 *
 * <pre>
 * intake ─▶ route ─▶ admission ─▶ attempts ─▶ relay
 *   (Exchange)  (Target)  (slots, breaker)  (AttemptLoop)  (ResponseRelay / TranscodeStage)
 *                         └─ refused: answered locally
 * every path ─▶ Settlement: budget, breaker ticket, load sample, slots, the one record
 * </pre>
 */
public final class ProxyHandler implements Handler {
    private final ProviderAssembly provider;
    private final ServerParts server;

    public ProxyHandler(ProviderAssembly provider, ServerParts server) {
        this.provider = provider;
        this.server = server;
    }

    /** The provider this handler serves. */
    public ProviderAssembly provider() {
        return provider;
    }

    /** Serves the request with its own path, from an unnamed client: for a provider mounted at the bare root. */
    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        handle(req, res, req.prologue().uriPath().rawPath(), Optional.empty());
    }

    /**
     * Serves a routed request.
     *
     * @param rawPath the path after the mount prefix was taken off
     * @param client  the name of the client key the request presented, empty when none is required
     */
    public void handle(ServerRequest req, ServerResponse res, String rawPath, Optional<String> client) {
        ExchangeTrace trace = provider.publisher().journal().begin(req.prologue().method().text(), rawPath, req.prologue().query().rawValue());
        trace.spans(server.tracing().begin(provider.name(), client.orElse(""), req.prologue().method().text(), rawPath,
                name -> req.headers().first(io.helidon.http.HeaderNames.create(name)).orElse(null)));
        ClientSink sink = new ClientSink(res, Dialect.of(rawPath));
        ClientConnection connection = ClientConnection.of(req, server.clientWatch());
        Settlement settlement = new Settlement(provider, sink, connection, trace, req.headers());
        ExchangeResult result = settlement.run(() -> {
            Intake intake = Intake.of(req, rawPath, client, provider, trace);
            return serve(new Carriage(intake.exchange(), sink, connection, trace, server), intake, settlement);
        });
        if (result.cut() != null) {
            // a committed answer that cannot be finished honestly: only a dropped connection says so
            throw new CloseConnectionException(result.cut());
        }
        if (result.clientAborted() && !res.isSent()) {
            // nobody is left to answer: close quietly instead of leaving Helidon to complain that the route sent nothing
            throw new CloseConnectionException("client left before an answer");
        }
    }

    private ExchangeResult serve(Carriage carriage, Intake intake, Settlement settlement) {
        Target target = Target.candidates(provider, carriage.exchange()).getFirst();
        return switch (AdmissionStage.admit(carriage, target, intake, settlement)) {
            case AdmissionStage.Refused refused -> refused.result();
            case AdmissionStage.Admitted admitted -> AttemptStage.forward(carriage, target, admitted, settlement);
        };
    }
}
