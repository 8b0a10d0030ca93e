package shaper.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Downstream admission keys ({@code -client-key env:VAR|file:PATH}, server scope, repeatable).
 * When at least one is configured, a request must present one of them in a {@link #KEY_HEADERS}
 * field, else the proxy answers {@value #REJECTION_STATUS} with {@link #rejection(Dialect)}.
 *
 * <p>Keys are held only as SHA-256 digests and compared with {@link MessageDigest#isEqual}, which
 * takes the same time wherever two digests differ; every configured key is compared on every
 * check, so the timing reveals neither a prefix of a key nor which key matched. Immutable and
 * thread-safe. Nothing here logs or echoes a presented or configured key.
 */
public final class ClientKeys {
    /**
     * Fields a client may present its key in, lower case: {@code Authorization: Bearer <key>}
     * (OpenAI SDKs), {@code x-api-key: <key>} (Anthropic SDKs), {@code api-key: <key>} (Azure SDKs).
     */
    public static final List<String> KEY_HEADERS = List.of("authorization", "x-api-key", "api-key");

    /** The status of a rejected request. */
    public static final int REJECTION_STATUS = 401;

    private static final String MESSAGE =
            "missing or invalid client key for this proxy (send it as Authorization: Bearer, x-api-key or api-key)";
    private static final String ANTHROPIC_BODY =
            "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"" + MESSAGE + "\"}}";
    private static final String OPENAI_BODY =
            "{\"error\":{\"message\":\"" + MESSAGE + "\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}";
    private static final String BEARER = "bearer ";
    private static final ClientKeys NONE = new ClientKeys(List.of());

    /** The wire dialect a rejection is written in, so the client's SDK shows a proper authentication error. */
    public enum Dialect { ANTHROPIC, OPENAI }

    private record Key(String reference, byte[] digest) {
    }

    private final List<Key> keys;

    private ClientKeys(List<Key> keys) {
        this.keys = List.copyOf(keys);
    }

    /** No client keys: every request is admitted. */
    public static ClientKeys none() {
        return NONE;
    }

    /**
     * Resolves every {@code -client-key} value once at startup, like {@code -auth-source} but
     * {@code none} is refused.
     *
     * @param flagValues the repeated flag values; empty means no client keys
     * @param env        environment lookup, {@code System::getenv} in production
     * @throws shaper.config.ConfigException naming the flag and reference, never a value
     */
    public static ClientKeys resolve(List<String> flagValues, Function<String, String> env) {
        List<Key> keys = new ArrayList<>();
        for (String value : flagValues) {
            AuthSource source = AuthSource.parse("-client-key", value, false);
            keys.add(new Key(source.reference(), sha256(Secrets.resolve("-client-key", source, env))));
        }
        return keys.isEmpty() ? NONE : new ClientKeys(keys);
    }

    /** Whether requests must present a key. */
    public boolean required() {
        return !keys.isEmpty();
    }

    /**
     * Looks for a configured key in the request's {@link #KEY_HEADERS}.
     *
     * @return the reference ({@code env:VAR}) of the matching key, for logs; empty when no field
     *         carries a configured key, and always empty when none are configured
     */
    public Optional<String> check(HeaderView headers) {
        Optional<String> found = Optional.empty();
        for (String field : KEY_HEADERS) {
            for (String value : headers.values(field)) {
                Optional<String> match = match(presented(field, value));
                if (found.isEmpty()) {
                    found = match;
                }
            }
        }
        return found;
    }

    /**
     * Removes every {@link #KEY_HEADERS} field that carries a configured key, so the proxy's own
     * admission key never travels upstream; other credentials in those fields are left alone.
     */
    public void strip(HeaderEditor headers) {
        for (String field : KEY_HEADERS) {
            boolean carriesKey = false;
            for (String value : headers.values(field)) {
                carriesKey |= match(presented(field, value)).isPresent();
            }
            if (carriesKey) {
                headers.remove(field);
            }
        }
    }

    /**
     * The dialect of a request: Anthropic when its path ends with {@code /messages} or it carries
     * {@code anthropic-version}, otherwise OpenAI.
     *
     * @param path the request path, with or without a query
     */
    public static Dialect dialect(String path, HeaderView headers) {
        String p = path;
        int query = p.indexOf('?');
        if (query >= 0) {
            p = p.substring(0, query);
        }
        if (p.endsWith("/") && p.length() > 1) {
            p = p.substring(0, p.length() - 1);
        }
        boolean versioned = headers.values("anthropic-version").stream().anyMatch(v -> !v.isBlank());
        return p.endsWith("/messages") || versioned ? Dialect.ANTHROPIC : Dialect.OPENAI;
    }

    /** The {@value #REJECTION_STATUS} JSON body ({@code application/json}) in the client's dialect; names no key. */
    public static String rejection(Dialect dialect) {
        return switch (dialect) {
            case ANTHROPIC -> ANTHROPIC_BODY;
            case OPENAI -> OPENAI_BODY;
        };
    }

    /** One line for the startup log naming only the references. */
    public String describe() {
        if (keys.isEmpty()) {
            return "client keys: none (every client admitted)";
        }
        return "client keys: " + keys.stream().map(Key::reference).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The candidate key in one field value, or {@code null} when the value cannot carry a key. */
    private static String presented(String field, String value) {
        String v = value.strip();
        if (!field.equals("authorization")) {
            return v;
        }
        if (v.length() <= BEARER.length() || !v.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return null;
        }
        return v.substring(BEARER.length()).strip();
    }

    /** Compares against every key without stopping at the first match, so timing does not depend on which key matched. */
    private Optional<String> match(String candidate) {
        if (candidate == null || candidate.isEmpty()) {
            return Optional.empty();
        }
        byte[] digest = sha256(candidate);
        String matched = null;
        for (Key key : keys) {
            if (MessageDigest.isEqual(digest, key.digest()) && matched == null) {
                matched = key.reference();
            }
        }
        return Optional.ofNullable(matched);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
