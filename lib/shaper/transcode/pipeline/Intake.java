package shaper.transcode.pipeline;

import shaper.codec.BodyDecoder;
import shaper.codec.CodingException;
import shaper.codec.ContentCodings;
import shaper.transcode.ConversionReport;
import shaper.transcode.TranscodeException;
import shaper.transcode.TranscodeMapping;

/**
 * What every direction does to a client request before decoding it: the content codings undone,
 * the size bound, the allowed query parameters, and the exchange's conversion report.
 */
record Intake(String query, ConversionReport report) {
    static Intake of(TranscodeMapping mapping, byte[] clientBody, String rawQuery) {
        if (clientBody.length > mapping.limits().requestBytes()) {
            throw new TranscodeException.TooLarge(mapping.limits().requestBytes());
        }
        return new Intake(ClientQuery.filter(rawQuery, mapping.allowedQuery()), new ConversionReport(mapping.policy()));
    }

    /**
     * The client body with its {@code Content-Encoding} undone, decoded within
     * {@code -transcode-max-request-mb}: a bomb is {@link TranscodeException.TooLarge} (413), corrupt
     * data {@link TranscodeException.Invalid} (400), an unknown coding
     * {@link TranscodeException.UnsupportedEncoding} (415). The converted request is built from the
     * decoded JSON, so it goes upstream uncompressed.
     */
    static byte[] decoded(TranscodeMapping mapping, byte[] clientBody, ContentCodings codings) {
        try {
            return BodyDecoder.decode(clientBody, codings, mapping.limits().requestBytes());
        } catch (CodingException e) {
            throw switch (e) {
                case CodingException.TooLarge tooLarge -> new TranscodeException.TooLarge(mapping.limits().requestBytes());
                case CodingException.Corrupt corrupt -> new TranscodeException.Invalid(corrupt.getMessage());
                case CodingException.Unsupported unsupported -> new TranscodeException.UnsupportedEncoding(unsupported.getMessage());
            };
        }
    }
}
