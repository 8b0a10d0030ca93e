package shaper.mount;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import shaper.config.ConfigException;

/**
 * Sends a raw request path to the one mount whose prefix leads it. Built once at startup from
 * non-overlapping prefixes, so at most one mount can match; production and tests share it.
 */
public final class MountRouter<T> {
    private record Entry<T>(MountPrefix prefix, T target) {
    }

    private final List<Entry<T>> entries;

    private MountRouter(List<Entry<T>> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Starts an empty router; {@link Builder#mount} adds in order. */
    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    /**
     * The mount for {@code rawPath} (path only, no query) and the path to forward, or empty when no
     * prefix leads the resolved path (answer {@code 404}).
     */
    public Optional<Mounted<T>> route(String rawPath) {
        String resolved = RequestPaths.resolveDots(rawPath);
        if (!resolved.startsWith("/")) {
            return entries.size() == 1 && entries.getFirst().prefix().isRoot()
                    ? Optional.of(new Mounted<>(entries.getFirst().target(), resolved))
                    : Optional.empty();
        }
        if (entries.size() == 1 && entries.getFirst().prefix().isRoot()) {
            return Optional.of(new Mounted<>(entries.getFirst().target(), resolved)); // one root mount leads every path, whole
        }
        List<String> segments = RequestPaths.segments(resolved);
        for (Entry<T> e : entries) {
            if (e.prefix().leads(segments)) {
                List<String> rest = segments.subList(e.prefix().segments().size(), segments.size());
                return Optional.of(new Mounted<>(e.target(), "/" + String.join("/", rest)));
            }
        }
        return Optional.empty();
    }

    /** Collects mounts; {@link #build} refuses overlapping prefixes. */
    public static final class Builder<T> {
        private final List<Entry<T>> entries = new ArrayList<>();

        private Builder() {
        }

        public Builder<T> mount(MountPrefix prefix, T target) {
            entries.add(new Entry<>(prefix, target));
            return this;
        }

        /** @throws ConfigException when two prefixes overlap segment-wise */
        public MountRouter<T> build() {
            for (int i = 0; i < entries.size(); i++) {
                for (int j = i + 1; j < entries.size(); j++) {
                    if (entries.get(i).prefix().overlaps(entries.get(j).prefix())) {
                        throw new ConfigException("prefixes overlap: " + entries.get(i).prefix() + " and " + entries.get(j).prefix());
                    }
                }
            }
            return new MountRouter<>(entries);
        }
    }
}
