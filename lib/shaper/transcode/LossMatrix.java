package shaper.transcode;

import java.util.stream.Collectors;

/**
 * {@code LOSS_MATRIX.md}, generated from {@link LossKey} (the one source); {@code LossMatrixTest}
 * fails when the committed file differs from {@link #markdown()} and writes the expected text next
 * to it ({@code LOSS_MATRIX.md.expected}) to copy over.
 */
public final class LossMatrix {
    private LossMatrix() {
    }

    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Transcoding loss matrix\n\n");
        sb.append("Generated from `lib/shaper/transcode/LossKey.java` (the registry the proxy uses); `LossMatrixTest` fails when\n");
        sb.append("this file drifts. A **policy** key is approved with `-transcode-allow-loss KEY` (withdrawn with `'!KEY'`);\n");
        sb.append("a rejected loss answers 400 `transcode field <path> uses unsupported feature \"<key>\"` in the client's dialect.\n");
        sb.append("A **note** is recorded on the exchange (the `transcode: ... report` log line) without a decision.\n");
        sb.append("\"Default\" means approved out of the box on a CLI mapping; `-transcode-strict-defaults` approves nothing.\n\n");
        sb.append("| key | kind | default | directions | what is lost or encoded |\n");
        sb.append("| --- | --- | --- | --- | --- |\n");
        for (LossKey k : LossKey.values()) {
            sb.append("| `").append(k.wireName()).append("` | ").append(k.kind() == LossKey.Kind.POLICY ? "policy" : "note")
                    .append(" | ").append(k.kind() == LossKey.Kind.NOTE ? "—" : k.cliDefault() ? "approved" : "rejected")
                    .append(" | ").append(k.directions().stream().map(Direction::label).collect(Collectors.joining(", ")))
                    .append(" | ").append(k.description().replace("|", "\\|")).append(" |\n");
        }
        sb.append("\nChat capabilities (`-transcode-chat-capability NAME` / `'!NAME'`):\n\n");
        sb.append("| capability | default |\n| --- | --- |\n");
        for (ChatCapability c : ChatCapability.values()) {
            sb.append("| `").append(c.wireName()).append("` | ").append(ChatCapability.cliDefaults().contains(c) ? "on" : "off").append(" |\n");
        }
        return sb.toString();
    }
}
