package shaper.tui;

/**
 * Totals for one route (method and path without query) over the exchanges the dashboard has seen
 * since it started or was reset, for the Routes tab.
 *
 * @param route    {@code METHOD /path}
 * @param total    finished exchanges
 * @param ok       2xx responses
 * @param client   4xx responses
 * @param server   5xx responses
 * @param timeouts queue timeouts (504 before any upstream attempt)
 * @param perSecond exchanges per second over the last 10 s
 */
public record RouteStat(String route, long total, long ok, long client, long server, long timeouts, double perSecond) {
}
