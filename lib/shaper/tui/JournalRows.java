package shaper.tui;

import java.util.List;

import shaper.server.ShaperServer;

/**
 * Copies a provider's journal (recent finished exchanges and the exchanges still in flight) into the
 * dashboard's rows.
 */
final class JournalRows {
    private JournalRows() {
    }

    /** Finished exchanges newer than {@code afterId}, newest first. */
    static List<RequestRow> recent(ShaperServer server, String provider, long afterId) {
        return List.of();
    }

    /** Exchanges still running, oldest first. */
    static List<InFlightRow> inFlight(ShaperServer server, String provider) {
        return List.of();
    }
}
