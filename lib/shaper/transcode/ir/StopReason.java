package shaper.transcode.ir;

/** Why the model stopped. */
public enum StopReason {
    END_TURN, MAX_TOKENS, STOP_SEQUENCE, TOOL_USE, REFUSAL
}
