package shaper.transcode.responses;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.ProjectRoot;
import shaper.transcode.ChatCapability;
import shaper.transcode.LossKey;
import shaper.transcode.LossPolicy;
import shaper.transcode.TranscodeLimits;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.TranscodeRoute;

/** Mappings and field-corpus files for the Responses direction tests. */
final class ResponsesFixtures {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private ResponsesFixtures() {
    }

    /** A field-corpus file under {@code test/shaper/transcode/responses/field/}. */
    static byte[] field(String name) {
        try {
            return Files.readAllBytes(ProjectRoot.find().resolve("test/shaper/transcode/responses/field").resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String fieldText(String name) {
        return new String(field(name), StandardCharsets.UTF_8);
    }

    /** The {@code -transcode-responses-chat} preset with the CLI defaults. */
    static TranscodeMapping responsesChat() {
        return responsesChat(ChatCapability.cliDefaults(), LossPolicy.cliDefaults());
    }

    static TranscodeMapping responsesChat(Set<ChatCapability> caps, Set<LossKey> approved) {
        return new TranscodeMapping(TranscodeRoute.RESPONSES_CHAT, caps, new LossPolicy(approved), Set.of("beta"), Map.of(),
                TranscodeLimits.defaults());
    }

    /** The CLI defaults plus {@code extra}. */
    static Set<LossKey> defaultsPlus(LossKey... extra) {
        Set<LossKey> s = EnumSet.copyOf(LossPolicy.cliDefaults());
        s.addAll(java.util.List.of(extra));
        return s;
    }

    /** Every policy key approved. */
    static Set<LossKey> everything() {
        Set<LossKey> s = EnumSet.noneOf(LossKey.class);
        for (LossKey k : LossKey.values()) {
            if (k.kind() == LossKey.Kind.POLICY) {
                s.add(k);
            }
        }
        return s;
    }

    static JsonNode json(byte[] bytes) {
        try {
            return MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
