package shaper.server;

import io.helidon.http.WritableHeaders;
import shaper.auth.ClientKeys;
import shaper.auth.UpstreamAuth;
import shaper.proxy.HeaderRewrite;

/**
 * One provider's credential step on the outgoing headers, in this order: the proxy's own client
 * key is removed ({@link ClientKeys#strip}), then the provider's policy strips every client
 * credential and attaches exactly one ({@link UpstreamAuth#apply}). With neither configured it
 * is {@link HeaderRewrite#NONE}, so an unconfigured proxy forwards headers verbatim.
 */
record CredentialRewrite(ClientKeys keys, UpstreamAuth auth) implements HeaderRewrite {
    static HeaderRewrite of(ClientKeys keys, UpstreamAuth auth) {
        return keys.required() || auth.enabled() ? new CredentialRewrite(keys, auth) : HeaderRewrite.NONE;
    }

    @Override
    public void apply(WritableHeaders<?> headers) {
        HelidonHeaderEditor editor = new HelidonHeaderEditor(headers);
        keys.strip(editor);
        auth.apply(editor);
    }

    /** What is stripped and attached, never a secret. */
    @Override
    public String toString() {
        return "CredentialRewrite[" + keys.describe() + "; " + auth.describe() + "]";
    }
}
