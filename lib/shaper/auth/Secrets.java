package shaper.auth;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.function.Function;

import shaper.config.ConfigException;

/**
 * Reads a secret once at startup. Every error names the flag and the reference, never the value;
 * a secret must be a single-line header value after trimming (visible ASCII, inner spaces and tabs
 * allowed), so a secret file with a second line can never split a header.
 */
final class Secrets {
    private Secrets() {
    }

    /**
     * @param flag the flag the source came from, for messages ({@code -auth-source}, {@code -client-key})
     * @param env  environment lookup ({@code System::getenv} in production); returns {@code null} when unset
     * @return the trimmed, non-blank secret
     * @throws ConfigException when the source cannot produce a usable secret
     */
    static String resolve(String flag, AuthSource source, Function<String, String> env) {
        String where = flag + " " + source.reference();
        String raw = switch (source) {
            case AuthSource.Env e -> {
                String value = env.apply(e.variable());
                if (value == null) {
                    throw new ConfigException(where + ": environment variable " + e.variable() + " is not set");
                }
                yield value;
            }
            case AuthSource.SecretFile f -> read(where, f);
            case AuthSource.None n -> throw new IllegalStateException(where + " carries no secret");
            case AuthSource.Unset u -> throw new IllegalStateException(where + " carries no secret");
        };
        String secret = raw.strip();
        if (secret.isEmpty()) {
            throw new ConfigException(where + ": " + (source instanceof AuthSource.Env ? "environment variable is blank" : "file is blank"));
        }
        if (!isHeaderValue(secret)) {
            throw new ConfigException(where + ": secret is not a single-line printable ASCII value");
        }
        return secret;
    }

    private static String read(String where, AuthSource.SecretFile f) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(f.path())) {
            // One byte past the bound tells "exactly at the limit" from "too big" without reading the rest.
            bytes = in.readNBytes(AuthSource.MAX_FILE_BYTES + 1);
        } catch (IOException e) {
            throw new ConfigException(where + ": cannot read " + f.path() + " (" + e.getClass().getSimpleName() + ")");
        }
        if (bytes.length > AuthSource.MAX_FILE_BYTES) {
            throw new ConfigException(where + ": file is larger than " + AuthSource.MAX_FILE_BYTES + " bytes");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static boolean isHeaderValue(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\t' && (c < 0x20 || c > 0x7e)) {
                return false;
            }
        }
        return true;
    }
}
