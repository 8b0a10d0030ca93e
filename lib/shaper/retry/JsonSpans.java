package shaper.retry;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Byte spans of JSON values inside one UTF-8 document, so a rewrite can drop a few values and copy every
 * other byte verbatim: numbers, escapes, key order and whitespace of retained values stay exactly as the
 * client sent them. The document must first pass {@link #isSingleObject}; the scanner trusts it.
 */
final class JsonSpans {
    /** A half-open byte range {@code [start, end)}. */
    record Span(int start, int end) {
    }

    /** An object member: its key (quotes included) and its value. The member text is {@code key.start..value.end}. */
    record Member(Span key, Span value) {
        Span whole() {
            return new Span(key.start(), value.end());
        }
    }

    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    private final byte[] json;

    JsonSpans(byte[] json) {
        this.json = json;
    }

    /** True when {@code json} is exactly one well-formed JSON object (whitespace around it allowed). */
    static boolean isSingleObject(byte[] json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            p.skipChildren();
            return p.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }

    /** The span of the root value. */
    Span root() {
        boolean bom = json.length >= 3 && (json[0] & 0xFF) == 0xEF && (json[1] & 0xFF) == 0xBB && (json[2] & 0xFF) == 0xBF;
        int start = skipWhitespace(bom ? 3 : 0);
        return new Span(start, skipValue(start));
    }

    byte firstByte(Span value) {
        return json[value.start()];
    }

    /** The members of the object at {@code object}, in document order. */
    List<Member> members(Span object) {
        List<Member> members = new ArrayList<>();
        entries(object, '}', i -> {
            int keyEnd = skipString(i);
            int valueStart = skipWhitespace(skipWhitespace(keyEnd) + 1);
            int valueEnd = skipValue(valueStart);
            members.add(new Member(new Span(i, keyEnd), new Span(valueStart, valueEnd)));
            return valueEnd;
        });
        return members;
    }

    /** The elements of the array at {@code array}, in document order. */
    List<Span> elements(Span array) {
        List<Span> elements = new ArrayList<>();
        entries(array, ']', i -> {
            int end = skipValue(i);
            elements.add(new Span(i, end));
            return end;
        });
        return elements;
    }

    /**
     * Walks the comma-separated entries of the container at {@code container}, which {@code close}
     * ends; {@code entry} reads the one starting at its offset and answers where it ends.
     */
    private void entries(Span container, char close, IntUnaryOperator entry) {
        int i = skipWhitespace(container.start() + 1);
        while (json[i] != close) {
            i = skipWhitespace(entry.applyAsInt(i));
            if (json[i] != close) {
                i = skipWhitespace(i + 1);
            }
        }
    }

    /** The decoded text of the string at {@code span}, or null when the value is not a string. */
    String string(Span span) {
        if (json[span.start()] != '"') {
            return null;
        }
        try (JsonParser p = FACTORY.createParser(json, span.start(), span.end() - span.start())) {
            p.nextToken();
            return p.getText();
        } catch (IOException e) {
            throw new IllegalStateException("string at " + span + " was validated but does not parse", e);
        }
    }

    /** The value of the last member named {@code name} (JSON parsers let the last duplicate win), or null. */
    Span member(Span object, String name) {
        Span found = null;
        for (Member m : members(object)) {
            if (name.equals(string(m.key()))) {
                found = m.value();
            }
        }
        return found;
    }

    private int skipWhitespace(int i) {
        while (i < json.length && (json[i] == ' ' || json[i] == '\t' || json[i] == '\n' || json[i] == '\r')) {
            i++;
        }
        return i;
    }

    private int skipValue(int i) {
        return switch (json[i]) {
            case '"' -> skipString(i);
            case '{', '[' -> skipContainer(i);
            default -> skipScalar(i);
        };
    }

    private int skipString(int i) {
        i++;
        while (json[i] != '"') {
            i += json[i] == '\\' ? 2 : 1;
        }
        return i + 1;
    }

    private int skipContainer(int i) {
        int depth = 0;
        do {
            byte b = json[i];
            if (b == '"') {
                i = skipString(i);
                continue;
            }
            if (b == '{' || b == '[') {
                depth++;
            } else if (b == '}' || b == ']') {
                depth--;
            }
            i++;
        } while (depth > 0);
        return i;
    }

    /** Numbers, {@code true}, {@code false}, {@code null}: up to the next delimiter. */
    private int skipScalar(int i) {
        while (i < json.length) {
            byte b = json[i];
            if (b == ',' || b == '}' || b == ']' || b == ' ' || b == '\t' || b == '\n' || b == '\r') {
                break;
            }
            i++;
        }
        return i;
    }
}
