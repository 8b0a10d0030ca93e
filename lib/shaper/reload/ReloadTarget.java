package shaper.reload;

import shaper.config.ConfigException;

/**
 * The running proxy as a reload sees it. Applying is two steps so that a reload either happens
 * whole or not at all: {@link #prepare} builds everything new (reads secrets, builds providers) and
 * may fail without any visible change; the returned step then swaps it in and cannot fail.
 */
public interface ReloadTarget {
    /**
     * @throws ConfigException when the new configuration cannot be built (a secret that cannot be read);
     *                         nothing has changed then
     */
    Runnable prepare(ConfigDiff diff);
}
