package shaper.observe;

import java.util.List;
import java.util.Objects;

/**
 * Where a request of the routed mount went: the route its model matched, the provider that served
 * it last, and each move from one target to the next before anything of the answer was sent.
 *
 * @param route  the matched route's pattern; empty for an exchange of a provider's own mount
 * @param target the provider that served it (or answered it last)
 * @param moves  the fallbacks, in order
 */
public record RouteTrail(String route, String target, List<Move> moves) {
    /** An exchange that was not routed by model. */
    public static final RouteTrail NONE = new RouteTrail("", "", List.of());

    /**
     * One fallback.
     *
     * @param from the provider it left
     * @param to   the provider it went to
     * @param why  the trigger's label ({@code 429}, {@code queue_wait}, ...)
     */
    public record Move(String from, String to, String why) {
        public Move {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(why, "why");
        }
    }

    public RouteTrail {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(target, "target");
        moves = List.copyOf(moves);
    }

    public boolean routed() {
        return !route.isEmpty();
    }

    /** This trail with {@code provider} serving, after a move to it for {@code why}. */
    RouteTrail movedTo(String provider, String why) {
        List<Move> more = new java.util.ArrayList<>(moves);
        more.add(new Move(target, provider, why));
        return new RouteTrail(route, provider, more);
    }

    /** Appends {@code route=… target=…} and each {@code from=… to=… why=…} to an exchange line. */
    void appendTo(StringBuilder sb) {
        sb.append(" route=").append(ExchangeLog.quote(route)).append(" target=").append(target);
        for (Move m : moves) {
            sb.append(" from=").append(m.from()).append(" to=").append(m.to()).append(" why=").append(m.why());
        }
    }
}
