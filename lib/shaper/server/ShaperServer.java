package shaper.server;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.common.socket.SocketOptions;
import io.helidon.http.encoding.ContentEncodingContext;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import java.time.Duration;

import shaper.admission.AdmissionConfig;
import shaper.admission.Admitter;
import shaper.admission.DisconnectWatcher;
import shaper.admission.ProviderLimiters;
import shaper.auth.ClientKeys;
import shaper.auth.UpstreamAuth;
import shaper.config.ConfigException;
import shaper.config.ProviderConfig;
import shaper.limit.LimiterSnapshot;
import shaper.limit.SystemTimeSource;
import shaper.config.ShaperConfig;
import shaper.config.UpstreamUrl;
import shaper.observe.ExchangeCounters;
import shaper.observe.ExchangeLog;
import shaper.proxy.HeaderRewrite;
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

    private final WebServer server;
    private final List<Mount> mounts;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private final AutoCloseable[] resources;

    private ShaperServer(WebServer server, List<Mount> mounts, AutoCloseable... resources) {
        this.server = server;
        this.mounts = mounts;
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
        List<Mount> mounts = new ArrayList<>();
        List<AutoCloseable> closeables = new ArrayList<>();
        for (int i = 0; i < config.providers().size(); i++) {
            ProviderConfig p = config.providers().get(i);
            HeaderRewrite rewrite = CredentialRewrite.of(keys, auths.get(i));
            AdmissionConfig admission = p.admission();
            ProviderLimiters limiters = new ProviderLimiters(p.name(), admission, p.gateway().bigCtxTokens(),
                    p.gateway().bigCtxConcurrency(), time);
            limiters.warnings().forEach(err::println);
            boolean keepAlive = !admission.upstreamDisableKeepAlives();
            Upstream main = new Upstream(p.upstream(), limiters.upstreamPoolSize(), keepAlive);
            Upstream responses = p.gateway().responsesUpstream() == null ? null
                    : new Upstream(p.gateway().responsesUpstream(), limiters.upstreamPoolSize(), keepAlive);
            Upstreams upstreams = new Upstreams(main, responses, p.mountPrefix().path());
            ExchangeCounters counters = new ExchangeCounters();
            CircuitBreaker breaker = CircuitBreaker.of(p.breaker());
            ExchangeLog providerLog = p.gateway().logFile() == null ? log : log.mirroredTo(p.gateway().logFile(), err);
            if (providerLog != log) {
                closeables.add(providerLog);
            }
            TranscodeStages transcoding = TranscodeStages.of(p.transcode(), transcodeCredentials(p, keys, auths.get(i), env, providerLog),
                    providerLog);
            ProxyHandler handler = new ProxyHandler(p.name(), admission, p.retry(), limiters, new Admitter(admission, time, watcher),
                    breaker, upstreams, providerLog, counters, ThreadLocalJitter.INSTANCE, rewrite, clientWatch, transcoding);
            mounts.add(new Mount(p, limiters, upstreams, breaker, counters, rewrite, handler));
        }
        MountTable table = new MountTable(mounts, keys, new HealthHandler(config.providers()), log);

        Http1Config http1 = Http1Config.builder()
                .sendKeepAliveHeader(false)
                .maxPrologueLength(32 * 1024)
                .validatePath(false)
                .build();
        UpgradeTunnel tunnel = new UpgradeTunnel("websocket", table::upgradeTarget, log);
        WebServer server = WebServer.builder()
                .host(config.server().bind().host())
                .port(config.server().bind().port())
                .shutdownHook(false)
                .connectionOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .contentEncoding(ContentEncodingContext.builder().contentEncodingsDiscoverServices(false).build())
                .protocolsDiscoverServices(false)
                .addConnectionSelector(Http1ConnectionSelector.builder()
                        .config(http1)
                        .putUpgrader("websocket", tunnel)
                        .putUpgrader("WebSocket", tunnel)
                        .build())
                .routing(r -> routing(r, table))
                .build()
                .start();
        closeables.addAll(List.of(watcher, clientWatch, time, log));
        ShaperServer shaper = new ShaperServer(server, List.copyOf(mounts), closeables.toArray(AutoCloseable[]::new));
        String bound = config.server().bind().host() + ":" + server.port();
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
    static void routing(HttpRouting.Builder routing, MountTable table) {
        routing.any((req, res) -> {
            if (ClientCloseRequest.asked(req.headers())) {
                // RFC 9112 §9.6: after answering a request that says "close", the server closes.
                // Helidon marks the response "Connection: close" but would keep reading; the close
                // must wait until the response is committed, which happens after this handler.
                ClientConnection connection = ClientConnection.of(req, null);
                res.whenSent(connection::closeAfterResponse);
            }
            table.handle(req, res);
        });
    }

    public int port() {
        return server.port();
    }

    /** The counters of the named provider. */
    public ExchangeCounters counters(String provider) {
        return mount(provider).counters();
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

    public void stop() {
        try {
            server.stop();
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

    public void awaitStop() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
