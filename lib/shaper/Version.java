package shaper;

/** The product's name and version, shown by {@code -version} and the health route. */
public final class Version {
    public static final String SERVICE = "ai-concurrency-shaper";
    public static final String VERSION = "0.1.0";

    private Version() {
    }
}
