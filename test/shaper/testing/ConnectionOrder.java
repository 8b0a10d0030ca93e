package shaper.testing;

import java.net.Socket;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which upstream connection each request of a {@link ScriptedUpstream} arrived on: connections are
 * numbered 1, 2, … in the order their first request arrived, so a test can tell a reused
 * keep-alive connection from a fresh one. Called from the upstream's responder; thread-safe.
 */
public final class ConnectionOrder {
    private final Map<Socket, Integer> numbers = new IdentityHashMap<>();
    private final List<Integer> arrivals = new ArrayList<>();

    /** Records a request arriving on the exchange's connection; returns that connection's number. */
    public synchronized int arrived(ScriptedUpstream.Exchange ex) {
        Integer n = numbers.get(ex.socket());
        if (n == null) {
            n = numbers.size() + 1;
            numbers.put(ex.socket(), n);
        }
        arrivals.add(n);
        return n;
    }

    /** The connection number of every request so far, in arrival order. */
    public synchronized List<Integer> arrivals() {
        return List.copyOf(arrivals);
    }

    /** How many requests arrived on connection {@code n} so far. */
    public synchronized int requestsOn(int n) {
        return (int) arrivals.stream().filter(c -> c == n).count();
    }
}
