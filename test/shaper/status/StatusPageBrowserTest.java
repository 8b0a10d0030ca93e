package shaper.status;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import shaper.ProjectRoot;
import shaper.limit.LimiterSnapshot;
import shaper.testing.HeadlessChromium;
import shaper.testing.HoldingUpstream;
import shaper.testing.RawHttp;
import shaper.testing.RunningShaper;

/**
 * The status page in a real browser: while requests queue behind a held slot, headless Chromium
 * renders the page from its live event stream and shows the queue depth; when the queue drains the
 * same page shows it without a reload. {@code SHAPER_WRITE_SCREENSHOT=1} keeps the screenshot as
 * {@code docs/status-page.png}.
 */
class StatusPageBrowserTest {
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String POST = "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

    @TempDir
    Path profile;

    private static int waiters(RunningShaper shaper) {
        return shaper.server().limiters("default").stream().mapToInt(LimiterSnapshot::waiters).sum();
    }

    private static void awaitRendered(HeadlessChromium browser, String id, String expected) throws Exception {
        AtomicReference<String> last = new AtomicReference<>();
        try {
            RunningShaper.await(id + " rendered as " + expected, BOUND, () -> {
                try {
                    last.set(browser.evaluate("document.getElementById('" + id + "')?.textContent ?? null"));
                } catch (Exception e) {
                    last.set(e.toString());
                }
                return expected.equals(last.get());
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " (last seen: " + last.get() + ")", e);
        }
    }

    @Test
    void theRenderedQueueDepthFollowsTheLiveQueue() throws Exception {
        assertTrue(HeadlessChromium.installed(), "Debian's chromium is needed (.ci/run installs it)");
        try (HoldingUpstream up = HoldingUpstream.start();
             RunningShaper shaper = RunningShaper.start("-upstream", up.url(), "-metrics-bind", "127.0.0.1:0", "-limit-all",
                     "-concurrency", "1", "-queue-timeout", "60s");
             RawHttp holder = new RawHttp(shaper.port());
             HeadlessChromium browser = HeadlessChromium.start(profile)) {
            holder.send(POST);
            RunningShaper.await("holder upstream", BOUND, () -> up.heads() == 1);
            try (RawHttp second = new RawHttp(shaper.port()); RawHttp third = new RawHttp(shaper.port())) {
                second.send(POST);
                third.send(POST);
                RunningShaper.await("two queued", BOUND, () -> waiters(shaper) == 2);
                browser.navigate("http://127.0.0.1:" + shaper.server().metricsPort().orElseThrow() + "/");
                awaitRendered(browser, "queued-default", "2");
                awaitRendered(browser, "active-default", "1");
                byte[] png = browser.screenshot();
                assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
                if ("1".equals(System.getenv("SHAPER_WRITE_SCREENSHOT"))) {
                    Files.write(ProjectRoot.find().resolve("docs/status-page.png"), png);
                }
            } // the two queued clients leave
            RunningShaper.await("queue drained", BOUND, () -> waiters(shaper) == 0);
            awaitRendered(browser, "queued-default", "0");
            assertEquals("live", browser.evaluate("document.getElementById('conn').textContent"));
        }
    }
}
