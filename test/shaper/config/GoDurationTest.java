package shaper.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class GoDurationTest {
    @Test
    void parsesEveryGoUnitAndCompound() {
        assertEquals(Duration.ofMillis(200), GoDuration.parse("200ms"));
        assertEquals(Duration.ofSeconds(30), GoDuration.parse("30s"));
        assertEquals(Duration.ofMinutes(2), GoDuration.parse("2m"));
        assertEquals(Duration.ofMinutes(90), GoDuration.parse("1h30m"));
        assertEquals(Duration.ofMillis(1500), GoDuration.parse("1.5s"));
        assertEquals(Duration.ofNanos(1_500), GoDuration.parse("1us500ns"));
        assertEquals(Duration.ofNanos(3_000), GoDuration.parse("3µs"));
        assertEquals(Duration.ofMinutes(-5), GoDuration.parse("-5m"));
        assertEquals(Duration.ZERO, GoDuration.parse("0"));
    }

    @Test
    void rejectsNumbersWithoutUnitsAndUnknownUnits() {
        for (String bad : new String[] {"", "5", "1d", "ms", "1.2.3s", "-", "1h-2m", "abc"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(bad), bad);
            assertEquals(true, e.getMessage().contains("\"" + bad + "\""), e.getMessage());
        }
    }

    @Test
    void formatsLikeGo() {
        assertEquals("0s", GoDuration.format(Duration.ZERO));
        assertEquals("200ms", GoDuration.format(Duration.ofMillis(200)));
        assertEquals("30s", GoDuration.format(Duration.ofSeconds(30)));
        assertEquals("1m30s", GoDuration.format(Duration.ofSeconds(90)));
        assertEquals("1h0m0s", GoDuration.format(Duration.ofHours(1)));
        assertEquals("1.5s", GoDuration.format(Duration.ofMillis(1500)));
    }
}
