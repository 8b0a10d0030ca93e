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
import shaper.ratelimit.RateLimitKind;
import shaper.ratelimit.RateLimitReading;
import shaper.ratelimit.UpstreamRateLimits;

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
            assertEquals(Tab.values().length, d.hits().tabs().size(), screen);
            assertTrue(d.hits().tabs().getLast().to() <= 40, "every tab label on screen:\n" + screen);
            assertTrue(screen.contains("1 Dash") && screen.contains("Throughput (10s)") && screen.contains("q quit"), screen);
            assertTrue(d.rows().getFirst().toString().contains("active 4/6") || providers > 1, "the load stays in the header:\n" + screen);
        }
    }

    @Test
    void tokensHeldSlotsAndLearnedLimitsAreDrawnFromTheFrame() {
        Frame frame = frame(1);
        ViewState state = new ViewState();
        state.tab = Tab.TOKENS;
        String tokens = screen(frame, state, 140, 40);
        assertTrue(tokens.contains("Tokens/min (60s)  13.0k   in 12.3k · out 678"), tokens);
        assertTrue(tokens.matches("(?s).*claude-very-long\\S*\\s+20\\s+12\\.0k\\s+600\\s+1\\.0M\\s+7.*"), tokens);
        assertTrue(tokens.matches("(?s).*requests\\s+12 of 50 left\\s+reset in 7\\.0s.*"), tokens);
        assertTrue(tokens.matches("(?s).*input\\s+1\\.2k of 30\\.0k left\\s+reset in 40s.*"), tokens);
        assertTrue(tokens.contains("retry-after     holds for 3.0s"), tokens);
        assertTrue(tokens.contains("Budget (pacing)   2 waiting for tokens") && tokens.matches("(?s).*input\\s+-250 left   3 waited.*"), tokens);
        state.tab = Tab.CONCURRENCY;
        String conc = screen(frame, state, 170, 40);
        assertTrue(conc.contains("3/4 active   3 waiting (oldest 1.5s)   1 held (failure hold)   limit 4 (adaptive 1..4)   ↓ from 5 3.0s ago"), conc);
        assertTrue(conc.contains("4/6 active (67%) · 1 held (failure hold)"), "the gauge counts the held slot apart:\n" + conc);
        assertTrue(conc.matches("(?s).*○ queued\\s+limited\\s+background\\s+POST\\s+200ms\\s+/v1/messages  waiting for tokens \\(input\\).*"), conc);
    }

    private static String screen(Frame frame, ViewState state, int w, int h) {
        Screen.Drawn d = Screen.render(frame, state, new Throughput(), Theme.dark(), List.of(), w, h, true, ZoneOffset.UTC);
        return String.join("\n", d.rows().stream().map(AttributedString::toString).toList());
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
            List<InFlightRow> inFlight = List.of(new InFlightRow("POST", "/v1/messages", true, false, Duration.ofSeconds(3), "", "interactive"),
                    new InFlightRow("POST", "/v1/messages", true, true, Duration.ofMillis(200), "waiting for tokens (input)", "background"));
            List<RouteStat> routes = List.of(new RouteStat("POST /v1/messages", 20, 18, 1, 1, 0, 1.5),
                    new RouteStat("GET /" + "very-long-segment/".repeat(12), 2, 2, 0, 0, 1, 0.2));
            SlotDetail slots = new SlotDetail(Map.of(pool.name(), 1), List.of("failure hold"),
                    Map.of(pool.name(), new SlotDetail.LimitMove(5, 4, NOW.minusSeconds(3))), true, 1);
            Map<RateLimitKind, RateLimitReading> readings = Map.of(RateLimitKind.REQUESTS, new RateLimitReading(50, 12, NOW.plusSeconds(7), NOW),
                    RateLimitKind.INPUT_TOKENS, new RateLimitReading(30_000, 1_234, NOW.plusSeconds(40), NOW));
            TokenFrame tokens = new TokenFrame(12_345, 678, List.of(new ModelRow("claude-" + "very-long-model-name-".repeat(4), 20, 12_000, 600,
                    1_000_000, 7), new ModelRow("other", 1, 5, 5, 0, 0)), new UpstreamRateLimits.State(readings, NOW.plusSeconds(3)),
                    Map.of(RateLimitKind.INPUT_TOKENS, -250.5), Map.of("input_tokens", 3L), 2);
            ps.add(new ProviderFrame(i == 0 ? "alpha" : i == 1 ? "beta" : "provider-" + i, "/p" + i, "https://api.example.com",
                    pool, List.of(route), null, null, breaker, counters, rows, inFlight, routes, slots, tokens));
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
