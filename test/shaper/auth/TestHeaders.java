package shaper.auth;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An ordered, case-preserving header list that behaves as an HTTP library's mutable headers would. */
final class TestHeaders implements HeaderEditor {
    private final List<Map.Entry<String, String>> fields = new ArrayList<>();

    static TestHeaders of(String... namesAndValues) {
        TestHeaders h = new TestHeaders();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            h.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return h;
    }

    @Override
    public List<String> names() {
        return fields.stream().map(Map.Entry::getKey).toList();
    }

    @Override
    public List<String> values(String name) {
        return fields.stream().filter(f -> f.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue).toList();
    }

    @Override
    public void remove(String name) {
        fields.removeIf(f -> f.getKey().equalsIgnoreCase(name));
    }

    @Override
    public void add(String name, String value) {
        fields.add(Map.entry(name, value));
    }

    /** The fields as {@code name: value} lines, in order. */
    List<String> lines() {
        return fields.stream().map(f -> f.getKey() + ": " + f.getValue()).toList();
    }
}
