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
import shaper.mount.MountRouter;
import shaper.mount.Mounted;
import shaper.mount.RequestPaths;
import shaper.observe.EndReason;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangeRecord;
import shaper.observe.ExchangeTrace;
import shaper.observe.Journal;
import shaper.observe.Outcome;
import shaper.proxy.ProxyHandler;
import shaper.proxy.upgrade.UpgradeTunnel;

/**
 * The listener's dispatch, the one function production and tests share:
 * <pre>
 *   request ─► health path (dot segments resolved)? ─► health, always open
 *           ─► client key required and not presented? ─► 401 in the client's dialect
 *           ─► no mount leads the path? ─► 404 "404 page not found"
 *           ─► the mount's handler, with the path its prefix leaves
 * </pre>
 * The key check runs before any provider limiter is touched; a refusal is counted and logged as
 * the provider's local answer (outcome {@code failed}, status 401). Mount prefixes are matched
 * before route classification, so route patterns only ever see the forwarded path.
 */
final class MountTable {
    static final String NOT_FOUND = "404 page not found\n";

    private final MountRouter<ProxyHandler> router;
    private final ClientKeys keys;
    private final HealthHandler health;
    private final ExchangeLog log;

    MountTable(List<ProxyHandler> handlers, ClientKeys keys, HealthHandler health, ExchangeLog log) {
        MountRouter.Builder<ProxyHandler> builder = MountRouter.builder();
        handlers.forEach(h -> builder.mount(h.provider().config().mountPrefix(), h));
        this.router = builder.build();
        this.keys = keys;
        this.health = health;
        this.log = log;
    }

    void handle(ServerRequest req, ServerResponse res) {
        String rawPath = req.prologue().uriPath().rawPath();
        if (isHealth(rawPath)) {
            health.handle(req, res);
            return;
        }
        Optional<Mounted<ProxyHandler>> routed = router.route(rawPath);
        if (!admitted(req.headers())) {
            reject(req, res, routed, rawPath);
            return;
        }
        if (routed.isEmpty()) {
            res.status(Status.NOT_FOUND_404).header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN)
                    .header(HeaderValues.create("X-Content-Type-Options", "nosniff")).send(NOT_FOUND);
            return;
        }
        routed.get().target().handle(req, res, routed.get().forwardedPath());
    }

    /** The tunnel target of an upgrade request, or null so that {@link #handle} answers it (health, 401, 404). */
    UpgradeTunnel.Target upgradeTarget(String rawPath, Headers headers) {
        if (isHealth(rawPath) || !admitted(headers)) {
            return null;
        }
        return router.route(rawPath)
                .map(m -> new UpgradeTunnel.Target(m.target().provider(), m.forwardedPath()))
                .orElse(null);
    }

    private static boolean isHealth(String rawPath) {
        return RequestPaths.resolveDots(rawPath).equals(HealthHandler.PATH);
    }

    private boolean admitted(Headers headers) {
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
        ExchangeRecord record = trace.finish(ClientKeys.REJECTION_STATUS, Outcome.FAILED, EndReason.CLIENT_KEY_REJECTED, null,
                List.of(), List.of());
        if (routed.isPresent()) {
            routed.get().target().provider().publisher().publish(record);
        } else {
            log.exchange(record); // no provider owns it: logged, counted nowhere
        }
    }
}
