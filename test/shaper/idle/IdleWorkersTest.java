package shaper.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * README ("Idle workers sleep"): with no traffic the proxy's log writer and upstream-call watch
 * park without a timeout (no periodic wake-ups), and the next request wakes them: its log line
 * comes out at once, not at the next tick or at stop.
 */
class IdleWorkersTest {
    private static final Set<String> WORKERS = Set.of("shaper-log", "shaper-call-watch");

    @Test
    void anIdleProxysWorkersSleepAndTheNextRequestWakesThem() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> ex.respond(200, "{}", "Content-Type: application/json"));
             RunningShaper shaper = RunningShaper.start("-upstream", up.url())) {
            get(shaper);
            RunningShaper.await("the first exchange logged", Duration.ofSeconds(5), () -> shaper.logLines("exchange ").size() == 1);
            RunningShaper.await("the log writer and the call watch asleep (untimed park)", Duration.ofSeconds(5),
                    IdleWorkersTest::workersAsleep);

            get(shaper);
            // asleep, the writer only prints when the new line wakes it; without that the line waits for stop
            RunningShaper.await("the second exchange logged while the proxy runs", Duration.ofSeconds(2),
                    () -> shaper.logLines("exchange ").size() == 2);
            RunningShaper.await("asleep again once idle", Duration.ofSeconds(5), IdleWorkersTest::workersAsleep);
        }
    }

    private static void get(RunningShaper shaper) throws IOException {
        try (RawHttp raw = new RawHttp(shaper.port())) {
            raw.send("GET /v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertEquals(200, raw.readHead().status());
        }
    }

    /** Every live log writer and call watch thread is parked without a timeout (TIMED_WAITING is a tick). */
    private static boolean workersAsleep() {
        List<Thread> workers = Thread.getAllStackTraces().keySet().stream().filter(t -> WORKERS.contains(t.getName())).toList();
        assertFalse(workers.isEmpty(), "the proxy's workers are running");
        return workers.stream().map(Thread::getName).distinct().count() == WORKERS.size()
                && workers.stream().allMatch(t -> t.getState() == Thread.State.WAITING);
    }
}
