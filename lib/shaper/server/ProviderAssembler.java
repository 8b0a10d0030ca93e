package shaper.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.net.URI;
import java.util.function.LongSupplier;

import shaper.admission.AdmissionChain;
import shaper.admission.LimiterFactory;
import shaper.admission.ProviderLimiters;
import shaper.auth.UpstreamAuth;
import shaper.breaker.CircuitBreaker;
import shaper.budget.ProviderTokens;
import shaper.cluster.ClusterBackend;
import shaper.config.ConfigException;
import shaper.config.UpstreamUrl;
import shaper.config.WireConfig;
import shaper.observe.BreakerTransitions;
import shaper.observe.ExchangeCounters;
import shaper.observe.ExchangeLog;
import shaper.observe.ExchangePublisher;
import shaper.observe.ExchangeRecord;
import shaper.observe.Journal;
import shaper.priority.PriorityClassifier;
import shaper.proxy.HeaderRewrite;
import shaper.proxy.ProviderAssembly;
import shaper.proxy.TranscodeStages;
import shaper.proxy.Upstreams.Upstream;
import shaper.proxy.Upstreams;
import shaper.auth.ProxyCredentials;
import shaper.proxy.client.Dialing;
import shaper.proxy.client.EgressProxy;
import shaper.proxy.client.Pooling;
import shaper.proxy.client.ProxyEnvironment;
import shaper.proxy.client.UpstreamTls;
import shaper.retry.RetryPolicy;
import shaper.retry.ThreadLocalJitter;
import shaper.settings.ProviderConfig;
import shaper.settings.ShaperConfig;
import shaper.tls.TlsFiles;
import shaper.transcode.TranscodeCredentials;

/**
 * The one place a provider is built from its config: {@link #assembleAll} resolves every
 * provider's secrets first (nothing is built when one cannot be resolved), then assembles each
 * {@link ProviderAssembly} in command-line order. A failure part-way closes what was built.
 */
final class ProviderAssembler {
    private static final TlsFiles.Flags UPSTREAM_TLS_FLAGS = new TlsFiles.Flags("-upstream-ca", "-upstream-client-cert", "-upstream-client-key");

    private ProviderAssembler() {
    }

    /** Every provider of {@code config}, assembled on {@code services}: a reload with nothing running. */
    static List<ProviderAssembly> assembleAll(ShaperConfig config, ServerServices services) {
        return reassembleAll(config, services, java.util.Map.of(), new ArrayList<>());
    }

    /**
     * A reload's providers: each one already running is built again from its new config (secrets
     * read again) but keeps what carries state across the reload: its limiters (reconfigured in
     * place when {@code commit} runs, so waiters and slots stay), its journal and counters, its cluster
     * link, and its breaker and upstream pools when their settings did not change. New providers are
     * assembled from scratch. Nothing running changes before {@code commit} runs.
     *
     * @param running the providers in force, by name
     * @param commit  collects the in-place changes to run when the reload is committed
     */
    static List<ProviderAssembly> reassembleAll(ShaperConfig config, ServerServices services, java.util.Map<String, ProviderAssembly> running,
                                                List<Runnable> commit) {
        List<UpstreamAuth> auths = new ArrayList<>();
        for (ProviderConfig p : config.providers()) {
            auths.add(named(p, () -> UpstreamAuth.resolve(p.auth(), p.upstream(), services.env())));
        }
        List<ProviderAssembly> built = new ArrayList<>();
        try {
            for (int i = 0; i < config.providers().size(); i++) {
                ProviderConfig p = config.providers().get(i);
                built.add(assemble(p, auths.get(i), services, Optional.ofNullable(running.get(p.name())), commit));
            }
            return List.copyOf(built);
        } catch (RuntimeException | Error e) {
            // the reload fails whole: release what was built for it, never what the running providers use
            for (ProviderAssembly b : built) {
                ProviderAssembly was = running.get(b.name());
                if (was == null) {
                    ServerServices.closeQuietly(b);
                } else if (was.upstreams() != b.upstreams()) {
                    b.upstreams().close();
                }
            }
            throw e;
        }
    }

    private static ProviderAssembly assemble(ProviderConfig p, UpstreamAuth auth, ServerServices s, Optional<ProviderAssembly> previous,
                                             List<Runnable> commit) {
        boolean sameLog = previous.isPresent() && java.util.Objects.equals(previous.get().config().gateway().logFile(), p.gateway().logFile());
        ExchangeLog log = sameLog ? previous.get().publisher().log()
                : p.gateway().logFile() == null ? s.log() : s.log().mirroredTo(p.gateway().logFile(), s.err());
        Optional<ClusterBackend> cluster = previous.flatMap(ProviderAssembly::cluster);
        try {
            java.util.function.BiConsumer<String, shaper.limit.LimitChange> limitLog = (key, c) -> log.info("limit provider="
                    + p.name() + " limiter=" + key + " " + c.from() + " -> " + c.to() + " (" + c.reason() + ")");
            LimiterFactory factory = p.adaptive().enabled()
                    ? LimiterFactory.adaptive(s.time(), p.adaptive().min(), limitLog)
                    : LimiterFactory.inProcess(s.time());
            if (previous.isEmpty() && p.cluster().clustered()) {
                ClusterBackend backend = ClusterBackend.open(p.cluster(), p.upstream(), s.time(), s.env(), s.log()::info);
                cluster = Optional.of(backend);
                s.log().info("provider=" + p.name() + " " + backend.describe());
            }
            if (cluster.isPresent()) {
                // classes and the adaptive limit are kept cluster-wide, in Redis
                factory = p.adaptive().enabled() ? cluster.get().adaptive(p.adaptive().min(), limitLog) : cluster.get();
            }
            if (previous.isPresent()) {
                factory = LiveLimiters.keeping(previous.get().limiters(), factory, commit);
            }
            ProviderLimiters limiters = new ProviderLimiters(p.name(), p.admission(), p.gateway().bigCtxTokens(),
                    p.gateway().bigCtxConcurrency(), factory);
            limiters.warnings().forEach(s.err()::println);
            CircuitBreaker breaker = previous.isPresent() && previous.get().config().breaker().equals(p.breaker())
                    ? previous.get().breaker()
                    : CircuitBreaker.of(p.breaker(), s.time()::nanoTime, List.of(BreakerTransitions.logTo(p.name(), log)));
            AdmissionChain admission = AdmissionChain.standard(limiters, breaker, p.admission(), s.time(), s.disconnects());
            Consumer<ExchangeRecord> metrics = s.histograms().map(h -> h.observer(p.name(), p.clients().metrics())).orElse(record -> { });
            ExchangePublisher publisher = previous.isPresent()
                    ? new ExchangePublisher(previous.get().publisher().journal(), previous.get().publisher().counters(), metrics, log)
                    : new ExchangePublisher(new Journal(p.name(), Journal.capacityFor(p.retry().maxBodyBytes()),
                            s.time()::wallClock, s.time()::nanoTime), new ExchangeCounters(), metrics, log);
            // the priority header is for the proxy alone: removed on every route, classes declared or not;
            // so is a client-id header of the shaper's own (x-shaper-...), while a client's own header goes on
            HeaderRewrite ownHeaders = HeaderRewrite.dropping(p.priority().header());
            for (shaper.clients.ClientSource source : p.clients().identity().sources()) {
                if (source.shapersOwnHeader()) {
                    ownHeaders = ownHeaders.then(HeaderRewrite.dropping(source.header()));
                }
            }
            TranscodeStages transcoding = TranscodeStages.of(p.transcode(), ownHeaders.then(transcodeCredentials(p, auth, s, log)), log);
            Dials dials = dials(p, s);
            Upstreams upstreams = previous.isPresent() && sameUpstreams(previous.get(), p, limiters.upstreamPoolSize(), dials)
                    ? previous.get().upstreams() : upstreams(p, limiters.upstreamPoolSize(), s, log::info, dials);
            return new ProviderAssembly(p, s.time(), limiters, admission, breaker, new RetryPolicy(p.retry(), ThreadLocalJitter.INSTANCE),
                    upstreams, auth, ownHeaders.then(CredentialRewrite.of(s.keys(), auth)), transcoding, cluster, publisher,
                    tokens(p, s, previous, cluster),
                    // kept across a reload that leaves the classes alone: its unknown-class count is a counter
                    previous.isPresent() && previous.get().config().priority().equals(p.priority())
                            ? previous.get().priority() : new PriorityClassifier(p.priority()));
        } catch (RuntimeException | Error e) {
            if (previous.isEmpty()) {
                cluster.ifPresent(ServerServices::closeQuietly);
            }
            if (log != s.log() && !sameLog) {
                log.close();
            }
            throw e;
        }
    }

    /**
     * The provider's token economics: kept across a reload that leaves its budget flags alone, so
     * the buckets keep their levels (a reload is no fresh minute), the counters and the learned
     * rate limits go on; built anew otherwise, with the buckets in Redis in cluster mode.
     */
    private static ProviderTokens tokens(ProviderConfig p, ServerServices s, Optional<ProviderAssembly> previous,
                                         Optional<ClusterBackend> cluster) {
        if (previous.isPresent() && previous.get().config().budget().equals(p.budget())) {
            return previous.get().tokens();
        }
        return new ProviderTokens(p.name(), p.budget(), s.time(),
                p.budget().enabled() ? cluster.map(c -> c.tokenBuckets(p.budget())).orElse(null) : null);
    }

    /**
     * How a provider's upstreams are dialled, its files and secrets read now (a reload reads them
     * again, so a rotated certificate or password counts as a change), with the lines to log when
     * pools are built from them.
     */
    private record Dials(Dialing main, Dialing responses, List<String> notes) {
    }

    private static Dials dials(ProviderConfig p, ServerServices s) {
        WireConfig wire = p.gateway().wire();
        WireConfig.UpstreamTlsFiles f = wire.tls();
        UpstreamTls tls = named(p, () -> UpstreamTls.of(new TlsFiles(f.ca(), f.caOnly() ? TlsFiles.Trust.ONLY : TlsFiles.Trust.ADDED,
                f.cert(), f.key(), UPSTREAM_TLS_FLAGS)));
        ProxyCredentials login = wire.proxyAuth() == null ? null : named(p, () -> ProxyCredentials.resolve(wire.proxyAuth(), s.env()));
        List<String> notes = new ArrayList<>();
        Dialing main = new Dialing(egress(p, p.upstream(), s, notes::add), tls).withLogin(login);
        URI second = p.gateway().responsesUpstream();
        Dialing responses = second == null ? null : new Dialing(egress(p, second, s, notes::add), tls).withLogin(login);
        return new Dials(main, responses, List.copyOf(notes));
    }

    /** Whether a reload can keep the running upstream pools: same URLs, mount, keep-alive choice, wire settings, dialling and pool size. */
    private static boolean sameUpstreams(ProviderAssembly running, ProviderConfig p, int poolSize, Dials dials) {
        ProviderConfig was = running.config();
        Upstreams up = running.upstreams();
        return was.upstream().equals(p.upstream()) && java.util.Objects.equals(was.gateway().responsesUpstream(), p.gateway().responsesUpstream())
                && was.mountPrefix().equals(p.mountPrefix())
                && was.admission().upstreamDisableKeepAlives() == p.admission().upstreamDisableKeepAlives()
                && was.gateway().wire().equals(p.gateway().wire())
                && up.main().dialing().equals(dials.main())
                && (up.responses() == null || up.responses().dialing().equals(dials.responses()))
                && running.limiters().upstreamPoolSize() == poolSize;
    }

    private static Upstreams upstreams(ProviderConfig p, int poolSize, ServerServices s, Consumer<String> notices, Dials dials) {
        dials.notes().forEach(notices);
        Pooling pooling = new Pooling(poolSize, !p.admission().upstreamDisableKeepAlives(), p.gateway().wire().idleTimeout());
        Upstream main = new Upstream(p.upstream(), pooling, dials.main(), s.time()::nanoTime, notices);
        Upstream responses = p.gateway().responsesUpstream() == null ? null
                : new Upstream(p.gateway().responsesUpstream(), pooling, dials.responses(), s.time()::nanoTime, notices);
        return new Upstreams(main, responses, p.mountPrefix().path());
    }

    /**
     * The forward proxy an upstream's connections go through: {@code -upstream-proxy}, else what the
     * environment names for it (see {@link ProxyEnvironment}); {@code log} gets a line when there is one.
     */
    private static EgressProxy egress(ProviderConfig p, URI upstream, ServerServices s, Consumer<String> log) {
        String flag = p.gateway().wire().proxy();
        EgressProxy proxy;
        String source;
        if (flag != null) {
            proxy = flag.equals(WireConfig.DIRECT) ? null : EgressProxy.parse(flag);
            source = "-upstream-proxy";
        } else {
            ProxyEnvironment.Choice choice;
            try {
                choice = ProxyEnvironment.of(upstream, s.env());
            } catch (IllegalArgumentException e) {
                throw new ConfigException("provider " + p.name() + ": " + e.getMessage());
            }
            proxy = choice == null ? null : choice.proxy();
            source = choice == null ? null : choice.source();
        }
        if (proxy != null) {
            log.accept("provider=" + p.name() + " upstream=" + UpstreamUrl.display(upstream) + " egress=" + proxy.display() + " from=" + source
                    + (p.gateway().wire().proxyAuth() == null ? "" : " login=" + p.gateway().wire().proxyAuth()));
        }
        return proxy;
    }

    /** The credential step of a provider's transcoded routes: the proxy's client key out, then the transcode target auth. */
    private static HeaderRewrite transcodeCredentials(ProviderConfig p, UpstreamAuth providerAuth, ServerServices s, ExchangeLog log) {
        if (!p.transcode().enabled()) {
            return HeaderRewrite.NONE;
        }
        TranscodeCredentials credentials = named(p, () -> TranscodeCredentials.resolve(p.transcode().auth(), p.auth(), providerAuth,
                p.upstream(), s.env()));
        log.info("provider=" + p.name() + " " + credentials.describe());
        return headers -> {
            HelidonHeaderEditor editor = new HelidonHeaderEditor(headers);
            s.keys().strip(editor);
            credentials.apply(editor);
        };
    }

    /** Runs {@code step}, naming the provider in a configuration error's message. */
    private static <T> T named(ProviderConfig p, java.util.function.Supplier<T> step) {
        try {
            return step.get();
        } catch (ConfigException e) {
            throw new ConfigException("provider \"" + p.name() + "\": " + e.getMessage());
        }
    }
}
