package shaper.auth;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Pattern;

import shaper.config.ConfigException;

/**
 * Where a secret comes from: the value of {@code -auth-source} (and of each {@code -client-key}).
 * <ul>
 *   <li>{@code env:VAR}: the environment variable {@code VAR}, read once at startup;</li>
 *   <li>{@code file:PATH}: the file {@code PATH}, read once at startup, at most {@value #MAX_FILE_BYTES} bytes;</li>
 *   <li>{@code none}: strip-only hygiene, nothing is injected;</li>
 *   <li>unset (the flag absent): upstream auth disabled, requests forwarded verbatim.</li>
 * </ul>
 * A source is only a reference; {@link #reference()} is what logs may show. Reading the secret
 * is package-private ({@code Secrets}) so that secret strings flow only into the types that
 * attach or compare them.
 */
public sealed interface AuthSource {
    /** Upper bound of a secret file; a bigger file is a configuration error, not a truncated secret. */
    int MAX_FILE_BYTES = 64 * 1024;

    /** The reference as the user wrote it ({@code env:VAR}, {@code file:PATH}, {@code none}, {@code unset}); never a secret. */
    String reference();

    /** Whether resolving this source yields a secret (env and file do; none and unset do not). */
    default boolean hasSecret() {
        return this instanceof Env || this instanceof SecretFile;
    }

    /** {@code env:VAR}. */
    record Env(String variable) implements AuthSource {
        private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

        public Env {
            Objects.requireNonNull(variable, "variable");
            if (!NAME.matcher(variable).matches()) {
                throw new IllegalArgumentException("variable: not an environment variable name (expected: letters, digits, _)");
            }
        }

        @Override
        public String reference() {
            return "env:" + variable;
        }
    }

    /** {@code file:PATH}. */
    record SecretFile(Path path) implements AuthSource {
        public SecretFile {
            Objects.requireNonNull(path, "path");
        }

        @Override
        public String reference() {
            return "file:" + path;
        }
    }

    /** {@code none}: strip client credentials, inject nothing. */
    record None() implements AuthSource {
        @Override
        public String reference() {
            return "none";
        }
    }

    /** The flag was not given: auth disabled. */
    record Unset() implements AuthSource {
        @Override
        public String reference() {
            return "unset";
        }
    }

    /**
     * Parses an {@code -auth-source} value.
     *
     * @param value the flag value, or {@code null} when the flag was not given (unset)
     * @throws ConfigException for anything else, without echoing the value (it may be a pasted secret)
     */
    static AuthSource parse(String value) {
        return value == null ? new Unset() : parse("-auth-source", value, true);
    }

    /** Parses a source for {@code flag}; {@code none} is accepted only when {@code allowNone}. Never echoes an unknown value. */
    public static AuthSource parse(String flag, String value, boolean allowNone) {
        Objects.requireNonNull(value, "value");
        String expected = allowNone ? "env:VAR, file:PATH or none" : "env:VAR or file:PATH";
        if (value.startsWith("env:")) {
            String variable = value.substring("env:".length());
            if (variable.isEmpty()) {
                throw new ConfigException(flag + ": env: names no variable (expected: env:VAR)");
            }
            try {
                return new Env(variable);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(flag + ": env: is not followed by an environment variable name (expected: letters, digits, _)");
            }
        }
        if (value.startsWith("file:")) {
            String path = value.substring("file:".length());
            if (path.isBlank()) {
                throw new ConfigException(flag + ": file: names no path (expected: file:PATH)");
            }
            try {
                return new SecretFile(Path.of(path));
            } catch (InvalidPathException e) {
                throw new ConfigException(flag + ": file: is not followed by a usable path");
            }
        }
        if (allowNone && value.equals("none")) {
            return new None();
        }
        throw new ConfigException(flag + ": unrecognized value (expected: " + expected
                + "; a literal secret is never accepted on the command line)");
    }
}
