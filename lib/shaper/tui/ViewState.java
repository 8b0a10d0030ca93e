package shaper.tui;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * What the operator has chosen: the tab, the provider, each tab's cursor and scroll position, the
 * filters and the open overlay. Mutable, and confined to the render loop's thread; the frames it is
 * drawn with are immutable.
 */
final class ViewState {
    /** The Network tab's status filter, cycled with {@code s}. */
    enum StatusFilter {
        ALL, S2XX, S4XX, S5XX;

        String label() {
            return this == ALL ? "all" : name().substring(1).toLowerCase(java.util.Locale.ROOT);
        }

        boolean accepts(int status) {
            return switch (this) {
                case ALL -> true;
                case S2XX -> status >= 200 && status < 300;
                case S4XX -> status >= 400 && status < 500;
                case S5XX -> status >= 500 && status < 600;
            };
        }

        StatusFilter next() {
            return values()[(ordinal() + 1) % values().length];
        }
    }

    Tab tab = Tab.DASHBOARD;
    int provider;
    Overlay overlay;
    /** Whether {@code /} is capturing keystrokes into the current tab's filter. */
    boolean editingFilter;
    RequestRow.Kind kind = RequestRow.Kind.ALL;
    StatusFilter status = StatusFilter.ALL;
    /** How often the operator asked to quit: the first stops the proxy gracefully, the second cuts it. */
    int quitRequests;
    private final Map<Tab, Integer> cursor = new EnumMap<>(Tab.class);
    private final Map<Tab, Integer> offset = new EnumMap<>(Tab.class);
    private final Map<Tab, String> filter = new EnumMap<>(Tab.class);
    private String toast;
    private Instant toastUntil = Instant.MIN;

    int cursor() {
        return cursor.getOrDefault(tab, 0);
    }

    void cursor(int value) {
        cursor.put(tab, Math.max(0, value));
    }

    int offset() {
        return offset.getOrDefault(tab, 0);
    }

    void offset(int value) {
        offset.put(tab, Math.max(0, value));
    }

    String filter() {
        return filter.getOrDefault(tab, "");
    }

    void filter(String value) {
        filter.put(tab, value);
        cursor(0);
        offset(0);
    }

    /** Shows {@code message} in the footer until {@code until}. */
    void toast(String message, Instant until) {
        toast = message;
        toastUntil = until;
    }

    /** The footer message still showing at {@code now}, or null. */
    String toast(Instant now) {
        return now.isBefore(toastUntil) ? toast : null;
    }
}
