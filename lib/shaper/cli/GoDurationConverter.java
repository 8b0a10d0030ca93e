package shaper.cli;

import java.time.Duration;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;
import shaper.config.GoDuration;

/** Lets every duration flag take Go durations ({@code 200ms}, {@code 1h30m}). */
public final class GoDurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            return GoDuration.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
