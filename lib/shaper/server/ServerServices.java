package shaper.server;

import java.io.PrintStream;
import java.util.Optional;
import java.util.function.Function;

import shaper.admission.DisconnectWatcher;
import shaper.auth.ClientKeys;
import shaper.limit.TimeSource;
import shaper.metrics.ExchangeHistograms;
import shaper.observe.ExchangeLog;
import shaper.proxy.StopCut;
import shaper.proxy.StreamThreads;
import shaper.proxy.watch.CallWatch;
import shaper.proxy.watch.SelectorWatch;
import shaper.proxy.ServerParts;
import shaper.telemetry.Telemetry;

/**
 * What every provider of one server shares, none of it holding per-provider state: the one clock,
 * the log, the exchanges' shared machinery ({@link ServerParts}: the watchers of queued clients and upstream calls, the
 * threads that relay event streams, the stop's cut signal), the client keys, the secret lookup
 * and the metrics histograms (empty without {@code -metrics-bind}).
 *
 * @param ownsTime whether {@link #close()} closes {@code time} (the server made it; an injected clock is the caller's)
 */
record ServerServices(TimeSource time, boolean ownsTime, ExchangeLog log, DisconnectWatcher disconnects, ServerParts parts,
                      ClientKeys keys, Function<String, String> env, PrintStream err, Optional<ExchangeHistograms> histograms,
                      Telemetry telemetry)
        implements AutoCloseable {

    /** @param telemetry the OpenTelemetry export ({@link Telemetry#OFF} without {@code -otel}); closed with the services */
    static ServerServices open(TimeSource time, boolean ownsTime, PrintStream out, PrintStream err, ClientKeys keys,
                               Function<String, String> env, boolean metrics, Telemetry telemetry) {
        ServerParts parts = new ServerParts(new SelectorWatch(), new CallWatch(), new StopCut(), new StreamThreads(StreamThreads.LIMIT),
                telemetry);
        return new ServerServices(time, ownsTime, new ExchangeLog(out), new DisconnectWatcher(), parts, keys, env, err,
                metrics ? Optional.of(new ExchangeHistograms()) : Optional.empty(), telemetry);
    }

    /** The same services with other client keys (a reload read them again); closing stays with the services it was copied from. */
    ServerServices withKeys(ClientKeys other) {
        return new ServerServices(time, ownsTime, log, disconnects, parts, other, env, err, histograms, telemetry);
    }

    @Override
    public void close() {
        disconnects.close();
        parts.calls().close();
        parts.streams().close();
        parts.clientWatch().close();
        telemetry.close(); // after the exchanges' machinery: the last spans are flushed (bounded)
        if (telemetry.spansDropped() + telemetry.spansFailed() > 0) {
            log.info("otel: " + telemetry.spansDropped() + " spans dropped (export queue full), " + telemetry.spansFailed()
                    + " not delivered");
        }
        if (ownsTime && time instanceof AutoCloseable c) {
            closeQuietly(c);
        }
        log.close();
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // shutting down: nothing left to tell
        }
    }
}
