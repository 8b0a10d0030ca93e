package shaper.transcode.pipeline;

import java.util.Set;

import shaper.mount.RequestPaths;
import shaper.transcode.TranscodeException;

/**
 * The client query of a transcoded request: every parameter must be on the allowlist
 * ({@code -transcode-allow-client-query}, default {@code beta}); allowed ones are forwarded raw.
 */
final class ClientQuery {
    private ClientQuery() {
    }

    /** @return the raw query to forward, or null when empty */
    static String filter(String rawQuery, Set<String> allowed) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = RequestPaths.decodeUnreserved(eq < 0 ? pair : pair.substring(0, eq));
            if (!allowed.contains(name)) {
                throw new TranscodeException.Invalid("client query parameter \"" + name + "\" is not allowed on transcoded routes");
            }
        }
        return rawQuery;
    }

    /** A name an operator may allow: visible ASCII without {@code =%&#?}. */
    static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x21 || c >= 0x7f || "=%&#?".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }
}
