package shaper.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import shaper.limit.LimiterSnapshot;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;
import shaper.testing.ScriptedUpstream;

/**
 * Every exit path gives its slot back: a few hundred concurrent clients, some leaving while queued,
 * right after the response head, or mid-stream, against a limit of 4 and a slow streaming upstream.
 */
class SlotLeakTest {
    private static final int CLIENTS = 300;
    private static final int LIMIT = 4;

    private enum Behaviour { COMPLETE, LEAVE_QUEUED, LEAVE_AFTER_HEAD, LEAVE_MID_STREAM }

    @Test
    void hundredsOfClientsWithRandomDisconnectsNeverExceedTheLimitNorLeakASlot() throws Exception {
        try (ScriptedUpstream up = ScriptedUpstream.start((req, ex) -> {
                ex.head(200, "Content-Type: text/event-stream", "Transfer-Encoding: chunked");
                for (int i = 0; i < 4; i++) {
                    ex.chunk("data: part " + i + "\n\n");
                    Thread.sleep(3); // the upstream's own pacing
                }
                ex.chunk("data: done\n\n");
                ex.endChunks();
            });
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-concurrency", String.valueOf(LIMIT),
                     // wall time: 300 clients need these cooldowns to keep ending; a clock moved for them would be a wall clock
                     "-release-cooldown", "20ms", "-cancel-cooldown", "20ms", "-queue-timeout", "0")) {
            Random random = new Random(20261129);
            List<Behaviour> plan = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                int r = random.nextInt(10);
                plan.add(r < 7 ? Behaviour.COMPLETE : Behaviour.values()[r - 6]);
            }
            AtomicInteger completed = new AtomicInteger();
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            CountDownLatch done = new CountDownLatch(CLIENTS);
            for (int i = 0; i < CLIENTS; i++) {
                Behaviour b = plan.get(i);
                int id = i;
                Thread.ofVirtual().start(() -> {
                    try (RawHttp raw = new RawHttp(shaper.port())) {
                        raw.send("POST /v1/messages?c=" + id + " HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n"
                                + "Content-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"stream\":true}");
                        switch (b) {
                            case LEAVE_QUEUED -> raw.socket().setSoLinger(true, 0);
                            case LEAVE_AFTER_HEAD -> {
                                raw.readHead();
                                raw.socket().setSoLinger(true, 0);
                            }
                            case LEAVE_MID_STREAM -> {
                                raw.readHead();
                                raw.readChunk();
                                raw.socket().setSoLinger(true, 0);
                            }
                            case COMPLETE -> {
                                if (raw.readHead().status() != 200) {
                                    problems.add(id + ": bad status");
                                }
                                StringBuilder body = new StringBuilder();
                                String chunk;
                                while ((chunk = raw.readChunk()) != null) {
                                    body.append(chunk);
                                }
                                if (body.toString().endsWith("data: done\n\n")) {
                                    completed.incrementAndGet();
                                } else {
                                    problems.add(id + ": incomplete body " + body);
                                }
                            }
                        }
                    } catch (Exception e) {
                        if (b == Behaviour.COMPLETE) {
                            problems.add(id + ": " + e);
                        }
                    } finally {
                        done.countDown();
                    }
                });
            }
            assertTrue(done.await(90, TimeUnit.SECONDS), "clients did not finish");
            long survivors = plan.stream().filter(b -> b == Behaviour.COMPLETE).count();
            assertTrue(problems.isEmpty(), problems.toString());
            assertEquals(survivors, completed.get(), "every surviving client got a complete response");
            assertTrue(up.peakInFlight() <= LIMIT, "upstream saw " + up.peakInFlight() + " concurrent requests");
            RunningShaper.await("every slot back and the queue empty", Duration.ofSeconds(10), () -> {
                List<LimiterSnapshot> s = shaper.server().limiters("default");
                return s.stream().allMatch(l -> l.inUse() == 0 && l.waiters() == 0 && l.cooling() == 0);
            });
            assertTrue(up.requests().size() <= CLIENTS);
        }
    }
}
