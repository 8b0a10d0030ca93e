package shaper.transcode.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import shaper.transcode.EventSink;

/** Records the client events a stream conversion writes, each parsed, for lifecycle assertions. */
final class RecordingSink implements EventSink {
    /** One written event. */
    record Event(String name, JsonNode json) {
    }

    static final Set<String> RESPONSES_TERMINALS = Set.of("response.completed", "response.incomplete", "response.failed");

    final List<Event> events = new ArrayList<>();
    int flushes;

    @Override
    public void event(String name, String json) {
        JsonNode node = ResponsesFixtures.json(ResponsesFixtures.bytes(json)); // a partial frame would not parse
        events.add(new Event(name, node));
    }

    @Override
    public void flush() {
        flushes++;
    }

    List<String> names() {
        return events.stream().map(Event::name).toList();
    }

    Event last() {
        return events.get(events.size() - 1);
    }

    List<Event> named(String name) {
        return events.stream().filter(e -> e.name().equals(name)).toList();
    }

    /**
     * The Responses lifecycle invariants: event name equals the JSON type, response.created first,
     * sequence numbers 0,1,2..., exactly one terminal and it is last, item events name an added item.
     */
    void assertResponsesLifecycle() {
        assertTrue(!events.isEmpty(), "no events");
        assertEquals("response.created", events.get(0).name());
        int terminals = 0;
        List<String> added = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            assertEquals(e.name(), e.json().path("type").asText(), "event: equals type");
            assertEquals(i, e.json().path("sequence_number").asInt(-1), "sequence_number of " + e.name());
            if (RESPONSES_TERMINALS.contains(e.name())) {
                terminals++;
            }
            if (e.name().equals("response.output_item.added")) {
                assertEquals(added.size(), e.json().path("output_index").asInt(), "output indexes in order");
                added.add(e.json().path("item").path("id").asText());
            } else if (e.json().has("item_id")) {
                int index = e.json().path("output_index").asInt();
                assertTrue(index < added.size(), "item event before its item: " + e.json());
                assertEquals(added.get(index), e.json().path("item_id").asText(), "item id matches its output index");
            }
        }
        assertEquals(1, terminals, "exactly one terminal in " + names());
        assertTrue(RESPONSES_TERMINALS.contains(last().name()), "the terminal is last: " + names());
    }
}
