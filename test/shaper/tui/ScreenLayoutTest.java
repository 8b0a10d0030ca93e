package shaper.tui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jline.utils.AttributedString;
import org.junit.jupiter.api.Test;

import shaper.breaker.BreakerSnapshot;
import shaper.breaker.BreakerState;
import shaper.limit.LimiterSnapshot;
import shaper.observe.ExchangeCounters;

/**
 * The screen composer on synthetic frames, without a terminal: every tab and overlay at every size
 * from tiny to wide draws exactly one row per terminal row, each exactly as wide as the terminal;
 * chips follow the header's placement rule; clicks land on what was drawn.
 */
class ScreenLayoutTest {
    private static final Instant NOW = Instant.parse("2026-12-01T08:00:00Z");

    @Test
    @org.junit.jupiter.api.Timeout(value = 300, unit = java.util.concurrent.TimeUnit.SECONDS) // about 7,000 screens
    void everyTabAndOverlayFitsEverySize() {
        Theme theme = Theme.dark();
        for (int providers : new int[]{1, 2, 9}) {
            Frame frame = frame(providers);
            for (int w = 30; w <= 200; w += 11) {
                for (int h : new int[]{5, 13, 14, 20, 24, 40}) {
                    for (Tab tab : Tab.values()) {
                        for (int overlay = 0; overlay < 4; overlay++) {
                            ViewState state = new ViewState();
                            state.tab = tab;
                            state.provider = providers - 1;
                            state.overlay = switch (overlay) {
                                case 1 -> new Overlay.Help();
                                case 2 -> new Overlay.ConfirmReset();
                                case 3 -> Details.of(frame.providers().getLast().requests().getFirst(), ZoneOffset.UTC);
                                default -> null;
                            };
                            Screen.Drawn d = Screen.render(frame, state, new Throughput(), theme, List.of(), w, h, true, ZoneOffset.UTC);
                            String where = providers + " providers, " + tab + ", overlay " + overlay + " at " + w + "x" + h;
                            assertEquals(h, d.rows().size(), where);
                            for (AttributedString row : d.rows()) {
                                assertEquals(w, row.columnLength(), where + ": " + row);
                                assertFalse(row.toString().chars().anyMatch(c -> c < 0x20), where + ": control character in " + row);
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void aTerminalBelowFortyByTwelveGetsOneLineNotice() {
        Screen.Drawn d = Screen.render(frame(1), new ViewState(), new Throughput(), Theme.dark(), List.of(), 39, 12, true, ZoneOffset.UTC);
        assertTrue(d.rows().getFirst().toString().startsWith("Terminal too small (39x12)"), d.rows().getFirst().toString());
        assertTrue(d.rows().subList(1, 12).stream().allMatch(r -> r.toString().isBlank()));
        assertTrue(d.hits().tooSmall());
    }

    @Test
    void fortyByTwelveDrawsTheBodyWithEveryTabReachable() {
        for (int providers : new int[]{1, 2}) {
            Screen.Drawn d = Screen.render(frame(providers), new ViewState(), new Throughput(), Theme.dark(), List.of(), 40, 12, true,
                    ZoneOffset.UTC);
            String screen = String.join("\n", d.rows().stream().map(AttributedString::toString).toList());
            assertFalse(d.hits().tooSmall(), screen);
            assertEquals(6, d.hits().tabs().size(), screen);
            assertTrue(d.hits().tabs().getLast().to() <= 40, "every tab label on screen:\n" + screen);
            assertTrue(screen.contains("1 Dash") && screen.contains("Throughput (10s)") && screen.contains("q quit"), screen);
            assertTrue(d.rows().getFirst().toString().contains("active 5/6") || providers > 1, "the load stays in the header:\n" + screen);
        }
    }

    @Test
    void toastsStackAtTheBottomRightNewestLowest() {
        Toasts toasts = new Toasts(java.time.Clock.fixed(NOW, ZoneOffset.UTC));
        for (int i = 1; i <= 4; i++) {
            toasts.post(i == 4 ? Toasts.Kind.ERROR : Toasts.Kind.OK, "toast " + i);
        }
        List<Toasts.Toast> showing = toasts.showing(NOW);
        assertEquals(List.of("toast 2", "toast 3", "toast 4"), showing.stream().map(Toasts.Toast::text).toList(), "at most three");
        assertTrue(toasts.showing(NOW.plus(Toasts.LASTS)).isEmpty(), "gone after five seconds");
        Screen.Drawn d = Screen.render(frame(1), new ViewState(), new Throughput(), Theme.dark(), showing, 40, 12, true, ZoneOffset.UTC);
        List<String> rows = d.rows().stream().map(AttributedString::toString).toList();
        int footer = rows.size() - 1;
        assertTrue(rows.get(footer - 1).contains(" ✗ toast 4 ") && rows.get(footer - 3).contains(" ✓ toast 2 "), String.join("\n", rows));
    }

    @Test
    void terminalRepliesReadTheBackgroundAndTheEndOfTheReplies() {
        assertEquals(0xffffff, TerminalReplies.background("11;rgb:ffff/ffff/ffff").orElseThrow());
        assertEquals(0x0d1117, TerminalReplies.background("11;rgb:0d0d/1111/1717").orElseThrow());
        assertEquals(0xff8800, TerminalReplies.background("11;rgb:f/8/0").orElseThrow(), "one hex digit scales to eight bits");
        assertTrue(TerminalReplies.background("10;rgb:ffff/ffff/ffff").isEmpty());
        assertTrue(TerminalReplies.background("11;rgb:zz/00/00").isEmpty());
        assertTrue(TerminalReplies.deviceAttributes("?1;2c"));
        assertFalse(TerminalReplies.deviceAttributes("2;5R"));
        assertTrue(Theme.isLight(0xffffff) && !Theme.isLight(0x0d1117));
        assertEquals(true, TerminalReplies.lightFromColorFgBg("0;15").orElseThrow());
        assertEquals(false, TerminalReplies.lightFromColorFgBg("15;0").orElseThrow());
        assertTrue(TerminalReplies.lightFromColorFgBg(null).isEmpty());
    }

    @Test
    void chipsShareRowZeroOnlyWhenTheFirstFitsWhole() {
        Frame frame = frame(2);
        Header.Drawn wide = Header.render(Theme.dark(), frame, 0, 120, 3);
        assertEquals(1, wide.rows().size(), "both chips beside the identity at 120 columns");
        assertTrue(wide.chips().stream().allMatch(s -> s.row() == 0));
        int identity = Line.columns(" ⚡ shaper  127.0.0.1:8080  ");
        Header.Drawn narrow = Header.render(Theme.dark(), frame, 0, identity + 5, 3);
        assertEquals(0, narrow.chips().stream().filter(s -> s.row() == 0).count(), "no truncated chip on row 0");
        assertTrue(narrow.chips().stream().allMatch(s -> s.row() >= 1), "chips wrap below");
        Header.Drawn capped = Header.render(Theme.dark(), frame(9), 4, 60, 1);
        assertTrue(capped.chips().isEmpty(), "chips left out when they need more rows than allowed");
        assertTrue(capped.rows().getFirst().toString().contains("provider 5/9"), capped.rows().getFirst().toString());
    }

    @Test
    void clicksOnAChipATabAndARowLandOnWhatWasDrawn() {
        Frame frame = frame(2);
        ViewState state = new ViewState();
        Controller c = new Controller(state, new FixedFrames(frame), new Throughput(), new Toasts(java.time.Clock.systemUTC()));
        Screen.Drawn d = Screen.render(frame, state, new Throughput(), Theme.dark(), List.of(), 120, 40, true, ZoneOffset.UTC);
        Span beta = d.hits().chips().get(1);
        c.apply(new Input.Mouse(Input.MouseKind.PRESS, beta.from(), beta.row()), d.hits(), NOW);
        assertEquals(1, state.provider);
        Span requests = d.hits().tabs().get(Tab.REQUESTS.ordinal());
        c.apply(new Input.Mouse(Input.MouseKind.PRESS, requests.to() - 1, requests.row()), d.hits(), NOW);
        assertEquals(Tab.REQUESTS, state.tab);
        d = Screen.render(frame, state, new Throughput(), Theme.dark(), List.of(), 120, 40, true, ZoneOffset.UTC);
        c.apply(new Input.Mouse(Input.MouseKind.PRESS, 10, d.hits().contentTop() + 2), d.hits(), NOW);
        assertEquals(2, state.cursor());
        c.apply(Input.Key.of(Input.Name.ENTER), d.hits(), NOW);
        assertTrue(state.overlay instanceof Overlay.Detail detail && detail.lines().getFirst().contains("/v1/r2"), String.valueOf(state.overlay));
        c.apply(new Input.Mouse(Input.MouseKind.WHEEL_DOWN, 10, 10), d.hits(), NOW);
        c.apply(Input.Key.of(Input.Name.ESCAPE), d.hits(), NOW);
        assertEquals(null, state.overlay);
    }

    /** A frame of {@code n} providers with traffic: queued and active requests, finished rows, logs. */
    static Frame frame(int n) {
        List<ProviderFrame> ps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            LimiterSnapshot pool = new LimiterSnapshot("p" + i + " default", 4, 4, 4, 0, 0, 3, Duration.ofMillis(1500));
            LimiterSnapshot route = new LimiterSnapshot("p" + i + " POST /v1/messages", 2, 2, 1, 0, 1, 0, Duration.ZERO);
            BreakerSnapshot breaker = new BreakerSnapshot(BreakerState.HALF_OPEN, 3, 2, Duration.ofSeconds(30), true,
                    Duration.ofSeconds(2), Duration.ZERO);
            ExchangeCounters.Snapshot counters = new ExchangeCounters.Snapshot(10, 2, 1, 1, 0, 0, 0, 1, 0, new long[]{0, 12, 0, 1, 1});
            List<RequestRow> rows = new ArrayList<>();
            for (int r = 0; r < 30; r++) {
                rows.add(new RequestRow(100 - r, NOW.minusSeconds(r), r % 2 == 0 ? "POST" : "GET",
                        "/v1/r" + r + "?q=日本語\u001b[31m", r % 5 == 0 ? 502 : 200, true, r % 7 == 0,
                        r % 7 == 0 ? "aborted" : "clean", r % 7 == 0 ? "client_left" : "completed", 1, Duration.ofMillis(r * 10),
                        Duration.ofMillis(200), r % 7 == 0 ? null : Duration.ofMillis(50), Duration.ofMillis(300 + r * 10),
                        r % 3 == 0 ? "text/event-stream" : "application/json", 1234L * r,
                        List.of(Map.entry("content-type", "application/json"), Map.entry("x-api-key", "sk-test")),
                        List.of(Map.entry("content-type", "application/json"), Map.entry("x-api-key", "(set by the proxy; value hidden)")),
                        List.of(Map.entry("content-type", "application/json")), "{\"model\":\"x\"}", "{\"ok\":true}\nsecond line", "x"));
            }
            List<InFlightRow> inFlight = List.of(new InFlightRow("POST", "/v1/messages", true, false, Duration.ofSeconds(3)),
                    new InFlightRow("GET", "/v1/models", false, true, Duration.ofMillis(200)));
            List<RouteStat> routes = List.of(new RouteStat("POST /v1/messages", 20, 18, 1, 1, 0, 1.5),
                    new RouteStat("GET /" + "very-long-segment/".repeat(12), 2, 2, 0, 0, 1, 0.2));
            ps.add(new ProviderFrame(i == 0 ? "alpha" : i == 1 ? "beta" : "provider-" + i, "/p" + i, "https://api.example.com",
                    pool, List.of(route), null, null, breaker, counters, rows, inFlight, routes));
        }
        List<String> logs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            logs.add("2026-12-01T08:00:00Z exchange provider=alpha method=GET path=/v1/r" + i + " status=200 outcome=clean");
        }
        return new Frame(NOW, "127.0.0.1:8080", ps, logs);
    }

    /** A source that always returns one frame; reset does nothing. */
    record FixedFrames(Frame frame) implements FrameSource {
        @Override
        public Frame take() {
            return frame;
        }

        @Override
        public void reset() {
        }
    }
}
