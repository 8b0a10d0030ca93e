package shaper.transcode;

/**
 * What becomes of provider reasoning ({@code reasoning} / {@code reasoning_content}) in an answer:
 * native thinking blocks (the default), client text, or a drop decided by the
 * {@code provider_reasoning_text} loss key. {@code provider_reasoning_thinking} wins when both
 * capabilities are on.
 */
public enum ReasoningDisposition {
    THINKING, TEXT, DROP;

    public static ReasoningDisposition of(TranscodeMapping m) {
        if (m.has(ChatCapability.PROVIDER_REASONING_THINKING)) {
            return THINKING;
        }
        return m.has(ChatCapability.PROVIDER_REASONING_TEXT) ? TEXT : DROP;
    }
}
