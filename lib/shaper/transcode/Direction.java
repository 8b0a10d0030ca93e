package shaper.transcode;

import java.util.Optional;

/**
 * A client dialect paired with an upstream dialect: exactly the three conversions that exist.
 * Requests are never chained through a third dialect.
 */
public enum Direction {
    RESPONSES_CHAT(Protocol.RESPONSES, Protocol.CHAT_COMPLETIONS),
    MESSAGES_CHAT(Protocol.MESSAGES, Protocol.CHAT_COMPLETIONS),
    MESSAGES_RESPONSES(Protocol.MESSAGES, Protocol.RESPONSES);

    private final Protocol client;
    private final Protocol upstream;

    Direction(Protocol client, Protocol upstream) {
        this.client = client;
        this.upstream = upstream;
    }

    public Protocol client() {
        return client;
    }

    public Protocol upstream() {
        return upstream;
    }

    /** The direction for the pair, if one exists ({@code responses -> responses} does not). */
    public static Optional<Direction> of(Protocol client, Protocol upstream) {
        for (Direction d : values()) {
            if (d.client == client && d.upstream == upstream) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /** The short label used in the loss matrix: {@code messages->chat}. */
    public String label() {
        return client.spelling() + "->" + (upstream == Protocol.CHAT_COMPLETIONS ? "chat" : upstream.spelling());
    }
}
