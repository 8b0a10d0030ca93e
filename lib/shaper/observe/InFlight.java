package shaper.observe;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An immutable view of one exchange that has not finished yet, for the TUI's in-flight lists.
 *
 * @param id       the id its record will carry
 * @param method   request method
 * @param path     forwarded path, without the query
 * @param route    how the limiters treat it
 * @param routeKey the matched limited route's key (its group, or the pattern's text), empty otherwise
 * @param state    waiting for a slot, or past admission
 * @param since    wall-clock arrival
 * @param age      time since arrival when the view was taken
 * @param attempts upstream attempts started so far
 * @param retrying on a second or later attempt, or waiting out a retry backoff
 * @param waitingFor what a queued exchange waits for ({@value #SLOT}, or {@code waiting for tokens (input)} and the
 *                 other budget kinds); empty once admitted
 * @param priorityClass the priority class it queues (or queued) in; empty when the provider declares no classes
 * @param client        who asks: the exchange's client identity ({@code anonymous} when none)
 * @param retryWait while it waits out a retry backoff: the next attempt, when, and why; empty otherwise
 */
public record InFlight(long id, String method, String path, RouteKind route, String routeKey, State state, Instant since, Duration age,
                       int attempts, boolean retrying, String waitingFor, String priorityClass, String client,
                       java.util.Optional<RetryWait> retryWait) {
    /** What a queued exchange waits for unless a budget says otherwise. */
    public static final String SLOT = "waiting for a slot";

    /** Where an unfinished exchange is. */
    public enum State {
        /** Waiting for a route, default-pool, global or large-request slot, or for the budget's tokens. */
        QUEUED,
        /** Admitted: talking to the upstream, backing off between attempts, or relaying the answer. */
        ACTIVE
    }

    public InFlight {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(routeKey, "routeKey");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(age, "age");
        Objects.requireNonNull(waitingFor, "waitingFor");
        Objects.requireNonNull(priorityClass, "priorityClass");
        Objects.requireNonNull(retryWait, "retryWait");
        Objects.requireNonNull(client, "client");
    }
}
