package shaper.proxy;

import java.util.ArrayList;
import java.util.List;

import io.helidon.http.WritableHeaders;
import shaper.transcode.TranscodeConfig;
import shaper.observe.ExchangeLog;
import shaper.transcode.TranscodeMapping;
import shaper.transcode.pipeline.Transcoder;

/**
 * A provider's transcoded routes, matched by method and canonical path; every other request is
 * passthrough. Built once at startup; immutable.
 */
public final class TranscodeStages {
    /** No transcoding. */
    public static final TranscodeStages NONE = new TranscodeStages(List.of(), List.of());

    /**
     * Client fields that never cross to a transcoded upstream: provider-specific protocol controls
     * ({@code anthropic-*}) and {@code Accept-Encoding}, so the answer arrives in a form the
     * converter reads. Credentials are the credential step's.
     */
    static final List<String> DROPPED_PREFIXES = List.of("anthropic-", "accept-encoding");

    private final List<TranscodeMapping> mappings;
    private final List<TranscodeStage> stages;

    private TranscodeStages(List<TranscodeMapping> mappings, List<TranscodeStage> stages) {
        this.mappings = mappings;
        this.stages = stages;
    }

    /**
     * @param credentials the transcoded routes' credential step (strip, then attach per the resolution table)
     */
    public static TranscodeStages of(TranscodeConfig config, HeaderRewrite credentials, ExchangeLog log) {
        if (!config.enabled()) {
            return NONE;
        }
        HeaderRewrite rewrite = headers -> {
            drop(headers);
            credentials.apply(headers);
        };
        List<TranscodeStage> stages = new ArrayList<>();
        for (TranscodeMapping m : config.mappings()) {
            stages.add(new TranscodeStage(Transcoder.of(m), rewrite, log));
        }
        return new TranscodeStages(config.mappings(), List.copyOf(stages));
    }

    /** The stage intercepting this request, or null for passthrough. */
    TranscodeStage match(String method, String rawPath) {
        for (int i = 0; i < mappings.size(); i++) {
            if (mappings.get(i).route().matches(method, rawPath)) {
                return stages.get(i);
            }
        }
        return null;
    }

    private static void drop(WritableHeaders<?> headers) {
        List<io.helidon.http.HeaderName> names = new ArrayList<>();
        headers.forEach(h -> {
            String lower = h.name().toLowerCase(java.util.Locale.ROOT);
            for (String p : DROPPED_PREFIXES) {
                if (lower.startsWith(p)) {
                    names.add(h.headerName());
                }
            }
        });
        names.forEach(headers::remove);
    }
}
