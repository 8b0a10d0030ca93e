package shaper.transcode;

/**
 * What every direction does to a client request before decoding it: the size bound, the allowed
 * query parameters, and the exchange's conversion report.
 */
record Intake(String query, ConversionReport report) {
    static Intake of(TranscodeMapping mapping, byte[] clientBody, String rawQuery) {
        if (clientBody.length > mapping.limits().requestBytes()) {
            throw new TranscodeException.TooLarge(mapping.limits().requestBytes());
        }
        return new Intake(ClientQuery.filter(rawQuery, mapping.allowedQuery()), new ConversionReport(mapping.policy()));
    }
}
