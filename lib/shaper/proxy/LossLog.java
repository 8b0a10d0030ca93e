package shaper.proxy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import shaper.observe.ExchangeLog;
import shaper.transcode.ConversionReport;

/**
 * The loss decisions of a transcoded route, logged once per distinct set: the same approved losses
 * on every request (an upstream that never reports cache writes) would otherwise add one line per
 * exchange. A set seen before is not logged again; after {@link #DISTINCT_LIMIT} distinct sets the
 * route stops remembering and logs nothing new (the exchange records still carry each report).
 */
final class LossLog {
    static final int DISTINCT_LIMIT = 256;

    private final ExchangeLog log;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    LossLog(ExchangeLog log) {
        this.log = log;
    }

    void report(String method, String rawPath, ConversionReport report) {
        if (report.entries().isEmpty()) {
            return;
        }
        String set = report.entries().stream().map(e -> e.key().wireName()).sorted().distinct()
                .collect(java.util.stream.Collectors.joining(","));
        if (seen.size() < DISTINCT_LIMIT && seen.add(set)) {
            log.info("transcode: " + method + " " + rawPath + ": report " + report.summary()
                    + " (logged once per distinct set of loss decisions)");
        }
    }
}
