package shaper.proxy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import shaper.priority.ModelPeek;
import shaper.routing.Affinity;
import shaper.routing.ModelRoute;
import shaper.routing.RoutingConfig;
import shaper.clients.ClientIdentity;

/**
 * The routed mount's route stage ({@code -route-prefix}): reads the request's {@code model}, picks the
 * first {@code -model-route} whose pattern matches, and lists that route's targets in the order they
 * are tried: the session's last target first (affinity), then as written or by the shortest expected
 * wait ({@code -route-pick}). Each target serves the request its own way (passthrough, or its provider's
 * transcoded route for the request's path) with its own credentials.
 *
 * <p>The body is read into memory first (at most {@link AdmissionStage#BUFFER_LIMIT} bytes), so every
 * target can be sent it; a larger body goes to the first target alone, judged by the model in its first
 * {@value Intake#MODEL_PEEK} bytes. {@code GET /v1/models} is answered here: the route patterns that
 * name one model (no {@code *} or {@code ?}), in the client's list shape.
 *
 * <p>Immutable apart from the shared {@link Affinity} table; a reload builds a new one over the same table.
 *
 * @param config the routed mount's settings
 */
public record RoutedMount(RoutingConfig config, Map<String, ProviderAssembly> providers, Affinity affinity) implements RouteStage {
    /**
     * @param providers the providers in force, by name (every route target names one)
     * @param affinity  the session table, kept across reloads
     */
    public RoutedMount {
        providers = Map.copyOf(providers);
    }

    @Override
    public ProviderAssembly home() {
        return providers.get(config.routes().getFirst().targets().getFirst().provider());
    }

    @Override
    public Route route(Carriage c, Intake intake) {
        Exchange ex = c.exchange();
        if (ModelList.asks(ex)) {
            return new Route(intake, List.of(), c.sink().listed(ModelList.of(ex.headers(), models())));
        }
        Intake in = intake.buffered(AdmissionStage.BUFFER_LIMIT);
        byte[] bytes = in.body().bytes();
        String model;
        if (bytes != null) {
            byte[] plain = ex.coding().plain(bytes, AdmissionStage.BUFFER_LIMIT);
            model = plain == null ? null : ModelPeek.model(plain, plain.length);
        } else {
            RequestBody.Peek peek = RequestBody.peek(in.body(), Intake.MODEL_PEEK);
            in = new Intake(in.exchange(), peek.body(), in.limiters(), in.key());
            model = ex.coding().codings().isIdentity() ? ModelPeek.model(peek.prefix(), peek.length()) : null;
        }
        Optional<ModelRoute> route = config.route(model);
        List<Target> targets = route.map(r -> targets(r, ex, bytes != null)).orElse(List.of());
        if (targets.isEmpty()) {
            return new Route(in, List.of(), c.sink().fail(ExchangeResult.START, LocalFailure.noRoute(model)));
        }
        c.trace().routed(route.get().pattern(), targets.getFirst().provider().name());
        return new Route(in, targets, null);
    }

    @Override
    public void served(Exchange exchange, Target target, ExchangeResult result) {
        String session = session(exchange.headers());
        if (session != null && result.status() >= 200 && result.status() < 400) {
            affinity.served(session, target.provider().name());
        }
    }

    /** The route patterns and their targets, for {@code /__shaper/health}. */
    public List<Map<String, Object>> health() {
        return config.routes().stream().map(r -> Map.<String, Object>of("pattern", r.pattern(),
                "targets", r.targets().stream().map(ModelRoute.Target::toString).toList())).toList();
    }

    /** The models a client can name: every route pattern that is one model name, in order. */
    List<String> models() {
        Set<String> names = new LinkedHashSet<>();
        for (ModelRoute r : config.routes()) {
            if (r.pattern().indexOf('*') < 0 && r.pattern().indexOf('?') < 0) {
                names.add(r.pattern());
            }
        }
        return List.copyOf(names);
    }

    private List<Target> targets(ModelRoute route, Exchange ex, boolean replayable) {
        boolean coded = !ex.coding().codings().isIdentity();
        List<Target> order = new ArrayList<>();
        for (ModelRoute.Target t : route.targets()) {
            // a coded body's model is not rewritten: a target that needs another model name cannot take it
            if (coded && t.upstreamModel().isPresent()) {
                continue;
            }
            Target target = Target.of(providers.get(t.provider()), ex);
            order.add(t.upstreamModel().map(target::asking).orElse(target));
        }
        if (config.pick() == RoutingConfig.Pick.SHORTEST_WAIT) {
            ProviderAssembly home = home();
            order.sort(Comparator.comparingDouble(t -> expectedWait(t.provider(), t.provider() == home)));
        }
        String session = session(ex.headers());
        Optional<String> last = session == null ? Optional.empty() : affinity.get(session);
        last.ifPresent(name -> order.stream().filter(t -> t.provider().name().equals(name)).findFirst().ifPresent(t -> {
            order.remove(t);
            order.addFirst(t);
        }));
        if (!replayable) {
            return order.isEmpty() ? order : List.of(order.getFirst()); // the body can be sent once: to the first alone
        }
        List<Target> tried = new ArrayList<>(order.size());
        for (int i = 0; i < order.size(); i++) {
            tried.add(i < order.size() - 1 ? order.get(i).movable(config.fallbackAfter()) : order.get(i));
        }
        return tried;
    }

    /**
     * How long a request would wait at {@code p}, in units of its slots' turnover: requests ahead of it
     * (waiting, and serving beyond its free slots) per slot. Zero while it has a free slot or no limit.
     */
    private static double expectedWait(ProviderAssembly p, boolean holdsThisRequest) {
        int limit = p.config().admission().concurrency();
        if (limit <= 0) {
            return 0;
        }
        // the request itself waits in its home journal until it is admitted somewhere: it is not ahead of itself
        int queued = p.publisher().journal().queuedCount() - (holdsThisRequest ? 1 : 0);
        int ahead = queued + p.publisher().journal().activeCount() - limit + 1;
        return Math.max(0, ahead) / (double) limit;
    }

    private String session(Headers headers) {
        if (!config.affinity().enabled()) {
            return null;
        }
        return ClientIdentity.session(name -> headers.first(HeaderNames.create(name)).orElse(null));
    }
}
