package shaper.transcode;

import java.util.List;

import shaper.sse.SseFrame;
import shaper.transcode.ir.StreamEvent;

/**
 * Turns one upstream SSE frame into the IR's stream events, keeping whatever state the upstream
 * dialect needs between frames. Tolerant: frames it does not know yield no events.
 */
public interface UpstreamStreamDecoder {
    /** @return the events this frame completes, in order; empty when it completes none */
    List<StreamEvent> decode(SseFrame frame);
}
