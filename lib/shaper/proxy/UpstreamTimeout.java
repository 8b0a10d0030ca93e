package shaper.proxy;

import java.time.Duration;

import shaper.config.GoDuration;

/** An upstream call ended because it outlived {@code -upstream-timeout} (its whole bound, body included). */
final class UpstreamTimeout extends RuntimeException {
    UpstreamTimeout(Duration bound) {
        super("upstream call exceeded -upstream-timeout " + GoDuration.format(bound), null, false, false);
    }
}
