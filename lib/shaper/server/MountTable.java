package shaper.server;

import java.util.List;

import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import shaper.proxy.UpgradeTunnel;

/** Picks the provider for a request path. With one bare provider every path belongs to it. */
final class MountTable {
    private final List<Mount> mounts;

    MountTable(List<Mount> mounts) {
        this.mounts = List.copyOf(mounts);
    }

    Mount resolve(String rawPath) {
        return mounts.size() == 1 ? mounts.getFirst() : null;
    }

    void handle(ServerRequest req, ServerResponse res) {
        Mount mount = resolve(req.prologue().uriPath().rawPath());
        if (mount == null) {
            res.status(Status.NOT_FOUND_404).header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).send("404 page not found\n");
            return;
        }
        mount.handler().handle(req, res);
    }

    UpgradeTunnel.Target upgradeTarget(String rawPath) {
        if (rawPath.equals(HealthHandler.PATH)) {
            return null;
        }
        Mount mount = resolve(rawPath);
        return mount == null ? null : new UpgradeTunnel.Target(mount.config().name(), mount.config().upstream(), rawPath);
    }
}
