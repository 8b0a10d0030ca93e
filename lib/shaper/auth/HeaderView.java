package shaper.auth;

import java.util.List;

/**
 * Read access to one message's header fields, independent of the HTTP library that holds them.
 * A lambda over the server's request headers is enough for {@link ClientKeys#check(HeaderView)}.
 */
@FunctionalInterface
public interface HeaderView {
    /**
     * Every value of the field {@code name}, compared case-insensitively, in arrival order.
     *
     * @return never {@code null}; empty when the field is absent
     */
    List<String> values(String name);
}
