package shaper.probe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Returns at once and remembers every wait a fixture asked for. */
final class RecordingSleeper implements Sleeper {
    private final List<Duration> waits = new ArrayList<>();

    @Override
    public synchronized void sleep(Duration duration) {
        waits.add(duration);
    }

    synchronized List<Duration> waits() {
        return List.copyOf(waits);
    }
}
