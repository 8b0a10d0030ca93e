/**
 * Credential policy at the proxy's two edges; no HTTP wiring, so it works on any HTTP library
 * through {@link shaper.auth.HeaderView} and {@link shaper.auth.HeaderEditor}.
 *
 * <h2>Upstream auth (provider scope)</h2>
 * {@link shaper.auth.AuthConfig} holds {@code -auth-source}, {@code -auth-mode} / {@code -auth-header}
 * and {@code -anthropic-version}; {@link shaper.auth.UpstreamAuth#resolve} reads the secret once at
 * startup ({@code env:VAR} or {@code file:PATH}, at most 64 KiB, trimmed, blank refused) and fails
 * with a {@link shaper.config.ConfigException} (exit 1) that names the reference, never the value.
 *
 * <p>Per request, on the outgoing headers, after hop-by-hop and forwarding removal:
 * <pre>
 *   client headers ─► hop-by-hop / Connection-listed / X-Forwarded-* removed   (shaper.proxy)
 *                 ─► ClientKeys.strip          (only when -client-key is set)
 *                 ─► UpstreamAuth.apply:  1. strip CredentialHeaders (any case)
 *                                         2. add exactly one credential (+ Anthropic-Version)
 *                 ─► upstream
 * </pre>
 * Strip-then-inject is what makes a leak structural rather than discouraged: whatever credential
 * a client sent (an OpenAI key sent to the Anthropic mount, a cloud signature, a second
 * {@code Authorization}) is gone before the provider's own is attached, so exactly one credential
 * leaves. Running after hop-by-hop removal means a client {@code Connection: X-Api-Key} can only
 * remove the client's own field, never the injected one. {@code Cookie} is never stripped.
 * Disabled ({@code -auth-source} unset) touches nothing; {@code none} strips and injects nothing.
 *
 * <h2>Client keys (server scope)</h2>
 * {@link shaper.auth.ClientKeys} admits a request only when it presents a configured key as
 * {@code Authorization: Bearer}, {@code x-api-key} or {@code api-key}; the comparison is
 * constant-time over SHA-256 digests. The admission key is stripped before forwarding; a refusal
 * is a 401 JSON body in the client's dialect (Anthropic or OpenAI).
 *
 * <h2>Never logged</h2>
 * Secret values and client keys, configured or presented: they are absent from every exception
 * message, {@code describe()}, {@code toString()} and rejection body. Only references
 * ({@code env:VAR}, {@code file:PATH}) are printed. An unrecognized {@code -auth-source} value is
 * not echoed either, since it may be a secret pasted onto the command line.
 *
 * <p>Thread-safety: every type here is immutable after startup and safe to share across request
 * threads; {@code HeaderEditor} instances belong to one request.
 */
package shaper.auth;
