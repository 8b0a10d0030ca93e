package shaper.server;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.common.socket.SocketOptions;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webserver.WebServer;
import io.helidon.http.DirectHandler;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import java.time.Duration;

import shaper.admission.AdmissionConfig;
import shaper.admission.Admitter;
import shaper.admission.DisconnectWatcher;
import shaper.admission.LimiterFactory;
import shaper.cluster.ClusterBackend;
import shaper.cluster.LinkSnapshot;
import shaper.admission.ProviderLimiters;
import shaper.auth.ClientKeys;
import shaper.auth.UpstreamAuth;
import shaper.config.BindAddress;
import shaper.config.ConfigException;
import shaper.config.ProviderConfig;
import shaper.limit.LimiterSnapshot;
import shaper.limit.SystemTimeSource;
import shaper.config.ShaperConfig;
import shaper.config.UpstreamUrl;
import shaper.observe.ExchangeCounters;
import shaper.metrics.MetricsListener;
import shaper.observe.BreakerTransitions;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangePublisher;
import shaper.observe.Journal;
import shaper.proxy.CallWatch;
import shaper.proxy.HeaderRewrite;
import shaper.proxy.HelidonInternals;
import shaper.proxy.ProxyHandler;
import shaper.proxy.TranscodeStages;
import shaper.transcode.TranscodeCredentials;
import shaper.proxy.ClientConnection;
import shaper.proxy.SelectorWatch;
import shaper.proxy.Upstream;
import shaper.proxy.Upstreams;
import shaper.breaker.CircuitBreaker;
import shaper.breaker.BreakerSnapshot;
import shaper.retry.ThreadLocalJitter;
import shaper.proxy.UpgradeTunnel;

/**
 * The running proxy: one Helidon listener (virtual thread per request, TCP_NODELAY) whose single
 * route is the {@link MountTable} (health, client keys, mounts), plus a WebSocket upgrade tunnel.
 * Each provider gets its own limiters, admitter, breaker, upstream pools, counters and credential
 * rewrite, so one provider's queue or outage never holds up another. Production and tests start it
 * through {@link #start}.
 */
public final class ShaperServer {
    /** Kept strongly reachable: JUL holds loggers weakly and would forget the level. */
    private static final Logger HELIDON_LOGGER = Logger.getLogger("io.helidon");

    /** Helidon's own wait for in-flight work on stop; {@link #shutdown} ends it sooner by interrupting. */
    private static final Duration HELIDON_GRACE_MARGIN = Duration.ofSeconds(5);

    private final WebServer server;
    private final List<Mount> mounts;
    private final List<Admitter> admitters;
    private final Duration grace;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch cutNow = new CountDownLatch(1);
    private final java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();

    private final AutoCloseable[] resources;
    private final Map<String, ClusterBackend> backends;
    private final ExchangeLog log;
    private final Optional<Integer> metricsPort;

    private ShaperServer(WebServer server, List<Mount> mounts, List<Admitter> admitters, Duration grace,
                         Map<String, ClusterBackend> backends, ExchangeLog log, Optional<Integer> metricsPort,
                         AutoCloseable... resources) {
        this.server = server;
        this.mounts = mounts;
        this.admitters = admitters;
        this.grace = grace;
        this.backends = Map.copyOf(backends);
        this.log = log;
        this.metricsPort = metricsPort;
        this.resources = resources;
    }

    /** Starts the proxy with secrets read from the process environment. */
    public static ShaperServer start(ShaperConfig config, PrintStream out, PrintStream err) {
        return start(config, out, err, System::getenv);
    }

    /**
     * Resolves every secret, then builds each provider's own limiters, admitter, breaker, upstream
     * pools and credential rewrite, then binds. Nothing binds when a secret cannot be resolved.
     *
     * @param env environment lookup for {@code env:VAR} references ({@code System::getenv} in production)
     * @throws shaper.config.ConfigException when a secret cannot be resolved; the message names the reference, never a value
     */
    public static ShaperServer start(ShaperConfig config, PrintStream out, PrintStream err, Function<String, String> env) {
        HELIDON_LOGGER.setLevel(Level.WARNING);
        ClientKeys keys = ClientKeys.resolve(config.server().clientKeys(), env);
        List<UpstreamAuth> auths = new ArrayList<>();
        for (ProviderConfig p : config.providers()) {
            auths.add(resolveAuth(p, env));
        }
        ExchangeLog log = new ExchangeLog(out);
        SystemTimeSource time = new SystemTimeSource("shaper-timer");
        DisconnectWatcher watcher = new DisconnectWatcher();
        SelectorWatch clientWatch = new SelectorWatch();
        CallWatch calls = new CallWatch();
        List<Mount> mounts = new ArrayList<>();
        List<Admitter> admitters = new ArrayList<>();
        List<AutoCloseable> closeables = new ArrayList<>();
        Map<String, ClusterBackend> backends = new HashMap<>();
        MetricsHook metricsHook = new MetricsHook(config.server().metricsBind().isPresent());
        for (int i = 0; i < config.providers().size(); i++) {
            ProviderConfig p = config.providers().get(i);
            // the priority header is for the proxy alone: never forwarded, classes declared or not
            HeaderRewrite ownHeaders = HeaderRewrite.dropping(p.priority().header());
            HeaderRewrite rewrite = ownHeaders.then(CredentialRewrite.of(keys, auths.get(i)));
            AdmissionConfig admission = p.admission();
            LimiterFactory factory = LimiterFactory.inProcess(time);
            if (p.cluster().clustered()) {
                ClusterBackend backend = ClusterBackend.open(p.cluster(), p.upstream(), time, env, log::info);
                closeables.add(backend);
                backends.put(p.name(), backend);
                log.info("provider=" + p.name() + " " + backend.describe());
                factory = backend;
            }
            ProviderLimiters limiters = new ProviderLimiters(p.name(), admission, p.gateway().bigCtxTokens(),
                    p.gateway().bigCtxConcurrency(), factory);
            limiters.warnings().forEach(err::println);
            boolean keepAlive = !admission.upstreamDisableKeepAlives();
            Upstream main = new Upstream(p.upstream(), limiters.upstreamPoolSize(), keepAlive);
            Upstream responses = p.gateway().responsesUpstream() == null ? null
                    : new Upstream(p.gateway().responsesUpstream(), limiters.upstreamPoolSize(), keepAlive);
            Upstreams upstreams = new Upstreams(main, responses, p.mountPrefix().path());
            ExchangeLog providerLog = p.gateway().logFile() == null ? log : log.mirroredTo(p.gateway().logFile(), err);
            if (providerLog != log) {
                closeables.add(providerLog);
            }
            CircuitBreaker breaker = BreakerTransitions.logged(p.name(), CircuitBreaker.of(p.breaker()), providerLog);
            ExchangePublisher publisher = new ExchangePublisher(new Journal(p.name(), Journal.capacityFor(p.retry().maxBodyBytes())),
                    new ExchangeCounters(), metricsHook.observer(p.name()), providerLog);
            Admitter admitter = new Admitter(admission, time, watcher);
            admitters.add(admitter);
            TranscodeStages transcoding = TranscodeStages.of(p.transcode(), ownHeaders.then(transcodeCredentials(p, keys, auths.get(i), env, providerLog)),
                    providerLog);
            ProxyHandler handler = new ProxyHandler(p.name(), admission, p.retry(), limiters, admitter,
                    breaker, upstreams, publisher, ThreadLocalJitter.INSTANCE, rewrite, clientWatch, calls, transcoding);
            mounts.add(new Mount(p, limiters, upstreams, breaker, publisher, rewrite, handler));
        }
        MountTable table = new MountTable(mounts, keys, new HealthHandler(config.providers()), log);

        Http1Config http1 = Http1Config.builder()
                .sendKeepAliveHeader(false)
                .maxPrologueLength(32 * 1024)
                .validatePath(false)
                .build();
        UpgradeTunnel tunnel = new UpgradeTunnel("websocket", table::upgradeTarget, log);
        Duration headTimeout = config.server().headerReadTimeout();
        HeadReadTimeout heads = new HeadReadTimeout(Http1ConnectionSelector.builder()
                .config(http1)
                .putUpgrader("websocket", tunnel)
                .putUpgrader("WebSocket", tunnel)
                .build());
        WebServer server = WebServer.builder()
                .host(config.server().bind().host())
                .port(config.server().bind().port())
                .shutdownHook(false)
                .shutdownGracePeriod(config.server().shutdownGrace().plus(HELIDON_GRACE_MARGIN))
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .contentEncoding(ContentEncodingContext.builder().contentEncodingsDiscoverServices(false).build())
                .protocolsDiscoverServices(false)
                .addConnectionSelector(heads)
                .idleConnectionTimeout(headTimeout)
                .idleConnectionPeriod(HeadReadTimeout.checkPeriod(headTimeout))
                .directHandlers(DirectHandlers.builder().addHandler(DirectHandler.EventType.INTERNAL_ERROR, new BadInputAnswer()).build())
                .routing(r -> routing(r, table, heads))
                .build()
                .start();
        closeables.addAll(List.of(watcher, calls, clientWatch, time, log));
        if (config.server().metricsBind().isPresent()) {
            // Bound after the proxy listener, so a proxy bind failure never leaves it behind; its own
            // failure releases the proxy listener and everything else before startup fails.
            BindAddress metricsBind = config.server().metricsBind().get();
            try {
                closeables.addFirst(metricsHook.start(metricsBind, mounts,
                        name -> Optional.ofNullable(backends.get(name)).map(ClusterBackend::snapshot)));
            } catch (IOException | RuntimeException e) {
                new ShaperServer(server, List.copyOf(mounts), List.copyOf(admitters), config.server().shutdownGrace(), backends, log,
                        Optional.empty(), closeables.toArray(AutoCloseable[]::new)).stop();
                throw new ConfigException("-metrics-bind " + metricsBind + ": cannot listen: " + e.getMessage());
            }
        }
        ShaperServer shaper = new ShaperServer(server, List.copyOf(mounts), List.copyOf(admitters), config.server().shutdownGrace(),
                backends, log, metricsHook.port(), closeables.toArray(AutoCloseable[]::new));
        String bound = config.server().bind().host() + ":" + server.port();
        metricsHook.port().ifPresent(port -> log.info("metrics listening on " + config.server().metricsBind().get().host() + ":" + port
                + MetricsListener.PATH));
        for (int i = 0; i < mounts.size(); i++) {
            ProviderConfig p = mounts.get(i).config();
            log.info("shaper listening on " + bound + " provider=" + p.name() + " prefix=" + p.mountPrefix()
                    + " upstream=" + UpstreamUrl.display(p.upstream()));
            log.info("provider=" + p.name() + " " + auths.get(i).describe());
        }
        if (keys.required()) {
            log.info(keys.describe());
        }
        UpstreamAuth.startupNote(auths).ifPresent(err::println);
        HelidonInternals.problems().forEach(err::println);
        config.server().bind().exposureWarning().ifPresent(err::println);
        return shaper;
    }

    /** The credential step of a provider's transcoded routes: the proxy's client key out, then the transcode target auth. */
    private static HeaderRewrite transcodeCredentials(ProviderConfig p, ClientKeys keys, UpstreamAuth providerAuth,
                                                      Function<String, String> env, ExchangeLog log) {
        if (!p.transcode().enabled()) {
            return HeaderRewrite.NONE;
        }
        TranscodeCredentials credentials;
        try {
            credentials = TranscodeCredentials.resolve(p.transcode().auth(), p.auth(), providerAuth, p.upstream(), env);
        } catch (ConfigException e) {
            throw new ConfigException("provider \"" + p.name() + "\": " + e.getMessage());
        }
        log.info("provider=" + p.name() + " " + credentials.describe());
        return headers -> {
            HelidonHeaderEditor editor = new HelidonHeaderEditor(headers);
            keys.strip(editor);
            credentials.apply(editor);
        };
    }

    private static UpstreamAuth resolveAuth(ProviderConfig p, Function<String, String> env) {
        try {
            return UpstreamAuth.resolve(p.auth(), p.upstream(), env);
        } catch (ConfigException e) {
            throw new ConfigException("provider \"" + p.name() + "\": " + e.getMessage());
        }
    }

    /** The single route that production and tests share: every method and path goes to the mount table. */
    static void routing(HttpRouting.Builder routing, MountTable table, HeadReadTimeout heads) {
        routing.any((req, res) -> {
            heads.enter();
            try {
                route(req, res, table);
            } finally {
                heads.leave();
            }
        });
    }

    private static void route(io.helidon.webserver.http.ServerRequest req, io.helidon.webserver.http.ServerResponse res, MountTable table) {
        if (ClientCloseRequest.asked(req.headers())) {
            // RFC 9112 §9.6: after answering a request that says "close", the server closes.
            // Helidon marks the response "Connection: close" but would keep reading; the close
            // must wait until the response is committed, which happens after this handler.
            ClientConnection connection = ClientConnection.of(req, null);
            res.whenSent(connection::closeAfterResponse);
        }
        table.handle(req, res);
    }

    public int port() {
        return server.port();
    }

    /** The {@code -metrics-bind} listener's port; empty without one. */
    public Optional<Integer> metricsPort() {
        return metricsPort;
    }

    /** The provider names, in command-line order ({@code default} for an unnamed single provider). */
    public List<String> providers() {
        return mounts.stream().map(m -> m.config().name()).toList();
    }

    /** The counters of the named provider. */
    public ExchangeCounters counters(String provider) {
        return mount(provider).publisher().counters();
    }

    /** The named provider's journal: recent exchanges and those in flight. */
    public Journal journal(String provider) {
        return mount(provider).publisher().journal();
    }

    /**
     * The server's log: {@link ExchangeLog#divertTo} sends its stdout lines (every provider's) to
     * another consumer, such as the TUI's Logs tab; {@code -log-file} mirrors keep theirs.
     */
    public ExchangeLog log() {
        return log;
    }

    /** The named provider's settings. */
    public ProviderConfig provider(String provider) {
        return mount(provider).config();
    }

    private Mount mount(String provider) {
        return mounts.stream().filter(m -> m.config().name().equals(provider)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no provider " + provider));
    }

    /** The named provider's circuit breaker state. */
    public BreakerSnapshot breaker(String provider) {
        return mount(provider).breaker().snapshot();
    }

    /** The named provider's limiter snapshots (routes, default pool, global, large-request gate). */
    public List<LimiterSnapshot> limiters(String provider) {
        return mount(provider).limiters().snapshots();
    }

    /** The named provider's cluster link (up or on its fallback, transitions), empty when its limiters are in-process. */
    public Optional<LinkSnapshot> limiterBackend(String provider) {
        mount(provider);
        return Optional.ofNullable(backends.get(provider)).map(ClusterBackend::snapshot);
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
            admitters.forEach(Admitter::drain);
            Thread stopper = Thread.ofPlatform().name("shaper-stop").start(this::stopListener);
            long deadline = System.nanoTime() + grace.toNanos();
            awaitQuietly(stopper, deadline);
            while (stopper.isAlive()) {
                // past the grace: Helidon interrupts the handlers still running when its wait is interrupted
                stopper.interrupt();
                joinQuietly(stopper, Duration.ofMillis(50));
            }
            if (cutNow.getCount() == 0 && grace.isPositive()) {
                Thread.currentThread().interrupt(); // keep the caller's interrupt
            }
            mounts.forEach(m -> m.upstreams().close());
            for (AutoCloseable r : resources) {
                try {
                    r.close();
                } catch (Exception e) {
                    // shutting down: nothing left to tell
                }
            }
        } finally {
            stopped.countDown();
        }
    }

    /** Ends a graceful stop's wait now (a second SIGINT, or {@code q} pressed again). */
    public void cutNow() {
        cutNow.countDown();
    }

    private void stopListener() {
        while (server.isRunning()) {
            try {
                server.stop();
            } catch (IllegalStateException interruptedBeforeStopping) {
                Thread.interrupted(); // the cut came before Helidon began: stop again, now without waiting
            }
        }
    }

    private void awaitQuietly(Thread stopper, long deadline) {
        while (stopper.isAlive() && cutNow.getCount() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            joinQuietly(stopper, Duration.ofNanos(Math.min(left, Duration.ofMillis(50).toNanos())));
        }
    }

    /** An interrupt of the stopping thread counts as a request to cut now. */
    private void joinQuietly(Thread t, Duration d) {
        try {
            t.join(d);
        } catch (InterruptedException e) {
            cutNow();
        }
    }

    public void awaitStop() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
