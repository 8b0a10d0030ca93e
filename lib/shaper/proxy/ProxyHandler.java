package shaper.proxy;

import java.util.List;
import java.util.Optional;

import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.observe.ExchangeTrace;
import shaper.proxy.watch.ClientConnection;

/**
 * One mount's request path, stage by stage:
 *
 * <pre>
 * intake ─▶ route ─▶ admission ─▶ attempts ─▶ relay
 *   (Exchange)  (Targets)  (slots, breaker)  (AttemptLoop)  (ResponseRelay / TranscodeStage)
 *                 ▲        └─ refused: answered locally ┐
 *                 └──── moved: a fallback trigger while nothing of the answer is sent, to the next target
 * every path ─▶ Settlement: budget, breaker ticket, load sample, slots, the one record
 * </pre>
 *
 * A provider's own mount has one target; the routed mount ({@link RoutedMount}) lists its route's.
 */
public final class ProxyHandler implements Handler {
    private final RouteStage routes;
    private final ServerParts server;

    public ProxyHandler(ProviderAssembly provider, ServerParts server) {
        this(RouteStage.own(provider), server);
    }

    /** The routed mount's handler. */
    public ProxyHandler(RoutedMount routed, ServerParts server) {
        this((RouteStage) routed, server);
    }

    private ProxyHandler(RouteStage routes, ServerParts server) {
        this.routes = routes;
        this.server = server;
    }

    /** The provider this handler's exchanges start with: the provider of its mount, or the routed mount's first target. */
    public ProviderAssembly provider() {
        return routes.home();
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
        ProviderAssembly provider = routes.home();
        ExchangeTrace trace = provider.publisher().journal().begin(req.prologue().method().text(), rawPath, req.prologue().query().rawValue());
        trace.spans(server.tracing().begin(provider.name(), req.prologue().method().text(), rawPath,
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

    /** Serves the route's targets in order until one ends the exchange; a moved one gives back what it was granted first. */
    private ExchangeResult serve(Carriage carriage, Intake intake, Settlement settlement) {
        RouteStage.Route route = routes.route(carriage, intake);
        if (route.answered() != null) {
            return route.answered();
        }
        List<Target> targets = route.targets();
        for (int i = 0; ; i++) {
            Target target = targets.get(i);
            settlement.servedBy(target);
            Intake here = i == 0 && target.provider() == routes.home() ? route.intake() : route.intake().at(target.provider(), carriage.trace());
            ExchangeResult result = switch (AdmissionStage.admit(carriage, target, here, settlement)) {
                case AdmissionStage.Refused refused -> refused.result();
                case AdmissionStage.Moved moved -> moved.result();
                case AdmissionStage.Admitted admitted -> AttemptStage.forward(carriage, target, admitted, settlement);
            };
            if (result.moved() == null) {
                routes.served(carriage.exchange(), target, result);
                return result;
            }
            // only a target that is not the last may move: there is a next one
            settlement.movedOn(result);
            carriage.trace().movedTo(targets.get(i + 1).provider().name(), result.moved().label());
        }
    }
}
