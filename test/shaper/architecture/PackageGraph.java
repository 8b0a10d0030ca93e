package shaper.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which {@code shaper} package uses which, read from source text: every {@code import shaper...} line
 * and every fully qualified {@code shaper.pkg.Type} in code, with comments and string and character
 * literals removed first, so a Javadoc link or a log message naming a class makes no edge.
 *
 * @param edges from package to used package to one file that uses it (the first in path order), so a
 *              report can say where an edge comes from
 */
record PackageGraph(Map<String, Map<String, String>> edges) {
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** A package name (lower-case segments) followed by a type (upper case) or an import's {@code *}. */
    private static final Pattern REFERENCE = Pattern.compile("(?<![\\w.])(shaper(?:\\s*\\.\\s*[a-z_][a-z0-9_]*)*)\\s*\\.\\s*(?:[A-Z]|\\*)");

    /** The graph of every {@code .java} file under {@code root}. */
    static PackageGraph read(Path root) {
        Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                sources.put(root.getFileName().resolve(root.relativize(f)).toString(), Files.readString(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return of(sources);
    }

    /** @param sources file name to its text, in the order the names should be reported */
    static PackageGraph of(Map<String, String> sources) {
        Map<String, Map<String, String>> edges = new TreeMap<>();
        sources.forEach((file, text) -> {
            String code = code(text);
            Matcher p = PACKAGE.matcher(code);
            if (!p.find()) {
                return;
            }
            String from = p.group(1);
            Matcher m = REFERENCE.matcher(code);
            while (m.find()) {
                String to = m.group(1).replaceAll("\\s", "");
                if (!to.equals(from)) {
                    edges.computeIfAbsent(from, k -> new TreeMap<>()).putIfAbsent(to, file);
                }
            }
        });
        return new PackageGraph(edges);
    }

    /** Every set of packages that reach one another (a strongly connected component of more than one), sorted. */
    List<Set<String>> cycles() {
        return new Tarjan().run();
    }

    /** One component as a report: its members, then each edge inside it with the file that makes it. */
    String describe(Set<String> component) {
        StringBuilder b = new StringBuilder(component.toString());
        for (String from : component) {
            edges.getOrDefault(from, Map.of()).forEach((to, file) -> {
                if (component.contains(to)) {
                    b.append("\n  ").append(from).append(" -> ").append(to).append("  (").append(file).append(')');
                }
            });
        }
        return b.toString();
    }

    /**
     * {@code source} with its comments and string, text-block and character literals blanked out
     * (line breaks kept), so only code is searched.
     */
    static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            int end;
            if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = closing(source, i + 3, "\"\"\"");
            } else if (c == '"' || c == '\'') {
                end = closing(source, i + 1, String.valueOf(c));
            } else {
                out.append(c);
                i++;
                continue;
            }
            for (int k = i; k < end; k++) {
                out.append(source.charAt(k) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }

    /** The index just past {@code quote} from {@code from} on, skipping backslash escapes; the end of the text when unclosed. */
    private static int closing(String source, int from, String quote) {
        for (int i = from; i < source.length(); i++) {
            if (source.charAt(i) == '\\') {
                i++;
            } else if (source.startsWith(quote, i)) {
                return i + quote.length();
            }
        }
        return source.length();
    }

    /** Tarjan's strongly connected components, with an explicit stack so a deep graph cannot overflow the thread's. */
    private final class Tarjan {
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new HashSet<>();
        private final List<Set<String>> found = new ArrayList<>();

        List<Set<String>> run() {
            Set<String> nodes = new TreeSet<>(edges.keySet());
            edges.values().forEach(m -> nodes.addAll(m.keySet()));
            for (String v : nodes) {
                if (!index.containsKey(v)) {
                    visit(v);
                }
            }
            found.sort((a, b) -> a.iterator().next().compareTo(b.iterator().next()));
            return found;
        }

        private void visit(String root) {
            Deque<Map.Entry<String, Iterator<String>>> work = new ArrayDeque<>();
            enter(root, work);
            while (!work.isEmpty()) {
                Map.Entry<String, Iterator<String>> top = work.peek();
                String v = top.getKey();
                if (top.getValue().hasNext()) {
                    String w = top.getValue().next();
                    if (!index.containsKey(w)) {
                        enter(w, work);
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    String parent = work.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<String> component = new TreeSet<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) {
                        found.add(component);
                    }
                }
            }
        }

        private void enter(String v, Deque<Map.Entry<String, Iterator<String>>> work) {
            index.put(v, index.size());
            low.put(v, index.get(v));
            stack.push(v);
            onStack.add(v);
            work.push(Map.entry(v, edges.getOrDefault(v, Map.of()).keySet().iterator()));
        }
    }
}
