package shaper.cluster;

import java.util.HashMap;
import java.util.Map;

import shaper.testing.ScriptedUpstream;

/**
 * An upstream that answers {@code /v1/TAG/...} after a short while and records, per tag, how many
 * requests it had at once: one test's phases (before, during and after a failover) each get
 * their own peak.
 */
final class PeaksByTag {
    private final Map<String, int[]> byTag = new HashMap<>(); // tag -> {in flight, peak, seen}; guarded by this
    final ScriptedUpstream upstream;

    PeaksByTag() {
        this.upstream = ScriptedUpstream.start((req, ex) -> {
            String tag = req.target().split("/")[2];
            enter(tag);
            try {
                Thread.sleep(25);
                ex.respond(200, "ok " + req.target(), "Content-Type: text/plain");
            } finally {
                exit(tag);
            }
        });
    }

    private synchronized void enter(String tag) {
        int[] c = byTag.computeIfAbsent(tag, t -> new int[3]);
        c[0]++;
        c[2]++;
        c[1] = Math.max(c[1], c[0]);
    }

    private synchronized void exit(String tag) {
        byTag.get(tag)[0]--;
    }

    synchronized int peak(String tag) {
        return byTag.getOrDefault(tag, new int[3])[1];
    }

    synchronized int seen(String tag) {
        return byTag.getOrDefault(tag, new int[3])[2];
    }
}
