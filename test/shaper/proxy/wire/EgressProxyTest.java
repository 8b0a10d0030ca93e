package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;

import shaper.testing.EgressDaemon;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;
import shaper.testing.TestNet;

/**
 * Upstream connections through a real forward proxy: squid asked with {@code CONNECT}, or dante
 * over SOCKS5, chosen by {@code -upstream-proxy} or by the environment's {@code http_proxy} /
 * {@code HTTPS_PROXY} family with {@code no_proxy} honoured; an egress proxy that cannot be
 * reached is named in the error. The upstream here is plain HTTP on loopback, reached by a name
 * only squid's hosts file knows where the environment decides, so a request that bypassed the
 * proxy could not arrive.
 */
class EgressProxyTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String NAME = "upstream.egress.test";

    private static HttpResponse<String> get(RunningShaper shaper) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri("/v1/models")).timeout(HostileUpstream.BOUND).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void requestsGoThroughSquidByTheFlag() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("via squid");
             EgressDaemon squid = EgressDaemon.squid("")) {
            try (RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-upstream-proxy", "http://127.0.0.1:" + squid.port())) {
                HttpResponse<String> r = get(shaper);
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("via squid", r.body());
                assertEquals("/v1/models", up.onlyRequest().target(), "a tunnel carries the request as sent, in origin form");
            }
            // squid logs a tunnel when it ends: closing the proxy closed the pooled connection
            RunningShaper.await("squid logged the tunnel", HostileUpstream.BOUND, () -> squid.log().contains("CONNECT 127.0.0.1:" + up.port()));
        }
    }

    @Test
    void requestsGoThroughDanteOverSocks5() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("via dante");
             EgressDaemon dante = EgressDaemon.dante()) {
            try (RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-upstream-proxy", "socks5://127.0.0.1:" + dante.port())) {
                HttpResponse<String> r = get(shaper);
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("via dante", r.body());
                assertEquals(1, up.requests().size());
            }
            RunningShaper.await("dante logged the tunnel", HostileUpstream.BOUND, () -> dante.log().contains("127.0.0.1." + up.port()));
        }
    }

    @Test
    void theEnvironmentsProxyIsUsedAndNoProxyBypassesIt() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.ok("via the environment");
             EgressDaemon squid = EgressDaemon.squid("127.0.0.1 " + NAME)) {
            String upstream = "http://" + NAME + ":" + up.port();
            String proxy = "http://127.0.0.1:" + squid.port();
            try (RunningShaper shaper = RunningShaper.withEnvironment(Map.of("HTTP_PROXY", proxy), "-upstream", upstream, "-retry", "0")) {
                HttpResponse<String> r = get(shaper);
                assertEquals(200, r.statusCode(), r.body());
                assertEquals("via the environment", r.body());
                assertTrue(shaper.stdout().contains("egress=http://127.0.0.1:" + squid.port() + " from=HTTP_PROXY"), shaper.stdout());
            }
            try (RunningShaper shaper = RunningShaper.withEnvironment(Map.of("http_proxy", proxy, "no_proxy", "localhost,.egress.test"),
                    "-upstream", upstream, "-retry", "0")) {
                assertEquals(502, get(shaper).statusCode(), "bypassing the proxy, the name resolves nowhere");
                RunningShaper.await("the error logged", HostileUpstream.BOUND, () -> !shaper.logLines("upstream error").isEmpty());
                assertTrue(shaper.logLines("upstream error").getFirst().contains("unknown host"), shaper.stdout());
            }
            assertEquals(1, up.requests().size(), "only the proxied request arrived");
        }
    }

    @Test
    void anUnreachableEgressProxyIsNamedInTheError() throws Exception {
        int closed = TestNet.freePort();
        try (ScriptedUpstream up = ScriptedUpstream.ok("never");
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-retry", "0", "-upstream-proxy", "http://127.0.0.1:" + closed)) {
            HttpResponse<String> r = get(shaper);
            assertEquals(502, r.statusCode());
            RunningShaper.await("the error logged", HostileUpstream.BOUND, () -> !shaper.logLines("upstream error").isEmpty());
            assertTrue(shaper.logLines("upstream error").getFirst().contains("cannot reach egress proxy http://127.0.0.1:" + closed),
                    shaper.stdout());
            assertEquals(0, up.requests().size());
        }
    }

    @Test
    void aProxyUrlWithCredentialsOrAnotherSchemeIsRefusedAtStartup() {
        for (String bad : new String[] {"http://user:secret@127.0.0.1:3128", "ftp://127.0.0.1:21", "http://127.0.0.1:3128/path"}) {
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> RunningShaper.start("-upstream", "http://127.0.0.1:1", "-upstream-proxy", bad).close(), bad);
            assertTrue(String.valueOf(e.getMessage()).contains("-upstream-proxy"), bad + ": " + e.getMessage());
            assertFalse(String.valueOf(e.getMessage()).contains("secret"), "no secret in the message: " + e.getMessage());
        }
    }
}
