package shaper.tui;

import java.time.ZoneId;

/**
 * What a tab is drawn from: the frame, the provider on screen, the operator's choices, the
 * throughput history, and the content width in columns.
 */
record Context(Frame frame, ProviderFrame provider, ViewState state, Throughput throughput, int width, ZoneId zone) {
}
