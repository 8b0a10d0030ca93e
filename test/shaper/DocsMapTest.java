package shaper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * README.md stays a short manual with the two commands first, and every reference page under docs/ is
 * reachable from it and opens with its own table of contents.
 */
class DocsMapTest {
    @Test
    void theReadmeIsShortAndStartsWithTheTwoCommands() throws Exception {
        List<String> readme = Files.readAllLines(ProjectRoot.find().resolve("README.md"));
        assertTrue(readme.size() <= 320, "README.md has " + readme.size() + " lines; the reference belongs under docs/");
        String head = String.join("\n", readme.subList(0, Math.min(20, readme.size())));
        assertTrue(head.contains("./jbang Shaper.java -upstream") && head.contains("./smoke.sh"), "run and test come first:\n" + head);
    }

    @Test
    void everyDocsPageIsLinkedFromTheReadmeAndHasAContentsList() throws Exception {
        Path root = ProjectRoot.find();
        String readme = Files.readString(root.resolve("README.md")) + Files.readString(root.resolve("BENCHMARKS.md"));
        List<String> unlinked = new ArrayList<>();
        List<String> withoutContents = new ArrayList<>();
        try (Stream<Path> pages = Files.list(root.resolve("docs"))) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                String name = "docs/" + page.getFileName();
                if (!readme.contains("](" + name)) {
                    unlinked.add(name);
                }
                String text = Files.readString(page);
                if (!text.contains("\n## Contents\n") && !text.contains("\n- [")) {
                    withoutContents.add(name);
                }
            }
        }
        assertTrue(unlinked.isEmpty(), "pages no link in README.md (or BENCHMARKS.md) leads to: " + unlinked);
        assertTrue(withoutContents.isEmpty(), "pages without a table of contents: " + withoutContents);
    }
}
