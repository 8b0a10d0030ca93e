package shaper.cli;

import java.util.List;
import java.util.Optional;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The usage error for a flag the command does not know, with the nearest flag it does know: a
 * typo ({@code -concurency 2}) reads {@code unknown flag -concurency (did you mean -concurrency?)}.
 * Only the first unknown word that looks like a flag is named: the words after it are most likely
 * its value, and calling {@code 2} a second unknown option sends the reader looking for a typo
 * that is not there.
 */
final class UnknownFlag {
    /** Beyond this many edits the nearest flag is more likely a coincidence than what was meant. */
    private static final int MAX_EDITS = 3;

    private UnknownFlag() {
    }

    /** The message for {@code e}, or empty when no unmatched word looks like a flag (then picocli's own words stand). */
    static Optional<String> message(UnmatchedArgumentException e, CommandSpec spec) {
        List<String> unmatched = e.getUnmatched();
        Optional<String> first = unmatched.stream().filter(w -> w.startsWith("-") && w.length() > 1).findFirst();
        if (first.isEmpty()) {
            return Optional.empty();
        }
        String typed = first.get();
        int eq = typed.indexOf('=');
        String name = eq > 0 ? typed.substring(0, eq) : typed;
        return Optional.of("unknown flag " + name + nearest(name, spec).map(n -> " (did you mean " + n + "?)").orElse(""));
    }

    /** The known single-dash flag fewest edits away from {@code typed}, if it is close enough to be a typo. */
    static Optional<String> nearest(String typed, CommandSpec spec) {
        String bare = typed.replaceFirst("^-+", "");
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (OptionSpec o : spec.options()) {
            for (String n : o.names()) {
                if (n.startsWith("--")) {
                    continue; // every flag has a single-dash spelling; suggest that one
                }
                int d = distance(bare, n.substring(1));
                if (d < bestDistance) {
                    bestDistance = d;
                    best = n;
                }
            }
        }
        int allowed = Math.min(MAX_EDITS, Math.max(1, bare.length() / 3 + 1));
        return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** Edit distance where swapping two neighbouring letters is one edit (the commonest typo), as are insert, delete, replace. */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
