package shaper.priority;

/**
 * What a rule can look at in a request. Implementations may compute {@link #model()} lazily: the
 * classifier asks only when a {@code model} rule is tried.
 */
public interface RequestFacts {
    /** The request path as routed (after the mount prefix), without the query. */
    String path();

    /** The first value of header {@code name} (case-insensitive), or {@code null}. */
    String header(String name);

    /** The body's top-level {@code "model"} string, or {@code null} when absent or not JSON. */
    String model();
}
