package shaper.auth;

import java.util.List;

/**
 * The outgoing request's header fields as this package edits them. Adapters for any HTTP
 * library need only these operations; names are compared case-insensitively throughout.
 */
public interface HeaderEditor extends HeaderView {
    /** The field names currently present, in any case and order; may repeat a name. Never {@code null}. */
    List<String> names();

    /** Removes every field called {@code name} (case-insensitive); absent names are ignored. */
    void remove(String name);

    /** Appends one field; existing fields of the same name are kept. */
    void add(String name, String value);
}
