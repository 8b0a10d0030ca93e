package shaper.reload;

import java.util.Objects;
import java.util.Optional;

import shaper.config.FlagException;
import shaper.settings.ShaperConfig;

/**
 * Where a reload reads the configuration the proxy should run now. Whoever started the proxy hands
 * one in (for {@code -config FILE}: the original command line parsed again with the file as it is
 * now), so reloading does not depend on how a configuration is written down or parsed.
 */
@FunctionalInterface
public interface ConfigSource {
    /**
     * One read of the source.
     *
     * @param config   the validated configuration
     * @param fileHash a short SHA-256 of the file as read, for the log and health; empty without a file
     */
    record Reading(ShaperConfig config, Optional<String> fileHash) {
        public Reading {
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(fileHash, "fileHash");
        }
    }

    /**
     * Reads the source now. Called by one reload at a time, on the reload's thread.
     *
     * @throws FlagException when the source no longer describes a valid configuration: a usage error or a
     *                       {@link shaper.config.ConfigException}, its message saying what is wrong and,
     *                       for a file, where ({@code file:line:column})
     */
    Reading read();
}
