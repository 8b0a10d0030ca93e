package shaper.configfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import shaper.ProjectRoot;
import shaper.cli.FlagSpec;
import shaper.cli.OptionModel;

/**
 * {@code shaper.schema.json} at the repository root is what the option model generates. To
 * regenerate after adding a flag: {@code SHAPER_WRITE_SCHEMA=1 ./smoke.sh SchemaDriftTest}.
 */
class SchemaDriftTest {
    @Test
    void committedSchemaMatchesTheFlags() throws Exception {
        Path committed = ProjectRoot.find().resolve("shaper.schema.json");
        String generated = ConfigSchema.json();
        if ("1".equals(System.getenv("SHAPER_WRITE_SCHEMA"))) {
            Files.writeString(committed, generated);
        }
        assertEquals(generated, Files.readString(committed),
                "shaper.schema.json is stale: regenerate with SHAPER_WRITE_SCHEMA=1 ./smoke.sh SchemaDriftTest");
    }

    @Test
    void everyFileKeyIsInTheSchemaWithItsScope() throws Exception {
        JsonNode schema = new ObjectMapper().readTree(ConfigSchema.json());
        for (FlagSpec f : OptionModel.current().flags()) {
            boolean top = schema.path("properties").has(f.key());
            boolean entry = schema.path("$defs").path("provider").path("properties").has(f.key());
            assertEquals(f.fileKey(), top, f.flag());
            assertEquals(f.fileKey() && f.scope() == FlagSpec.Scope.PROVIDER, entry, f.flag());
        }
        assertTrue(schema.path("properties").has("providers"));
    }
}
