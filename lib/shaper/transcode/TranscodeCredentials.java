package shaper.transcode;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import shaper.auth.AuthConfig;
import shaper.auth.AuthMode;
import shaper.auth.AuthSource;
import shaper.auth.CredentialHeaders;
import shaper.auth.HeaderEditor;
import shaper.auth.UpstreamAuth;
import shaper.config.ConfigException;

/**
 * The resolved target auth of a provider's transcoded routes (see {@link TranscodeAuth} for the
 * table), applied to the outgoing headers after the transcode header hygiene. Immutable; the
 * secret, when one was read, never appears in {@link #describe()}.
 */
public final class TranscodeCredentials {
    private final UpstreamAuth policy;
    private final AuthMode reattach;
    private final String anthropicVersion;
    private final String description;

    private TranscodeCredentials(UpstreamAuth policy, AuthMode reattach, String anthropicVersion, String description) {
        this.policy = policy;
        this.reattach = reattach;
        this.anthropicVersion = anthropicVersion;
        this.description = description;
    }

    /**
     * Resolves once at startup.
     *
     * @param provider the provider's own auth settings and resolved policy (inherited when unset)
     * @throws ConfigException when a secret cannot be read, or {@code provider} is asked for but has no source
     */
    public static TranscodeCredentials resolve(TranscodeAuth auth, AuthConfig providerConfig, UpstreamAuth provider, URI upstream,
                                               Function<String, String> env) {
        boolean none = auth.mode() != null && auth.mode().kind() == AuthMode.Kind.NONE;
        if (none) {
            return new TranscodeCredentials(stripOnly(upstream, env), null, null, "transcode auth strip-only (-transcode-auth none)");
        }
        return switch (auth.source()) {
            case UNSET, PROVIDER -> {
                if (auth.source() == TranscodeAuth.Source.PROVIDER && !providerConfig.enabled()) {
                    throw new ConfigException("-transcode-auth-source provider: the provider has no -auth-source");
                }
                yield provider.enabled()
                        ? new TranscodeCredentials(provider, null, null, "transcode auth inherited: " + provider.describe())
                        : new TranscodeCredentials(stripOnly(upstream, env), null, null,
                                "transcode auth strip-only (no provider auth; client credentials are not forwarded)");
            }
            case SECRET -> {
                AuthMode mode = auth.mode() == null ? AuthMode.AUTO : auth.mode();
                UpstreamAuth p = UpstreamAuth.resolve(new AuthConfig(auth.secret(), mode, auth.anthropicVersion()), upstream, env);
                yield new TranscodeCredentials(p, null, null, "transcode " + p.describe());
            }
            case INBOUND -> auth.mode() == null
                    ? new TranscodeCredentials(UpstreamAuth.disabled(), null, null, "transcode auth forwards the client credential (inbound)")
                    : new TranscodeCredentials(stripOnly(upstream, env), auth.mode().resolveFor(upstream), auth.anthropicVersion(),
                            "transcode auth re-attaches the client credential as " + auth.mode().resolveFor(upstream).label() + " (inbound)");
        };
    }

    /** Strip, then attach; the client's credential is read first when it is to be re-attached. */
    public void apply(HeaderEditor headers) {
        String inbound = reattach == null ? null : inboundCredential(headers);
        policy.apply(headers);
        if (reattach == null || inbound == null) {
            return;
        }
        switch (reattach.kind()) {
            case BEARER -> headers.add("Authorization", "Bearer " + inbound);
            case X_API_KEY -> {
                headers.add("X-Api-Key", inbound);
                headers.add(UpstreamAuth.ANTHROPIC_VERSION, anthropicVersion);
            }
            case API_KEY -> headers.add("Api-Key", inbound);
            case HEADER -> {
                headers.remove(reattach.headerName());
                headers.add(reattach.headerName(), inbound);
            }
            case AUTO, NONE -> throw new IllegalStateException("unresolved mode " + reattach.label());
        }
    }

    /** One line for the startup log; never the secret. */
    public String describe() {
        return description;
    }

    @Override
    public String toString() {
        return description;
    }

    private static UpstreamAuth stripOnly(URI upstream, Function<String, String> env) {
        return UpstreamAuth.resolve(new AuthConfig(new AuthSource.None(), AuthMode.AUTO, AuthConfig.DEFAULT_ANTHROPIC_VERSION), upstream, env);
    }

    /** The client's single credential: {@code X-Api-Key}, {@code Api-Key} or a bearer {@code Authorization}; null when none. */
    private static String inboundCredential(HeaderEditor headers) {
        for (String name : List.copyOf(headers.names())) {
            String lower = name.toLowerCase(Locale.ROOT);
            if (!CredentialHeaders.isStripped(lower)) {
                continue;
            }
            List<String> values = headers.values(name);
            if (values.isEmpty()) {
                continue;
            }
            String v = values.get(0);
            switch (lower) {
                case "x-api-key", "api-key" -> {
                    return v.trim();
                }
                case "authorization" -> {
                    if (v.regionMatches(true, 0, "Bearer ", 0, 7)) {
                        return v.substring(7).trim();
                    }
                }
                default -> {
                }
            }
        }
        return null;
    }
}
