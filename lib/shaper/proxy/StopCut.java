package shaper.proxy;

/**
 * Set by the server when a graceful stop cuts what is still running (the grace ran out, or a
 * second signal): an exchange broken from then on is the proxy's own cut
 * ({@link shaper.observe.EndReason#PROXY_STOPPED}), not an upstream or a client failure.
 */
public final class StopCut {
    private volatile boolean cutting;

    /** From now on, broken exchanges are the proxy's cut. */
    public void begin() {
        cutting = true;
    }

    boolean cutting() {
        return cutting;
    }
}
