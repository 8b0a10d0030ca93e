package shaper;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** jbang-catalog.json has JBang's shape and every alias points at a script that exists. */
class CatalogTest {
    @Test
    void everyAliasHasAScriptRefThatExistsAndADescription() throws Exception {
        Path root = ProjectRoot.find();
        JsonNode catalog = new ObjectMapper().readTree(root.resolve("jbang-catalog.json").toFile());
        JsonNode aliases = catalog.get("aliases");
        assertTrue(aliases != null && aliases.isObject() && aliases.size() > 0, "catalog needs an aliases object");
        assertTrue(aliases.has("shaper"), "the proxy alias is shaper");
        for (Map.Entry<String, JsonNode> alias : aliases.properties()) {
            String ref = alias.getValue().path("script-ref").asText("");
            assertFalse(ref.isBlank(), alias.getKey() + " has no script-ref");
            assertTrue(Files.isRegularFile(root.resolve(ref)), alias.getKey() + " -> " + ref + " does not exist");
            assertFalse(alias.getValue().path("description").asText("").isBlank(), alias.getKey() + " has no description");
        }
    }
}
