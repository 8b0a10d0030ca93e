package shaper;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository root, found from the working directory (smoke.sh runs from it). */
public final class ProjectRoot {
    private ProjectRoot() {
    }

    public static Path find() {
        Path p = Path.of("").toAbsolutePath();
        for (Path q = p; q != null; q = q.getParent()) {
            if (Files.isRegularFile(q.resolve("Shaper.java")) && Files.isRegularFile(q.resolve("smoke.sh"))) {
                return q;
            }
        }
        throw new IllegalStateException("run the tests from the repository (no Shaper.java above " + p + ")");
    }
}
