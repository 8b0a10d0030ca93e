package shaper.server;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.webserver.WebServer;
import shaper.auth.ClientKeys;
import shaper.auth.UpstreamAuth;
import shaper.breaker.BreakerSnapshot;
import shaper.cluster.ClusterBackend;
import shaper.cluster.LinkSnapshot;
import shaper.config.BindAddress;
import shaper.config.ConfigException;
import shaper.config.UpstreamUrl;
import shaper.limit.LimiterSnapshot;
import shaper.limit.SystemTimeSource;
import shaper.limit.TimeSource;
import shaper.metrics.MetricsListener;
import shaper.metrics.ShaperMetrics;
import shaper.observe.ExchangeCounters;
import shaper.observe.ExchangeLog;
import shaper.observe.Journal;
import shaper.proxy.watch.HelidonInternals;
import shaper.proxy.ProviderAssembly;
import shaper.settings.ProviderConfig;
import shaper.settings.ShaperConfig;
import shaper.status.StatusPage;
import shaper.telemetry.Telemetry;

/**
 * The running proxy: the assembled providers ({@link ProviderAssembly}, one each, nothing shared
 * between them but the {@link ServerServices}), the listener that routes to them
 * ({@link ShaperListener}, {@link MountTable}), the optional metrics listener, and graceful stop.
 * Production and tests start it through {@link #start}.
 */
public final class ShaperServer {
    /** Kept strongly reachable: JUL holds loggers weakly and would forget the level. */
    private static final Logger HELIDON_LOGGER = Logger.getLogger("io.helidon");

    private final WebServer server;
    private final LiveProviders live;
    private final ServerServices services;
    private final Optional<MetricsListener> metrics;
    private final Duration grace;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch cutNow = new CountDownLatch(1);
    private final AtomicBoolean stopping = new AtomicBoolean();

    private ShaperServer(WebServer server, LiveProviders live, ServerServices services, Optional<MetricsListener> metrics,
                         Duration grace) {
        this.server = server;
        this.live = live;
        this.services = services;
        this.metrics = metrics;
        this.grace = grace;
    }

    /** Starts the proxy with secrets read from the process environment. */
    public static ShaperServer start(ShaperConfig config, PrintStream out, PrintStream err) {
        return start(config, out, err, System::getenv);
    }

    /** Starts the proxy on the system clock (a timer thread the server owns and stops). */
    public static ShaperServer start(ShaperConfig config, PrintStream out, PrintStream err, Function<String, String> env) {
        SystemTimeSource time = new SystemTimeSource("shaper-timer");
        try {
            return start(config, out, err, env, time, true);
        } catch (RuntimeException | Error e) {
            time.close();
            throw e;
        }
    }

    /**
     * Starts the proxy on {@code time}, the one clock of every limiter, breaker and journal (tests move
     * it instead of waiting); the caller keeps and closes it.
     */
    public static ShaperServer start(ShaperConfig config, PrintStream out, PrintStream err, Function<String, String> env,
                                     TimeSource time) {
        return start(config, out, err, env, time, false);
    }

    /**
     * Resolves every secret and assembles every provider, then binds the listener, then the metrics
     * listener. Nothing binds when a secret cannot be resolved; a failure after that releases all.
     *
     * @throws ConfigException when a secret cannot be resolved (the message names the reference,
     *                         never a value) or the metrics address cannot be bound
     */
    private static ShaperServer start(ShaperConfig config, PrintStream out, PrintStream err, Function<String, String> env,
                                      TimeSource time, boolean ownsTime) {
        HELIDON_LOGGER.setLevel(Level.WARNING);
        ClientKeys keys = ClientKeys.resolve(config.server().clientKeys(), env);
        Telemetry telemetry = Telemetry.open(config.server().telemetry());
        ServerServices services = ServerServices.open(time, ownsTime, out, err, keys, env, config.server().metricsBind().isPresent(), telemetry);
        LiveProviders live;
        WebServer server;
        try {
            live = LiveProviders.assemble(config, services);
        } catch (RuntimeException | Error e) {
            services.close();
            throw e;
        }
        telemetry.slots(live::slotCounts);
        try {
            server = ShaperListener.start(config.server(), live.table(), services.log(), live.sessions(), services.parts().tracing());
        } catch (RuntimeException | Error e) {
            live.close();
            services.close();
            throw e;
        }
        ShaperServer shaper = new ShaperServer(server, live, services, Optional.empty(), config.server().shutdownGrace());
        if (config.server().metricsBind().isPresent()) {
            shaper = shaper.withMetrics(config.server().metricsBind().get());
        }
        shaper.announce(config, err);
        return shaper;
    }

    /** Binds the metrics listener after the proxy listener (a proxy bind failure never leaves it behind); its failure stops all. */
    private ShaperServer withMetrics(BindAddress bind) {
        try {
            ListenCheck.bindable("-metrics-bind", bind);
            ShaperMetrics model = new ShaperMetrics(live::views, services.histograms().orElseThrow(), live.status());
            model.tokens(live.current().stream().map(p -> java.util.Map.entry(p.name(), p.tokens())).toList());
            model.webSocketSessions(live.sessions()::open);
            StatusPage status = new StatusPage(live::current, live::keys, java.time.Clock.systemUTC());
            return new ShaperServer(server, live, services, Optional.of(MetricsListener.start(bind, model, status)), grace);
        } catch (ConfigException e) {
            stop();
            throw e;
        } catch (IOException | RuntimeException e) {
            stop();
            throw ListenCheck.failure("-metrics-bind", bind, e);
        }
    }

    /** The startup lines: where each provider listens, its credentials, and warnings. */
    private void announce(ShaperConfig config, PrintStream err) {
        ExchangeLog log = services.log();
        String bound = config.server().bind().host() + ":" + server.port();
        metrics.ifPresent(m -> log.info("metrics listening on " + config.server().metricsBind().get().host() + ":" + m.port()
                + MetricsListener.PATH));
        for (ProviderAssembly p : live.current()) {
            ProviderConfig c = p.config();
            log.info("shaper listening on " + bound + " provider=" + c.name() + " prefix=" + c.mountPrefix()
                    + " upstream=" + UpstreamUrl.display(c.upstream()));
            log.info("provider=" + c.name() + " " + p.auth().describe());
        }
        if (services.keys().required()) {
            log.info(services.keys().describe());
        }
        UpstreamAuth.startupNote(live.current().stream().map(ProviderAssembly::auth).toList()).ifPresent(err::println);
        HelidonInternals.problems().forEach(err::println);
        config.server().bind().exposureWarning().ifPresent(err::println);
        for (ProviderConfig c : config.providers()) {
            UpstreamUrl.doubledV1Warning(c.upstream(), "-upstream").ifPresent(err::println);
            if (c.gateway().responsesUpstream() != null) {
                UpstreamUrl.doubledV1Warning(c.gateway().responsesUpstream(), "-responses-upstream").ifPresent(err::println);
            }
        }
    }

    /**
     * Tries once, in the background, to connect to every upstream, and logs a line for each that
     * cannot be reached. The command line asks for it; tests that count upstream connections do not.
     */
    public void checkUpstreams() {
        UpstreamReachability.checkInBackground(live.current().stream().map(ProviderAssembly::config).toList(),
                services.log());
    }

    /** The providers and client keys in force, which a configuration reload replaces, and the reloads so far. */
    public LiveProviders live() {
        return live;
    }

    /** The proxy listener's port. */
    public int port() {
        return server.port();
    }

    /** The {@code -metrics-bind} listener's port; empty without one. */
    public Optional<Integer> metricsPort() {
        return metrics.map(MetricsListener::port);
    }

    /** The provider names, in command-line order ({@code default} for an unnamed single provider). */
    public List<String> providers() {
        return live.current().stream().map(ProviderAssembly::name).toList();
    }

    /** The named provider, as assembled. */
    public ProviderAssembly assembly(String provider) {
        return live.assembly(provider);
    }

    /** The counters of the named provider. */
    public ExchangeCounters counters(String provider) {
        return assembly(provider).publisher().counters();
    }

    /** The named provider's journal: recent exchanges and those in flight. */
    public Journal journal(String provider) {
        return assembly(provider).publisher().journal();
    }

    /**
     * The server's log: {@link ExchangeLog#divertTo} sends its stdout lines (every provider's) to
     * another consumer, such as the TUI's Logs tab; {@code -log-file} mirrors keep theirs.
     */
    public ExchangeLog log() {
        return services.log();
    }

    /** The named provider's settings. */
    public ProviderConfig provider(String provider) {
        return assembly(provider).config();
    }

    /** The named provider's circuit breaker state. */
    public BreakerSnapshot breaker(String provider) {
        return assembly(provider).breaker().snapshot();
    }

    /**
     * The counts of every one of the named provider's limiters (routes, default pool, global,
     * large-request gate), for sums and look-ups by name; {@code ProviderLimiters.views()} tells
     * them apart by role.
     */
    public List<LimiterSnapshot> limiters(String provider) {
        return assembly(provider).limiters().views().counts();
    }

    /** The named provider's cluster link (up or on its fallback, transitions), empty when its limiters are in-process. */
    public Optional<LinkSnapshot> limiterBackend(String provider) {
        return assembly(provider).cluster().map(ClusterBackend::snapshotWithQueue);
    }

    /** Stops at once: in-flight exchanges are cut (tests, and a second SIGINT). */
    public void stop() {
        shutdown(Duration.ZERO);
    }

    /** Stops with the configured {@code -shutdown-grace}. */
    public void shutdown() {
        shutdown(grace);
    }

    /**
     * Graceful stop: the listener stops accepting, queued requests get the queue's timeout answer,
     * in-flight exchanges (streams included) may finish for up to {@code grace}, then whatever is left
     * is cut and every resource closed. Blocks until done. A concurrent call, or {@link #cutNow()},
     * ends the wait sooner; calls after the first only do that.
     */
    public void shutdown(Duration grace) {
        if (!stopping.compareAndSet(false, true)) {
            if (grace.isZero()) {
                cutNow();
            }
            awaitStop();
            return;
        }
        try {
            live.all().forEach(p -> p.admission().drain());
            ListenerStop.stop(server, grace, cutNow, services.parts().stop());
            if (cutNow.getCount() == 0 && grace.isPositive()) {
                Thread.currentThread().interrupt(); // keep the caller's interrupt
            }
            metrics.ifPresent(ServerServices::closeQuietly);
            live.close();
            services.close();
        } finally {
            stopped.countDown();
        }
    }

    /** Ends a graceful stop's wait now (a second SIGINT, or {@code q} pressed again). */
    public void cutNow() {
        cutNow.countDown();
    }

    public void awaitStop() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
