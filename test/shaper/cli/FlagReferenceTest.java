package shaper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import shaper.ProjectRoot;

/** docs/flags.md is the rendering of the option model; {@code UPDATE_DOCS=1} rewrites it instead of failing. */
class FlagReferenceTest {
    @Test
    void theFlagPageIsWhatTheOptionModelRenders() throws Exception {
        Path page = ProjectRoot.find().resolve("docs/flags.md");
        String expected = FlagReference.markdown(OptionModel.current());
        if ("1".equals(System.getenv("UPDATE_DOCS"))) {
            Files.writeString(page, expected);
        }
        assertEquals(expected, Files.exists(page) ? Files.readString(page) : "",
                "docs/flags.md drifted from the flags: UPDATE_DOCS=1 ./smoke.sh shaper.cli.FlagReferenceTest rewrites it");
    }
}
