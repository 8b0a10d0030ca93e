package shaper.tui;

import java.time.Duration;
import java.util.Objects;

/**
 * One exchange still running, for the in-flight lists of the Dashboard and Concurrency tabs.
 *
 * @param method  request method
 * @param path    request path without the query
 * @param limited whether it holds (or waits for) a concurrency slot; otherwise passthrough
 * @param queued  whether it is still waiting for a slot
 * @param age     time since it arrived
 * @param waitingFor while queued, {@code waiting for a slot} or {@code waiting for tokens (input)} and the other
 *                budget kinds; "" once admitted
 * @param priorityClass the priority class it queues in, "" when the provider declares none
 * @param client  who asks: the exchange's client identity ({@code anonymous} when none)
 * @param retry   while it waits out a retry backoff, {@code retry 3 in 4.0s: 429 too many requests}; "" otherwise
 */
public record InFlightRow(String method, String path, boolean limited, boolean queued, Duration age, String waitingFor,
                          String priorityClass, String client, String retry) {
    /** A row without a stated wait or class, of an anonymous client, not in a retry backoff. */
    public InFlightRow(String method, String path, boolean limited, boolean queued, Duration age) {
        this(method, path, limited, queued, age, "", "", "anonymous", "");
    }

    /** A row of an anonymous client that is not in a retry backoff. */
    public InFlightRow(String method, String path, boolean limited, boolean queued, Duration age, String waitingFor, String priorityClass) {
        this(method, path, limited, queued, age, waitingFor, priorityClass, "anonymous", "");
    }

    public InFlightRow {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(age, "age");
        Objects.requireNonNull(waitingFor, "waitingFor");
        Objects.requireNonNull(priorityClass, "priorityClass");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(client, "client");
    }
}
