package shaper.transcode;

import java.util.Locale;

import shaper.config.ConfigException;

/**
 * The three wire dialects the transcoder speaks, by their {@code -transcode-route} spelling.
 * Chat Completions is upstream-only: no client of this proxy is transcoded <em>from</em> it.
 */
public enum Protocol {
    /** OpenAI Responses ({@code POST /v1/responses}): client or upstream. */
    RESPONSES,
    /** Anthropic Messages ({@code POST /v1/messages}): client only. */
    MESSAGES,
    /** OpenAI Chat Completions ({@code POST /v1/chat/completions}): upstream only. */
    CHAT_COMPLETIONS;

    /** The name on the command line: the constant's name in lower case, with dashes. */
    public String spelling() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @throws ConfigException for an unknown name or one that cannot play the client role */
    static Protocol client(String name) {
        Protocol p = parse(name);
        if (p == CHAT_COMPLETIONS) {
            throw new ConfigException(p.spelling() + " is not a valid client protocol; it is upstream-only");
        }
        return p;
    }

    /** @throws ConfigException for an unknown name or one that cannot play the upstream role */
    static Protocol upstream(String name) {
        Protocol p = parse(name);
        if (p == MESSAGES) {
            throw new ConfigException(p.spelling() + " is not a valid upstream protocol; it is client-only");
        }
        return p;
    }

    private static Protocol parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Protocol p : values()) {
            if (p.spelling().equals(n)) {
                return p;
            }
        }
        throw new ConfigException("unknown transcode protocol \"" + name + "\" (expected: responses, messages or chat-completions)");
    }
}
