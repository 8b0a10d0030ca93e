package shaper.server;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.auth.ClientKeys;
import shaper.mount.MountPrefix;
import shaper.mount.MountRouter;
import shaper.mount.Mounted;
import shaper.mount.RequestPaths;
import shaper.observe.ExchangeEnding;
import shaper.observe.EndReason;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangeRecord;
import shaper.observe.ExchangeTrace;
import shaper.observe.Journal;
import shaper.observe.Outcome;
import shaper.proxy.LocalFailure;
import shaper.proxy.ProxyHandler;
import shaper.proxy.upgrade.UpgradeTunnel;

/**
 * The listener's dispatch, the one function production and tests share:
 * <pre>
 *   request ─► health path (dot segments resolved)? ─► health, always open
 *           ─► client key required and not presented? ─► 401 in the client's dialect
 *           ─► no mount leads the path? ─► 404 in the client's dialect ("404 page not found" off the API paths)
 *           ─► the mount's handler, with the path its prefix leaves
 * </pre>
 * The key check runs before any provider limiter is touched; a refusal is counted and logged as
 * the provider's local answer (outcome {@code failed}, status 401). Mount prefixes are matched
 * before route classification, so route patterns only ever see the forwarded path.
 */
final class MountTable {
    static final String NOT_FOUND = "404 page not found\n";

    /**
     * The mounts and client keys in force: replaced whole by a configuration reload. A request reads
     * it once, so it is served by the provider it was routed to even if a reload replaces or removes
     * that provider meanwhile (its in-flight exchanges finish where they started).
     */
    private record Mounts(List<ProxyHandler> handlers, MountRouter<ProxyHandler> router, ClientKeys keys) {
        /** @param routed the routed mount's handler at its prefix ({@code -route-prefix}), when there is one */
        static Mounts of(List<ProxyHandler> handlers, Optional<Routed> routed, ClientKeys keys) {
            MountRouter.Builder<ProxyHandler> builder = MountRouter.builder();
            handlers.forEach(h -> builder.mount(h.provider().config().mountPrefix(), h));
            routed.ifPresent(r -> builder.mount(r.prefix(), r.handler()));
            return new Mounts(List.copyOf(handlers), builder.build(), keys);
        }
    }

    /** The routed mount: where it listens and what serves it. */
    record Routed(MountPrefix prefix, ProxyHandler handler) {
    }

    private volatile Mounts mounts;
    private final HealthHandler health;
    private final ExchangeLog log;

    MountTable(List<ProxyHandler> handlers, Optional<Routed> routed, ClientKeys keys, HealthHandler health, ExchangeLog log) {
        this.mounts = Mounts.of(handlers, routed, keys);
        this.health = health;
        this.log = log;
    }

    ClientKeys keys() {
        return mounts.keys();
    }

    /** Serves {@code handlers} with {@code keys} from the next request on (a reload). */
    void replace(List<ProxyHandler> handlers, Optional<Routed> routed, ClientKeys keys) {
        mounts = Mounts.of(handlers, routed, keys);
    }

    /** The handlers in force, in configuration order. */
    List<ProxyHandler> handlers() {
        return mounts.handlers();
    }

    void handle(ServerRequest req, ServerResponse res) {
        String rawPath = req.prologue().uriPath().rawPath();
        if (isHealth(rawPath)) {
            health.handle(req, res);
            return;
        }
        Mounts now = mounts;
        Optional<Mounted<ProxyHandler>> routed = now.router().route(rawPath);
        // the key's name is the client's identity; without keys every client is anonymous
        Optional<String> client = now.keys().required() ? now.keys().check(HelidonHeaderEditor.view(req.headers())) : Optional.empty();
        if (now.keys().required() && client.isEmpty()) {
            reject(req, res, routed, rawPath);
            return;
        }
        if (routed.isEmpty()) {
            notMounted(req, res, rawPath);
            return;
        }
        routed.get().target().handle(req, res, routed.get().forwardedPath(), client);
    }

    /** The tunnel target of an upgrade request, or null so that {@link #handle} answers it (health, 401, 404). */
    UpgradeTunnel.Target upgradeTarget(String rawPath, Headers headers) {
        Mounts now = mounts;
        if (isHealth(rawPath) || !admitted(now.keys(), headers)) {
            return null;
        }
        Optional<String> client = now.keys().required() ? now.keys().check(HelidonHeaderEditor.view(headers)) : Optional.empty();
        return now.router().route(rawPath)
                .map(m -> new UpgradeTunnel.Target(m.target().provider(), m.forwardedPath(), client))
                .orElse(null);
    }

    /**
     * Records a request the listener answered itself before routing (bad input): one record in the
     * journal, counters and metrics of the provider its path leads to (the root mount's when
     * nothing could be parsed), one log line; logged only when no mount leads it.
     *
     * @param method the request's method, {@code -} when none was parsed
     * @param rawPath its path, empty when none was parsed
     */
    void refusedByListener(String method, String rawPath, int status) {
        Optional<Mounted<ProxyHandler>> routed = mounts.router().route(rawPath.startsWith("/") ? rawPath : "/");
        String path = routed.map(Mounted::forwardedPath).orElse(rawPath);
        ExchangeTrace trace = routed.map(m -> m.target().provider().publisher().journal().begin(method, path, null))
                .orElseGet(() -> Journal.detached("-", method, path));
        ExchangeRecord record = trace.finish(new ExchangeEnding(status, Outcome.FAILED, EndReason.BAD_INPUT, null), List.of(), List.of());
        if (routed.isPresent()) {
            routed.get().target().provider().publisher().publish(record);
        } else {
            log.exchange(record);
        }
    }

    /**
     * {@code 404}: JSON in the client's dialect on an API path ({@code /v1/messages} under a prefix
     * nobody mounted), Go's plain {@code 404 page not found} elsewhere; logged as an exchange no
     * provider owns.
     */
    private void notMounted(ServerRequest req, ServerResponse res, String rawPath) {
        LocalFailure failure = LocalFailure.notMounted(rawPath);
        Optional<String> json = failure.jsonAt(rawPath);
        res.status(Status.NOT_FOUND_404).header(HeaderValues.create("X-Content-Type-Options", "nosniff"));
        if (json.isPresent()) {
            res.header(HeaderValues.CONTENT_TYPE_JSON).send(json.get().getBytes(StandardCharsets.UTF_8));
        } else {
            res.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).send(NOT_FOUND);
        }
        ExchangeTrace trace = Journal.detached("-", req.prologue().method().text(), rawPath);
        log.exchange(trace.finish(new ExchangeEnding(404, Outcome.FAILED, EndReason.NOT_MOUNTED, null), List.of(), List.of()));
    }

    private static boolean isHealth(String rawPath) {
        return RequestPaths.resolveDots(rawPath).equals(HealthHandler.PATH);
    }

    private static boolean admitted(ClientKeys keys, Headers headers) {
        return !keys.required() || keys.check(HelidonHeaderEditor.view(headers)).isPresent();
    }

    private void reject(ServerRequest req, ServerResponse res, Optional<Mounted<ProxyHandler>> routed, String rawPath) {
        String method = req.prologue().method().text();
        String path = routed.map(Mounted::forwardedPath).orElse(rawPath);
        ExchangeTrace trace = routed.map(m -> m.target().provider().publisher().journal().begin(method, path, req.prologue().query().rawValue()))
                .orElseGet(() -> Journal.detached("-", method, path));
        ClientKeys.Dialect dialect = ClientKeys.dialect(rawPath, HelidonHeaderEditor.view(req.headers()));
        res.status(Status.UNAUTHORIZED_401).header(HeaderValues.CONTENT_TYPE_JSON)
                .send(ClientKeys.rejection(dialect).getBytes(StandardCharsets.UTF_8));
        // Request headers are not journaled here: the refused request's key would be kept.
        ExchangeRecord record = trace.finish(new ExchangeEnding(ClientKeys.REJECTION_STATUS, Outcome.FAILED, EndReason.CLIENT_KEY_REJECTED, null),
                List.of(), List.of());
        if (routed.isPresent()) {
            routed.get().target().provider().publisher().publish(record);
        } else {
            log.exchange(record); // no provider owns it: logged, counted nowhere
        }
    }
}
