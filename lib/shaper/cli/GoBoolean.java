package shaper.cli;

import java.util.Set;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Go's {@code strconv.ParseBool}: {@code 1 t T TRUE true True 0 f F FALSE false False}. */
public final class GoBoolean implements ITypeConverter<Boolean> {
    private static final Set<String> TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");
    private static final Set<String> FALSE = Set.of("0", "f", "F", "FALSE", "false", "False");

    @Override
    public Boolean convert(String value) {
        if (TRUE.contains(value)) {
            return true;
        }
        if (FALSE.contains(value)) {
            return false;
        }
        throw new TypeConversionException("invalid boolean value \"" + value + "\"");
    }
}
