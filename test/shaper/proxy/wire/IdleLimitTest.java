package shaper.proxy.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import shaper.limit.ManualTimeSource;
import shaper.observe.ExchangeCounters;
import shaper.testing.ConnectionOrder;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * A pooled connection is given up before the upstream would close it: after
 * {@code -upstream-idle-timeout} (3 s by default, under the 5 s of Node's and uvicorn's servers), or
 * a second before the {@code Keep-Alive: timeout=N} the upstream announced. Before, a connection
 * idled up to 90 s, and a request sent just as the upstream closed it failed with a 502 though
 * the upstream never saw it. Time moves on the provider's clock, so nothing here sleeps.
 */
class IdleLimitTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static String get(RunningShaper shaper, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(shaper.uri(path)).timeout(HostileUpstream.BOUND).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The connection is pooled (and stamped with the clock's time) just before the exchange is counted. */
    private static void awaitCounted(RunningShaper shaper, int exchanges) {
        RunningShaper.await(exchanges + " exchanges counted", HostileUpstream.BOUND, () -> {
            ExchangeCounters.Snapshot counted = shaper.server().counters("default").snapshot();
            return counted.cleanProxied() + counted.cleanPassthrough() == exchanges;
        });
    }

    private static ScriptedUpstream upstream(ConnectionOrder order, String... headers) {
        return ScriptedUpstream.start((req, ex) -> ex.respond(200, "on connection " + order.arrived(ex), headers));
    }

    /** Three requests: the second after {@code first} of idling, the third after {@code second} more; the connections they used. */
    private static List<Integer> afterIdling(ScriptedUpstream up, ConnectionOrder order, Duration first, Duration second, String... flags)
            throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        String[] argv = new String[flags.length + 2];
        argv[0] = "-upstream";
        argv[1] = up.url();
        System.arraycopy(flags, 0, argv, 2, flags.length);
        try (RunningShaper shaper = RunningShaper.start(time, argv)) {
            get(shaper, "/v1/a");
            awaitCounted(shaper, 1);
            time.advance(first);
            get(shaper, "/v1/b");
            awaitCounted(shaper, 2);
            time.advance(second);
            get(shaper, "/v1/c");
            return order.arrivals();
        }
    }

    @Test
    void aConnectionIdleLongerThanTheIdleTimeoutIsNotReused() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order)) {
            assertEquals(List.of(1, 1, 2), afterIdling(up, order, Duration.ofMillis(2900), Duration.ofMillis(3100)),
                    "2.9 s idle: reused; 3.1 s: a fresh connection (default -upstream-idle-timeout 3s)");
        }
    }

    @Test
    void theIdleTimeoutIsAFlag() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order)) {
            assertEquals(List.of(1, 1, 2), afterIdling(up, order, Duration.ofSeconds(50), Duration.ofSeconds(61),
                    "-upstream-idle-timeout", "1m"));
        }
    }

    @Test
    void anAnnouncedKeepAliveTimeoutEndsReuseASecondBeforeIt() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, "Keep-Alive: timeout=5, max=1000")) {
            assertEquals(List.of(1, 1, 2), afterIdling(up, order, Duration.ofMillis(3900), Duration.ofMillis(4100),
                    "-upstream-idle-timeout", "1m"), "announced 5 s: reused at 3.9 s idle, not at 4.1 s");
        }
    }

    @Test
    void anAnnouncedTimeoutOfOneSecondOrLessMeansNoReuse() throws Exception {
        ConnectionOrder order = new ConnectionOrder();
        try (ScriptedUpstream up = upstream(order, "Keep-Alive: timeout=1")) {
            assertEquals(List.of(1, 2, 3), afterIdling(up, order, Duration.ZERO, Duration.ZERO, "-upstream-idle-timeout", "1m"));
        }
    }
}
