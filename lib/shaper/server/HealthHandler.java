package shaper.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.Version;
import shaper.config.UpstreamUrl;
import shaper.reload.ReloadStatus;
import shaper.settings.ProviderConfig;

/**
 * {@code GET /__shaper/health}: answered by the proxy itself, never forwarded. The launcher uses it
 * to tell a running shaper from any other program holding the port. It shows the providers in force
 * and the configuration generation (1 at startup, +1 per applied reload) with the file's hash. A
 * clustered provider's entry carries its Redis link ({@code limiter}: up or on its fallback,
 * endpoint kind, current master), read at each request; the status stays 200 during an outage,
 * since the proxy still serves.
 */
final class HealthHandler {
    static final String PATH = "/__shaper/health";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<List<ProviderConfig>> providers;
    private final ReloadStatus reloads;
    private final Function<String, Optional<Map<String, Object>>> limiterLinks;
    private final Supplier<Optional<Map<String, Object>>> routing;

    /**
     * @param providers    the providers in force at the time of each request
     * @param limiterLinks a provider's cluster link as the health object, empty when its limiters are in-process
     * @param routing      the routed mount in force as the health object ({@code prefix}, {@code routes}), empty when none
     */
    HealthHandler(Supplier<List<ProviderConfig>> providers, ReloadStatus reloads,
                  Function<String, Optional<Map<String, Object>>> limiterLinks, Supplier<Optional<Map<String, Object>>> routing) {
        this.providers = providers;
        this.reloads = reloads;
        this.limiterLinks = limiterLinks;
        this.routing = routing;
        body(); // fail at startup, not at the first health check
    }

    private byte[] body() {
        List<Map<String, Object>> list = new ArrayList<>();
        for (ProviderConfig p : providers.get()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", p.name());
            entry.put("prefix", p.prefix().isEmpty() ? "/" : p.prefix());
            entry.put("upstream", UpstreamUrl.display(p.upstream()));
            limiterLinks.apply(p.name()).ifPresent(link -> entry.put("limiter", link));
            list.add(entry);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("service", Version.SERVICE);
        doc.put("pid", ProcessHandle.current().pid());
        doc.put("version", Version.VERSION);
        doc.put("config_generation", reloads.generation());
        reloads.fileHash().ifPresent(h -> doc.put("config_sha256", h));
        doc.put("providers", list);
        routing.get().ifPresent(r -> doc.put("routing", r));
        try {
            return JSON.writeValueAsBytes(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    void handle(ServerRequest req, ServerResponse res) {
        if (!req.prologue().method().equals(Method.GET) && !req.prologue().method().equals(Method.HEAD)) {
            res.status(Status.METHOD_NOT_ALLOWED_405).header(HeaderValues.create("Allow", "GET, HEAD"))
                    .header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).send("method not allowed\n");
            return;
        }
        res.header(HeaderValues.CONTENT_TYPE_JSON).header(HeaderValues.create("Cache-Control", "no-store")).send(body());
    }
}
