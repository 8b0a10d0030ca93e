package shaper.testing;

import java.util.ArrayList;
import java.util.List;

import shaper.observe.ExchangeRecord;
import shaper.observe.Provenance;

/**
 * The exchanges a running proxy answered itself with an error (a conversion it refused, a local
 * answer, any 4xx/5xx that never reached the upstream), read from every provider's journal. A real
 * client retries some refusals silently with features off, so its exit status alone proves nothing:
 * a session test asserts there are none.
 */
public final class LocalRefusals {
    private LocalRefusals() {
    }

    /** Every local refusal in the journals, one line each: method, path, status, provenance, reason and the answer's start. */
    public static List<String> of(RunningShaper shaper) {
        List<String> out = new ArrayList<>();
        for (String provider : shaper.server().providers()) {
            for (ExchangeRecord r : shaper.server().journal(provider).recent()) {
                boolean local = r.provenance() == Provenance.LOCAL_CONVERSION || r.provenance() == Provenance.LOCAL_ANSWER;
                if (local || (r.status() >= 400 && r.attempts() == 0)) {
                    String body = r.responseBody().text();
                    out.add(r.method() + " " + r.path() + " status=" + r.status() + " provenance=" + r.provenance().label()
                            + " reason=" + r.reason().label() + " answer=" + body.substring(0, Math.min(400, body.length())));
                }
            }
        }
        return out;
    }

    /** Fails listing them when the proxy refused anything itself. */
    public static void assertNone(RunningShaper shaper) {
        List<String> refused = of(shaper);
        if (!refused.isEmpty()) {
            throw new AssertionError("the proxy refused " + refused.size() + " request(s) locally:\n" + String.join("\n", refused));
        }
    }

    /** How many exchanges the journals hold (to show a session went through the proxy at all). */
    public static int exchanges(RunningShaper shaper) {
        int n = 0;
        for (String provider : shaper.server().providers()) {
            n += shaper.server().journal(provider).recent().size();
        }
        return n;
    }
}
