package shaper.tui;

import java.time.ZoneId;

/**
 * What a tab is drawn from: the frame, the provider on screen, the operator's choices, the
 * throughput history, the content width in columns, and the theme to draw with.
 */
record Context(Frame frame, ProviderFrame provider, ViewState state, Throughput throughput, int width, ZoneId zone, Theme theme) {
}
