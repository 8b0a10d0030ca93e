package shaper.transcode.pipeline;

import java.util.List;

import shaper.transcode.ConversionReport;
import shaper.transcode.FlatToolNames;

/**
 * A converted request, ready to send, and what the answer's conversion needs from it.
 *
 * @param body           the upstream request body
 * @param upstreamPath   the target path
 * @param query          the client query to forward (allowed parameters only, raw), or null
 * @param stream         the client's stream intent, which decides stream negotiation
 * @param clientModel    the model name the client sees echoed
 * @param requestedStops the client's stop sequences
 * @param report         this exchange's conversion report, continued by the answer
 * @param toolNames      flat tool names to map back to the client's namespaces ({@link FlatToolNames#NONE} when none)
 */
public record Prepared(byte[] body, String upstreamPath, String query, boolean stream, String clientModel,
                       List<String> requestedStops, ConversionReport report,
                       FlatToolNames toolNames) {
    public Prepared {
        requestedStops = List.copyOf(requestedStops);
        java.util.Objects.requireNonNull(toolNames, "toolNames");
    }

    /** A prepared request whose client dialect has no tool namespaces. */
    public Prepared(byte[] body, String upstreamPath, String query, boolean stream, String clientModel, List<String> requestedStops,
                    ConversionReport report) {
        this(body, upstreamPath, query, stream, clientModel, requestedStops, report, FlatToolNames.NONE);
    }
}
