package shaper.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A command line split at its {@code --provider[=NAME]} markers: the part before the first marker
 * (the head) and one section per marker. A token that is the value of the flag before it
 * ({@code -name --provider}) is a value, never a marker or a flag, exactly as the per-section
 * parse will read it. Scope is enforced here, before any parsing, so the error can name both the
 * flag and the section:
 * <ul>
 *   <li>a server-scope flag inside a section is a usage error;</li>
 *   <li>with markers present, a provider-scope flag in the head is a usage error (each flag goes
 *       in the section it configures; there is no implicit first provider);</li>
 *   <li>{@code --account} is reserved and always a usage error.</li>
 * </ul>
 *
 * @param head     tokens before the first marker (all tokens when there is none)
 * @param sections one per marker, in order
 */
public record ArgvSections(List<String> head, List<Section> sections) {
    /**
     * One {@code --provider} section.
     *
     * @param number 1-based position
     * @param name   the marker's {@code =NAME}, or {@code null}
     * @param args   the tokens up to the next marker
     */
    public record Section(int number, String name, List<String> args) {
        /** How errors name this section: {@code provider "x"} or {@code provider section N}. */
        public String label() {
            return name != null ? "provider \"" + name + "\"" : "provider section " + number;
        }
    }

    private static final List<String> MARKERS = List.of("--provider", "-provider");
    private static final List<String> RESERVED = List.of("--account", "-account");

    public boolean sectioned() {
        return !sections.isEmpty();
    }

    /** @throws UsageException for a malformed marker, a flag in the wrong scope or {@code --account} */
    public static ArgvSections split(List<String> argv) {
        return split(argv, FlagScopes.current());
    }

    /** The marker that starts a section named {@code name} ({@code null}: an unnamed one). */
    public static String marker(String name) {
        return name == null ? "--provider" : "--provider=" + name;
    }

    /**
     * {@code args} cut into one group per flag: the flag token and, when it takes its value from the
     * next token, that token too. A token that is no flag (a stray argument) is a group of its own.
     */
    public static List<List<String>> groups(List<String> args) {
        FlagScopes scopes = FlagScopes.current();
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String token = args.get(i);
            if (token.startsWith("-") && !token.contains("=") && scopes.takesValue(token) && i + 1 < args.size()) {
                out.add(List.of(token, args.get(++i)));
            } else {
                out.add(List.of(token));
            }
        }
        return out;
    }

    /** The flag a group of {@link #groups} starts with, without its {@code =value}; the token itself when it is no flag. */
    public static String flagName(String token) {
        int eq = token.indexOf('=');
        return eq > 0 && token.startsWith("-") ? token.substring(0, eq) : token;
    }

    static ArgvSections split(List<String> argv, FlagScopes scopes) {
        List<String> head = new ArrayList<>();
        List<Section> sections = new ArrayList<>();
        List<String> current = head;
        String currentName = null;
        boolean value = false;
        for (String token : argv) {
            if (value) {
                current.add(token);
                value = false;
                continue;
            }
            String flag = flagName(token);
            if (MARKERS.contains(flag)) {
                if (current != head) {
                    sections.add(new Section(sections.size() + 1, currentName, List.copyOf(current)));
                }
                currentName = markerName(token);
                current = new ArrayList<>();
                continue;
            }
            if (RESERVED.contains(flag)) {
                throw new UsageException(flag + " is reserved and not supported: configure each account as its own --provider section");
            }
            current.add(token);
            value = !token.contains("=") && scopes.takesValue(flag);
        }
        if (current != head) {
            sections.add(new Section(sections.size() + 1, currentName, List.copyOf(current)));
        }
        ArgvSections split = new ArgvSections(List.copyOf(head), List.copyOf(sections));
        if (split.sectioned()) {
            split.checkScopes(scopes);
        }
        return split;
    }

    private void checkScopes(FlagScopes scopes) {
        for (String flag : flags(head, scopes)) {
            if (scopes.provider().contains(flag) && !FlagScopes.HELP.contains(flag)) {
                throw new UsageException(flag + " is a provider-scope flag: with --provider sections it belongs inside the section it configures",
                        flag, 0);
            }
        }
        for (Section s : sections) {
            for (String flag : flags(s.args(), scopes)) {
                if (scopes.server().contains(flag) && !FlagScopes.HELP.contains(flag)) {
                    throw new UsageException(s.label() + ": " + flag + " is a server-scope flag: put it before the first --provider marker",
                            flag, s.number());
                }
            }
        }
    }

    /** The flag names among {@code args}, skipping the tokens that are values of the flag before them. */
    private static List<String> flags(List<String> args, FlagScopes scopes) {
        List<String> flags = new ArrayList<>();
        boolean value = false;
        for (String token : args) {
            if (value) {
                value = false;
                continue;
            }
            String flag = flagName(token);
            if (token.startsWith("-")) {
                flags.add(flag);
            }
            value = !token.contains("=") && scopes.takesValue(flag);
        }
        return flags;
    }

    private static String markerName(String token) {
        int eq = token.indexOf('=');
        if (eq < 0) {
            return null;
        }
        String name = token.substring(eq + 1);
        if (name.isEmpty()) {
            throw new UsageException("malformed section marker \"" + token + "\" (expected: --provider or --provider=NAME)");
        }
        return name;
    }
}
