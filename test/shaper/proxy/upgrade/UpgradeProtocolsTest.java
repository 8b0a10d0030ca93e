package shaper.proxy.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** The check that a 101 switched only to a protocol the client offered, without sockets. */
class UpgradeProtocolsTest {

    @Test
    void aSwitchToAnOfferedProtocolPassesWhateverItsCase() {
        assertEquals(Optional.empty(), UpgradeProtocols.refusal(List.of("websocket"), List.of("WebSocket")));
        assertEquals(Optional.empty(), UpgradeProtocols.refusal(List.of("foo/2, websocket"), List.of(" websocket ")));
    }

    @Test
    void aSwitchToAnotherOrNoProtocolIsRefusedWithAReason() {
        assertEquals(Optional.of("upstream tried to switch to 'h2c' when 'websocket' was requested"),
                UpgradeProtocols.refusal(List.of("websocket"), List.of("h2c")));
        assertTrue(UpgradeProtocols.refusal(List.of("websocket"), List.of("websocket, h2c")).isPresent(), "every switched protocol was offered");
        assertTrue(UpgradeProtocols.refusal(List.of("websocket"), List.of("websocket/13")).isPresent(), "tokens compare whole");
        assertEquals(Optional.of("upstream answered 101 without naming a protocol when 'websocket' was requested"),
                UpgradeProtocols.refusal(List.of("websocket"), List.of()));
        assertTrue(UpgradeProtocols.refusal(List.of("websocket"), List.of(" , ")).isPresent());
    }

    @Test
    void aRefusalQuotesOnlyBoundedPrintableText() {
        String reason = UpgradeProtocols.refusal(List.of("websocket"), List.of("evil\" level=error x".repeat(10))).orElseThrow();
        assertFalse(reason.contains("\""), reason);
        assertTrue(reason.length() < 200, reason);
    }
}
