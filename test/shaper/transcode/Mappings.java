package shaper.transcode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.transcode.pipeline.Prepared;
import shaper.transcode.pipeline.Transcoder;

/** Mappings and helpers for driving the production transcoder directly. */
final class Mappings {
    static final ObjectMapper JSON = new ObjectMapper();

    private Mappings() {
    }

    /** The CLI defaults of {@code -transcode-messages-chat}, plus {@code extraCaps} and {@code extraLosses}. */
    static TranscodeMapping cli(Set<ChatCapability> extraCaps, Set<LossKey> extraLosses) {
        Set<ChatCapability> caps = EnumSet.copyOf(ChatCapability.cliDefaults());
        caps.addAll(extraCaps);
        Set<LossKey> losses = EnumSet.copyOf(LossPolicy.cliDefaults());
        losses.addAll(extraLosses);
        return new TranscodeMapping(TranscodeRoute.MESSAGES_CHAT, caps, new LossPolicy(losses), Set.of("beta"), Map.of(),
                TranscodeLimits.defaults());
    }

    static TranscodeMapping cli() {
        return cli(Set.of(), Set.of());
    }

    /** The strict programmatic policy with the given capabilities. */
    static TranscodeMapping strict(Set<ChatCapability> caps) {
        return new TranscodeMapping(TranscodeRoute.MESSAGES_CHAT, caps, LossPolicy.STRICT, Set.of(), Map.of(), TranscodeLimits.defaults());
    }

    static Transcoder transcoder(TranscodeMapping m) {
        return Transcoder.of(m);
    }

    /** Converts a Messages request with {@code m}; returns the chat request as a tree. */
    static JsonNode chatRequest(TranscodeMapping m, String messagesJson) throws Exception {
        return JSON.readTree(Transcoder.of(m).prepare(messagesJson.getBytes(StandardCharsets.UTF_8), null).body());
    }

    static Prepared prepare(TranscodeMapping m, String messagesJson) {
        return Transcoder.of(m).prepare(messagesJson.getBytes(StandardCharsets.UTF_8), null);
    }

    static JsonNode answer(TranscodeMapping m, Prepared p, String chatJson) throws Exception {
        return JSON.readTree(Transcoder.of(m).answer(chatJson.getBytes(StandardCharsets.UTF_8), p));
    }

    /** A minimal Messages request around {@code messages} (a JSON array) with extra top-level members. */
    static String request(String messages, String extra) {
        return "{\"model\":\"claude-x\",\"max_tokens\":64," + (extra.isEmpty() ? "" : extra + ",") + "\"messages\":" + messages + "}";
    }

    /** A stream sink recording frames. */
    static final class Recorder implements EventSink {
        final List<String[]> events = new ArrayList<>();
        int flushes;

        @Override
        public void event(String name, String json) {
            events.add(new String[] {name, json});
        }

        @Override
        public void flush() {
            flushes++;
        }

        List<String> names() {
            return events.stream().map(e -> e[0]).toList();
        }

        JsonNode json(int i) throws Exception {
            return JSON.readTree(events.get(i)[1]);
        }
    }
}
