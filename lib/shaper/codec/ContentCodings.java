package shaper.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A request's {@code Content-Encoding}: the codings in the order they were applied (RFC 9110
 * §8.4: "listed in the order in which they were applied"; several field lines join as one list,
 * §5.3). Tokens are kept as sent (lower-cased) so an unsupported one can be named.
 *
 * @param tokens the codings in application order; {@code identity} and empty list members dropped
 */
public record ContentCodings(List<String> tokens) {
    /** No coding: the body is what it says it is. */
    public static final ContentCodings IDENTITY = new ContentCodings(List.of());

    public ContentCodings {
        tokens = List.copyOf(tokens);
    }

    /**
     * Parses the field's lines.
     *
     * @param fieldLines every {@code Content-Encoding} line of the request, in order; may be empty
     */
    public static ContentCodings parse(List<String> fieldLines) {
        List<String> tokens = new ArrayList<>();
        for (String line : fieldLines) {
            for (String member : line.split(",")) {
                String t = member.trim().toLowerCase(Locale.ROOT);
                if (!t.isEmpty() && !t.equals(ContentCoding.IDENTITY.token())) {
                    tokens.add(t);
                }
            }
        }
        return tokens.isEmpty() ? IDENTITY : new ContentCodings(tokens);
    }

    /** True when the body carries no coding at all. */
    public boolean isIdentity() {
        return tokens.isEmpty();
    }

    /** The first token this proxy cannot decode, or null when every one is supported. */
    public String firstUnsupported() {
        return tokens.stream().filter(t -> ContentCoding.of(t).isEmpty()).findFirst().orElse(null);
    }

    /** The field value, as a log or an error message names it: {@code gzip, br}. */
    @Override
    public String toString() {
        return String.join(", ", tokens);
    }
}
