package shaper.probe;

import java.time.Duration;

/**
 * How fixtures wait (slow streams, slow completions). Production sleeps the virtual thread; tests
 * inject one that records the requested waits and returns at once, so they assert spacing without sleeping.
 */
@FunctionalInterface
public interface Sleeper {
    Sleeper REAL = d -> Thread.sleep(d);

    void sleep(Duration duration) throws InterruptedException;
}
