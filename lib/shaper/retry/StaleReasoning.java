package shaper.retry;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stale-reasoning recovery. cc-switch carries an OpenAI Responses {@code reasoning} item
 * through the Messages API inside a thinking block: as the {@code signature} of a {@code thinking} block
 * or the {@code data} of a {@code redacted_thinking} block, prefixed {@value #CARRIER_PREFIX}. When the
 * conversation later reaches a different backend resource, that item cannot be verified there and the
 * upstream answers 400. The recovery removes the carriers and replays once.
 *
 * <p>Removed from each {@code messages[].content[]}: {@code thinking} blocks whose {@code signature} and
 * {@code redacted_thinking} blocks whose {@code data} start with the prefix, and any other block's stray
 * {@code signature} member with that prefix. Text, tool blocks and native (non-prefixed) signatures are
 * kept. A message left with an empty content array is dropped, because the Messages API rejects empty
 * content. Every retained byte is copied verbatim, so numbers in tool inputs ({@code 0.1},
 * {@code 1e400}, {@code 12345678901234567890}, {@code 1.0}) keep their exact source text. Responses-API
 * {@code input} items are not rewritten. Stateless.
 */
public final class StaleReasoning {
    /** The cc-switch carrier prefix (its versioned form is {@code ccswitch-openai-reasoning-v1:}). */
    public static final String CARRIER_PREFIX = "ccswitch-openai-reasoning-";

    /**
     * Wording of a 400 that says a replayed reasoning item belongs to another backend resource: each entry
     * lists fragments that must all appear (case-insensitive). OpenAI reports
     * {@code "The encrypted content for item rs_… could not be verified"} with code
     * {@code invalid_encrypted_content}, or {@code "Item with id 'rs_…' not found"} for items stored elsewhere.
     */
    public static final List<List<String>> RESOURCE_MISMATCH_WORDING = List.of(
            List.of("invalid_encrypted_content"),
            List.of("encrypted content", "could not be verified"),
            List.of("encrypted content", "could not be decrypted"),
            List.of("item with id", "not found"),
            List.of("organization_id did not match"));

    private StaleReasoning() {
    }

    /** True for a 400 whose body (first {@link ErrorWording#MAX_SCAN_BYTES}) reports a resource mismatch. */
    public static boolean isResourceMismatch(int status, byte[] bodyPrefix) {
        if (status != 400 || bodyPrefix == null || bodyPrefix.length == 0) {
            return false;
        }
        String lower = ErrorWording.lowerPrefix(bodyPrefix);
        for (List<String> allOf : RESOURCE_MISMATCH_WORDING) {
            if (allOf.stream().allMatch(lower::contains)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The request body with every carrier removed, or empty when there is nothing to remove or the body
     * is not a single JSON object with a {@code messages} array (then the 400 goes to the client).
     */
    public static Optional<byte[]> stripCarriers(byte[] requestJson) {
        if (requestJson == null || !JsonSpans.isSingleObject(requestJson)) {
            return Optional.empty();
        }
        JsonSpans doc = new JsonSpans(requestJson);
        JsonSpans.Span messages = doc.member(doc.root(), "messages");
        if (messages == null || doc.firstByte(messages) != '[') {
            return Optional.empty();
        }
        Rewriter rewriter = new Rewriter(requestJson, doc);
        byte[] newMessages = rewriter.messages(messages);
        if (newMessages == null) {
            return Optional.empty();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(requestJson.length);
        out.write(requestJson, 0, messages.start());
        out.writeBytes(newMessages);
        out.write(requestJson, messages.end(), requestJson.length - messages.end());
        return Optional.of(out.toByteArray());
    }

    /** Rebuilds only the containers that change; each method returns null when its input is unchanged. */
    private record Rewriter(byte[] json, JsonSpans doc) {
        byte[] messages(JsonSpans.Span array) {
            List<byte[]> kept = new ArrayList<>();
            boolean changed = false;
            for (JsonSpans.Span message : doc.elements(array)) {
                byte[] rewritten = doc.firstByte(message) == '{' ? message(message) : null;
                if (rewritten == null) {
                    kept.add(copy(message));
                } else {
                    changed = true;
                    if (rewritten.length > 0) {
                        kept.add(rewritten);
                    }
                }
            }
            return changed ? join('[', kept, ']') : null;
        }

        /** The rewritten message, an empty array when the message is to be dropped, or null if unchanged. */
        private byte[] message(JsonSpans.Span message) {
            JsonSpans.Span content = doc.member(message, "content");
            if (content == null || doc.firstByte(content) != '[') {
                return null;
            }
            List<byte[]> kept = new ArrayList<>();
            boolean changed = false;
            for (JsonSpans.Span block : doc.elements(content)) {
                if (doc.firstByte(block) != '{') {
                    kept.add(copy(block));
                    continue;
                }
                if (isCarrierBlock(block)) {
                    changed = true;
                    continue;
                }
                byte[] withoutStraySignature = withoutCarrierSignature(block);
                changed |= withoutStraySignature != null;
                kept.add(withoutStraySignature != null ? withoutStraySignature : copy(block));
            }
            if (!changed) {
                return null;
            }
            if (kept.isEmpty()) {
                return new byte[0];
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(json, message.start(), content.start() - message.start());
            out.writeBytes(join('[', kept, ']'));
            out.write(json, content.end(), message.end() - content.end());
            return out.toByteArray();
        }

        private boolean isCarrierBlock(JsonSpans.Span block) {
            String type = stringMember(block, "type");
            if ("thinking".equals(type)) {
                return isCarrier(stringMember(block, "signature"));
            }
            if ("redacted_thinking".equals(type)) {
                return isCarrier(stringMember(block, "data"));
            }
            return false;
        }

        private byte[] withoutCarrierSignature(JsonSpans.Span block) {
            List<byte[]> kept = new ArrayList<>();
            boolean changed = false;
            for (JsonSpans.Member m : doc.members(block)) {
                if ("signature".equals(doc.string(m.key())) && isCarrier(doc.string(m.value()))) {
                    changed = true;
                } else {
                    kept.add(copy(m.whole()));
                }
            }
            return changed ? join('{', kept, '}') : null;
        }

        private String stringMember(JsonSpans.Span object, String name) {
            JsonSpans.Span value = doc.member(object, name);
            return value == null ? null : doc.string(value);
        }

        private byte[] copy(JsonSpans.Span span) {
            byte[] b = new byte[span.end() - span.start()];
            System.arraycopy(json, span.start(), b, 0, b.length);
            return b;
        }

        private static byte[] join(char open, List<byte[]> parts, char close) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(open);
            for (int i = 0; i < parts.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.writeBytes(parts.get(i));
            }
            out.write(close);
            return out.toByteArray();
        }
    }

    private static boolean isCarrier(String value) {
        return value != null && value.startsWith(CARRIER_PREFIX);
    }
}
