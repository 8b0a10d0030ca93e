package shaper.transcode;

import java.util.Locale;
import java.util.Objects;

import shaper.auth.AuthConfig;
import shaper.auth.AuthMode;
import shaper.auth.AuthSource;
import shaper.config.ConfigException;

/**
 * The transcoded routes' target auth as given on the command line, validated against the
 * resolution table but not yet resolved (no secret read):
 *
 * <pre>
 * -transcode-auth      -transcode-auth-source   result
 * (unset)              (unset) | provider       inherit the provider's auth, else strip-only none
 * (unset)              env: | file:             credential attached in the derived (auto) way
 * (unset)              inbound                  the client credential forwarded (explicit opt-in)
 * none                 (any)                    strip client credentials, inject nothing
 * secret mode          env: | file:             credential attached in that mode
 * secret mode          inbound                  the client's single credential re-attached in that mode
 * secret mode          provider | (unset)       startup error
 * </pre>
 *
 * @param mode             the {@code -transcode-auth} mode, or null when unset
 * @param source           where the credential comes from
 * @param secret           the secret reference when {@code source} is {@link Source#SECRET}, else null
 * @param anthropicVersion sent with the {@code x-api-key} mode
 */
public record TranscodeAuth(AuthMode mode, Source source, AuthSource secret, String anthropicVersion) {
    /** The credential source of {@code -transcode-auth-source}. */
    public enum Source { UNSET, PROVIDER, INBOUND, SECRET }

    /** No transcode auth flags: inherit, else strip-only. */
    public static final TranscodeAuth INHERIT = new TranscodeAuth(null, Source.UNSET, null, AuthConfig.DEFAULT_ANTHROPIC_VERSION);

    public TranscodeAuth {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(anthropicVersion, "anthropicVersion");
        if ((source == Source.SECRET) != (secret != null)) {
            throw new IllegalArgumentException("secret: set exactly for SECRET (expected: consistent)");
        }
    }

    /**
     * Builds and validates the flags; each may be null when absent.
     *
     * @throws ConfigException for every startup error of the resolution table
     */
    public static TranscodeAuth parse(String mode, String source, String header, String anthropicVersion) {
        String version = anthropicVersion == null ? AuthConfig.DEFAULT_ANTHROPIC_VERSION : anthropicVersion;
        try {
            new AuthConfig(new AuthSource.Unset(), AuthMode.AUTO, version); // the same version rule as -anthropic-version
        } catch (ConfigException e) {
            throw new ConfigException("-transcode-anthropic-version: \"" + version + "\" is not a version");
        }
        Source s;
        AuthSource secret = null;
        if (source == null) {
            s = Source.UNSET;
        } else if (source.equals("inbound")) {
            s = Source.INBOUND;
        } else if (source.equals("provider")) {
            s = Source.PROVIDER;
        } else {
            s = Source.SECRET;
            secret = AuthSource.parse("-transcode-auth-source", source, false);
        }
        if (s == Source.PROVIDER && (mode != null || header != null)) {
            throw new ConfigException("-transcode-auth-source provider cannot be combined with -transcode-auth or -transcode-auth-header");
        }
        AuthMode m = mode(mode, header);
        if (m != null && m.kind() != AuthMode.Kind.NONE && s == Source.UNSET) {
            throw new ConfigException("-transcode-auth " + m.label()
                    + " requires a secret source or inbound credentials (-transcode-auth-source env:VAR, file:PATH or inbound)");
        }
        return new TranscodeAuth(m, s, secret, version);
    }

    private static AuthMode mode(String mode, String header) {
        if (mode == null) {
            if (header != null) {
                throw new ConfigException("-transcode-auth-header needs -transcode-auth header");
            }
            return null;
        }
        AuthMode.Kind kind = switch (mode.toLowerCase(Locale.ROOT)) {
            case "auto" -> AuthMode.Kind.AUTO;
            case "none" -> AuthMode.Kind.NONE;
            case "bearer" -> AuthMode.Kind.BEARER;
            case "x-api-key" -> AuthMode.Kind.X_API_KEY;
            case "api-key" -> AuthMode.Kind.API_KEY;
            case "header" -> AuthMode.Kind.HEADER;
            default -> throw new ConfigException("-transcode-auth: \"" + mode + "\" (expected: auto, none, bearer, x-api-key, api-key or header)");
        };
        if (kind == AuthMode.Kind.HEADER && header == null) {
            throw new ConfigException("-transcode-auth header requires -transcode-auth-header NAME");
        }
        if (kind != AuthMode.Kind.HEADER && header != null) {
            throw new ConfigException("-transcode-auth-header is only for -transcode-auth header");
        }
        try {
            return new AuthMode(kind, kind == AuthMode.Kind.HEADER ? header : null);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("-transcode-auth-header: " + e.getMessage());
        }
    }
}
