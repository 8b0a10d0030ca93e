package shaper.proxy;

import java.util.Locale;

/**
 * A provider's upstreams: the main one, and optionally {@code -responses-upstream} for the paths
 * whose wire the Responses models speak ({@code /v1/responses}, {@code /v1/responses/...},
 * {@code /v1/models}, {@code /v1/models/...}, {@code /api/pricing}).
 *
 * @param responses   null when all paths use {@code main}
 * @param mountPrefix the provider's mount on the proxy ({@code ""} for the bare root), put in front of rewritten redirects
 */
public record Upstreams(Upstream main, Upstream responses, String mountPrefix) {
    public Upstream forPath(String rawPath) {
        return responses != null && isResponsesPath(rawPath) ? responses : main;
    }

    static boolean isResponsesPath(String rawPath) {
        String p = rawPath.toLowerCase(Locale.ROOT);
        return under(p, "/v1/responses") || under(p, "/v1/models") || p.equals("/api/pricing");
    }

    private static boolean under(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    public void close() {
        main.close();
        if (responses != null) {
            responses.close();
        }
    }
}
