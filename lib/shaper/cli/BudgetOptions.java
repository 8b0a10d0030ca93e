package shaper.cli;

import picocli.CommandLine.Option;
import shaper.budget.BudgetConfig;
import shaper.config.ConfigException;

/** Provider-scope flags of budget-paced admission: per-minute budgets and the upstream's headers as their source. */
public final class BudgetOptions {
    @Option(names = {"-rpm", "--rpm"}, paramLabel = "N", defaultValue = "0",
            description = "Requests per minute the provider may send, a continuously refilled bucket (0 = off, the default)")
    long rpm;

    @Option(names = {"-tpm", "--tpm"}, paramLabel = "N", defaultValue = "0",
            description = "Tokens (input + output) per minute (0 = off, the default)")
    long tpm;

    @Option(names = {"-itpm", "--itpm"}, paramLabel = "N", defaultValue = "0",
            description = "Input tokens per minute, cache reads excluded (0 = off, the default)")
    long itpm;

    @Option(names = {"-otpm", "--otpm"}, paramLabel = "N", defaultValue = "0",
            description = "Output tokens per minute (0 = off, the default)")
    long otpm;

    @Option(names = {"-budget-from-headers", "--budget-from-headers"}, arity = "0..1", fallbackValue = "true", defaultValue = "false",
            description = "Take each budget's limit and level from the upstream's rate-limit headers, and hold the provider until a 429/529's retry-after (default ${DEFAULT-VALUE})")
    boolean fromHeaders;

    BudgetConfig toConfig() {
        try {
            return new BudgetConfig(rpm, tpm, itpm, otpm, fromHeaders);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }
}
