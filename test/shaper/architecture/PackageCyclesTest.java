package shaper.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;

/**
 * The packages under {@code lib/} form layers: no package reaches, through imports or fully
 * qualified names, a package that reaches it back. A cycle makes two concerns one (neither can be
 * read, tested or replaced alone), so the test names every cycle with the files that close it.
 */
class PackageCyclesTest {
    @Test
    void libHasNoPackageCycle() {
        PackageGraph graph = PackageGraph.read(ProjectRoot.find().resolve("lib"));
        List<Set<String>> cycles = graph.cycles();
        assertTrue(cycles.isEmpty(), "package cycles in lib/ (each: its packages, then the edges inside it):\n"
                + cycles.stream().map(graph::describe).collect(Collectors.joining("\n")));
    }

    @Test
    void importsAndQualifiedNamesBothCloseACycle() {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("a/A.java", "package shaper.a;\nimport shaper.b.B;\nclass A {}\n");
        sources.put("b/B.java", "package shaper.b;\nclass B { Object c = new shaper.c.C(); }\n");
        sources.put("c/C.java", "package shaper.c;\nimport static shaper.a.A.*;\nclass C {}\n");
        sources.put("d/D.java", "package shaper.d;\nimport shaper.a.*;\nclass D {}\n");

        PackageGraph graph = PackageGraph.of(sources);

        assertEquals(List.of(Set.of("shaper.a", "shaper.b", "shaper.c")), graph.cycles());
        assertTrue(graph.describe(Set.of("shaper.a", "shaper.b", "shaper.c")).contains("shaper.b -> shaper.c  (b/B.java)"),
                graph.describe(Set.of("shaper.a", "shaper.b", "shaper.c")));
    }

    @Test
    void commentsAndLiteralsMakeNoEdge() {
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put("a/A.java", "package shaper.a;\nimport shaper.b.B;\nclass A {}\n");
        sources.put("b/B.java", """
                package shaper.b;
                /** Used by {@link shaper.a.A}. */
                class B {
                    // shaper.a.A calls this
                    String s = "shaper.a.A \\" shaper.a.A";
                    char q = '"';
                    String t = \"""
                            shaper.a.A
                            \""";
                    /* shaper.a.A */
                }
                """);

        assertEquals(List.of(), PackageGraph.of(sources).cycles());
    }
}
