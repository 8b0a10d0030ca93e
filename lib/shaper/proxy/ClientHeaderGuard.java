package shaper.proxy;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.WebClientServiceRequest;
import io.helidon.webclient.api.WebClientServiceResponse;
import io.helidon.webclient.spi.WebClientService;

/**
 * Undoes what the HTTP client adds on its own: Helidon sets {@code User-Agent: Helidon x.y} when a
 * request has none, which would announce the proxy to the upstream. A request whose client sent
 * no User-Agent is marked with {@link #NO_USER_AGENT} and leaves without one.
 */
final class ClientHeaderGuard implements WebClientService {
    static final String NO_USER_AGENT = "shaper.no-user-agent";

    @Override
    public WebClientServiceResponse handle(Chain chain, WebClientServiceRequest request) {
        if (request.properties().containsKey(NO_USER_AGENT)) {
            request.headers().remove(HeaderNames.USER_AGENT);
        }
        return chain.proceed(request);
    }

    @Override
    public String type() {
        return "shaper-header-guard";
    }
}
