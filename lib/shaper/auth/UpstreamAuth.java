package shaper.auth;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One provider's resolved upstream-auth policy: immutable, safe to share across request threads.
 * {@link #apply} runs on the outgoing headers after hop-by-hop removal: when enabled it strips
 * {@link CredentialHeaders} first, then attaches exactly one credential (plus
 * {@code Anthropic-Version} in {@code x-api-key} mode); when disabled it touches nothing.
 * Neither {@link #describe()} nor {@link #toString()} ever contains the secret.
 */
public final class UpstreamAuth {
    /** The field that carries the Messages API version in {@code x-api-key} mode. */
    public static final String ANTHROPIC_VERSION = "Anthropic-Version";

    private static final UpstreamAuth DISABLED = new UpstreamAuth(false, null, null, null,
            "upstream auth disabled (requests forwarded verbatim)");

    private final boolean enabled;
    private final String credentialName;
    private final String credentialValue;
    private final String anthropicVersion;
    private final String description;

    private UpstreamAuth(boolean enabled, String credentialName, String credentialValue, String anthropicVersion,
            String description) {
        this.enabled = enabled;
        this.credentialName = credentialName;
        this.credentialValue = credentialValue;
        this.anthropicVersion = anthropicVersion;
        this.description = description;
    }

    /** No upstream auth: every request is forwarded with its headers as the client sent them. */
    public static UpstreamAuth disabled() {
        return DISABLED;
    }

    /**
     * Resolves the policy once at startup, reading the secret if the mode needs one
     * ({@code -auth-mode none} never reads it).
     *
     * @param upstream the provider's upstream URL, which decides {@code auto}
     * @param env      environment lookup, {@code System::getenv} in production
     * @throws shaper.config.ConfigException when the secret cannot be read; the message names the reference only
     */
    public static UpstreamAuth resolve(AuthConfig config, URI upstream, Function<String, String> env) {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(env, "env");
        AuthSource source = config.source();
        if (!config.enabled()) {
            return DISABLED;
        }
        if (!source.hasSecret()) {
            return new UpstreamAuth(true, null, null, null, "upstream auth strip-only (-auth-source none)");
        }
        if (config.mode().kind() == AuthMode.Kind.NONE) {
            return new UpstreamAuth(true, null, null, null,
                    "upstream auth strip-only (-auth-mode none; " + source.reference() + " not read)");
        }
        AuthMode mode = config.mode().resolveFor(upstream);
        String secret = Secrets.resolve("-auth-source", source, env);
        String how = mode.label() + (config.mode().kind() == AuthMode.Kind.AUTO ? " (auto)" : "")
                + " from " + source.reference();
        return switch (mode.kind()) {
            case BEARER -> new UpstreamAuth(true, "Authorization", "Bearer " + secret, null, "upstream auth " + how);
            case X_API_KEY -> new UpstreamAuth(true, "X-Api-Key", secret, config.anthropicVersion(),
                    "upstream auth " + how + " with " + ANTHROPIC_VERSION + " " + config.anthropicVersion());
            case API_KEY -> new UpstreamAuth(true, "Api-Key", secret, null, "upstream auth " + how);
            case HEADER -> new UpstreamAuth(true, mode.headerName(), secret, null, "upstream auth " + how);
            case AUTO, NONE -> throw new IllegalStateException("unresolved mode " + mode.label());
        };
    }

    /**
     * Rewrites the outgoing headers: strip every field on the credential strip list (any case)
     * and any client field named like the credential, then attach the configured credential. Call after hop-by-hop removal, so no client
     * {@code Connection} list can remove what is attached here. Does nothing when disabled.
     */
    public void apply(HeaderEditor headers) {
        if (!enabled) {
            return;
        }
        for (String name : List.copyOf(headers.names())) {
            if (CredentialHeaders.isStripped(name)) {
                headers.remove(name);
            }
        }
        if (credentialName != null) {
            // A custom credential field is not on the strip list; a client copy of it must go too.
            headers.remove(credentialName);
            headers.add(credentialName, credentialValue);
        }
        if (anthropicVersion != null) {
            headers.add(ANTHROPIC_VERSION, anthropicVersion);
        }
    }

    /** Whether client credentials are stripped (any {@code -auth-source}, including {@code none}). */
    public boolean enabled() {
        return enabled;
    }

    /** Whether a credential is attached (false when disabled or strip-only). */
    public boolean injects() {
        return credentialName != null;
    }

    /** One line for the startup log naming the mode and the reference ({@code env:VAR}), never the secret. */
    public String describe() {
        return description;
    }

    /** Same as {@link #describe()}: the secret must not reach a log through string concatenation either. */
    @Override
    public String toString() {
        return description;
    }

    /**
     * The startup note for a multi-provider configuration where some providers have auth
     * disabled, so an open relay is never silent: {@code "N of M providers configured without upstream auth"}.
     * Strip-only ({@code none}) counts as configured.
     *
     * @return empty for a single provider or when every provider has auth enabled
     */
    public static Optional<String> startupNote(List<UpstreamAuth> providers) {
        long without = providers.stream().filter(a -> !a.enabled()).count();
        return startupNote((int) without, providers.size());
    }

    /** {@link #startupNote(List)} from counts. */
    public static Optional<String> startupNote(int withoutAuth, int providers) {
        if (providers < 2 || withoutAuth < 1) {
            return Optional.empty();
        }
        return Optional.of(withoutAuth + " of " + providers + " providers configured without upstream auth");
    }
}
