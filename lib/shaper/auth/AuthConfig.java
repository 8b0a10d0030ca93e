package shaper.auth;

import java.util.Objects;
import java.util.regex.Pattern;

import shaper.config.ConfigException;

/**
 * One provider's upstream-auth settings as given on the command line, validated but not yet
 * resolved: no secret has been read. {@link UpstreamAuth#resolve} reads it once at startup.
 *
 * @param source           {@code -auth-source}; {@link AuthSource.Unset} disables auth
 * @param mode             {@code -auth-mode} / {@code -auth-header}; {@link AuthMode#AUTO} by default
 * @param anthropicVersion {@code -anthropic-version}, sent with {@code x-api-key}; default {@value #DEFAULT_ANTHROPIC_VERSION}
 */
public record AuthConfig(AuthSource source, AuthMode mode, String anthropicVersion) {
    /** The Messages API version attached in {@code x-api-key} mode unless {@code -anthropic-version} says otherwise. */
    public static final String DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** Auth disabled: requests are forwarded verbatim. */
    public static final AuthConfig DISABLED = new AuthConfig(new AuthSource.Unset(), AuthMode.AUTO, DEFAULT_ANTHROPIC_VERSION);

    public AuthConfig {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(anthropicVersion, "anthropicVersion");
        if (!VERSION.matcher(anthropicVersion).matches()) {
            throw new ConfigException("-anthropic-version: \"" + anthropicVersion + "\" (expected: a version such as "
                    + DEFAULT_ANTHROPIC_VERSION + ")");
        }
    }

    /**
     * Builds the config from the raw flag values; each may be {@code null} when the flag was absent.
     * A mode or header without a source is refused rather than silently forwarding verbatim.
     *
     * @throws ConfigException naming the offending flag
     */
    public static AuthConfig parse(String source, String mode, String authHeader, String anthropicVersion) {
        AuthSource parsedSource = AuthSource.parse(source);
        AuthMode parsedMode = AuthMode.parse(mode, authHeader);
        if (parsedSource instanceof AuthSource.Unset && (mode != null || authHeader != null)) {
            throw new ConfigException((mode != null ? "-auth-mode" : "-auth-header")
                    + " needs -auth-source (env:VAR, file:PATH or none)");
        }
        return new AuthConfig(parsedSource, parsedMode, anthropicVersion == null ? DEFAULT_ANTHROPIC_VERSION : anthropicVersion);
    }

    /** Whether auth is enabled at all (any source, including {@code none}). */
    public boolean enabled() {
        return !(source instanceof AuthSource.Unset);
    }
}
