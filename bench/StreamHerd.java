///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 21+
//JAVA_OPTIONS -Xms64m -Xmx256m

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * Many long-lived event streams at once, on one selector thread per side, so that neither end of the
 * benchmark costs a thread or much memory per stream and the path under test is what is measured.
 *
 * <pre>
 * StreamHerd upstream [-port 0]
 *     GET /streams?n=N&amp;interval=MS: 200 text/event-stream, chunked; N events MS apart on an absolute
 *     schedule, the first at once, each {@code data: {"i":K,"sent_us":EPOCH_US}}; then the last chunk
 *     and the connection stays open for the next request. Any other path: 200 "ok".
 * StreamHerd client -target URL [-label L] [-streams 2000] [-interval-ms 1000] [-ramp-s 2] [-settle-s 3]
 *     [-window-s 30] [-pids P,P] [-soak-minutes 0] [-churn 0.1]
 * </pre>
 *
 * <p>The client opens its streams evenly over the ramp, so their events are spread over each
 * interval (N streams of one event per second = N events per second, evenly). Delay = the epoch
 * microseconds at the read that completed an event minus its {@code sent_us} (both processes share
 * the machine's clock). Only events of the measure window count; each stream is asked for just
 * enough events to outlast it and must deliver all of them and its last chunk, else it is an error.
 * CPU and memory of the processes {@code -pids} (the path under test) are read from /proc at the
 * window's start and end; the client's own CPU is printed too, so a client near a full core shows.
 * Prints {@code STREAMS_RESULT key=value ...}.
 *
 * <p>Soak ({@code -soak-minutes M}): the streams are held M minutes; at each minute the fraction
 * {@code -churn} of them, picked at random, is closed mid-stream by the client and opened again.
 * Prints one {@code SOAK_MINUTE} line per minute (RSS, threads, descriptors of the first pid) and
 * {@code SOAK_RESULT} at the end.
 */
public class StreamHerd {
    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: StreamHerd upstream|client [flags]");
        }
        Map<String, String> flags = new HashMap<>();
        for (int i = 1; i + 1 < args.length; i += 2) {
            flags.put(args[i].replaceFirst("^-+", ""), args[i + 1]);
        }
        switch (args[0]) {
            case "upstream" -> new Upstream(Integer.parseInt(flags.getOrDefault("port", "0"))).run();
            case "client" -> new Client(flags).run();
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    // ------------------------------------------------------------------------------------------
    /** The upstream: one selector thread, a schedule of due events in a priority queue. */
    static final class Upstream {
        private static final byte[] HEAD = ascii("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n");
        private static final byte[] OK = ascii("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nok\n");
        private static final byte[] LAST = ascii("0\r\n\r\n");
        private final int port;
        private final PriorityQueue<Conn> due = new PriorityQueue<>((a, b) -> Long.compare(a.nextNanos, b.nextNanos));

        Upstream(int port) {
            this.port = port;
        }

        static final class Conn {
            final SocketChannel ch;
            SelectionKey key;
            final ByteBuffer in = ByteBuffer.allocate(8192);
            ByteBuffer pending; // bytes a full socket did not take yet
            int left; // events still to send; 0 = reading a request
            int sent;
            long startNanos;
            long intervalNanos;
            long nextNanos;
            boolean closed;

            Conn(SocketChannel ch) {
                this.ch = ch;
            }
        }

        void run() throws IOException {
            Selector sel = Selector.open();
            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress("127.0.0.1", port), 4096);
            server.configureBlocking(false);
            server.register(sel, SelectionKey.OP_ACCEPT);
            System.out.println("stream-herd upstream listening on 127.0.0.1:" + ((InetSocketAddress) server.getLocalAddress()).getPort());
            System.out.flush();
            while (true) {
                long wait = 0;
                Conn head = due.peek();
                if (head != null) {
                    wait = Math.max(1, (head.nextNanos - System.nanoTime() + 999_999) / 1_000_000);
                }
                if (head != null && head.nextNanos <= System.nanoTime()) {
                    sel.selectNow();
                } else {
                    sel.select(wait);
                }
                for (SelectionKey key : sel.selectedKeys()) {
                    try {
                        if (key.isAcceptable()) {
                            SocketChannel ch;
                            while ((ch = server.accept()) != null) {
                                ch.configureBlocking(false);
                                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                                Conn c = new Conn(ch);
                                c.key = ch.register(sel, SelectionKey.OP_READ, c);
                            }
                        } else {
                            Conn c = (Conn) key.attachment();
                            if (key.isWritable()) {
                                drain(c, key);
                            }
                            if (key.isValid() && key.isReadable()) {
                                read(c);
                            }
                        }
                    } catch (IOException e) {
                        if (key.attachment() instanceof Conn c) {
                            close(c);
                        }
                    }
                }
                sel.selectedKeys().clear();
                long now = System.nanoTime();
                while ((head = due.peek()) != null && head.nextNanos <= now) {
                    due.poll();
                    if (!head.closed) {
                        emit(head, sel);
                    }
                }
            }
        }

        private void read(Conn c) throws IOException {
            int n = c.ch.read(c.in);
            if (n < 0) {
                close(c);
                return;
            }
            if (c.left > 0) {
                c.in.clear(); // nothing is expected while streaming; a pipelined request would be a client bug
                return;
            }
            String text = new String(c.in.array(), 0, c.in.position(), StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) {
                if (!c.in.hasRemaining()) {
                    close(c);
                }
                return;
            }
            c.in.clear();
            String target = text.substring(0, text.indexOf("\r\n")).split(" ")[1];
            if (!target.startsWith("/streams")) {
                write(c, ByteBuffer.wrap(OK));
                return;
            }
            Map<String, String> q = new HashMap<>();
            int mark = target.indexOf('?');
            if (mark >= 0) {
                for (String pair : target.substring(mark + 1).split("&")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        q.put(pair.substring(0, eq), pair.substring(eq + 1));
                    }
                }
            }
            c.left = Integer.parseInt(q.getOrDefault("n", "30"));
            c.intervalNanos = Long.parseLong(q.getOrDefault("interval", "1000")) * 1_000_000L;
            c.sent = 0;
            c.startNanos = System.nanoTime();
            c.nextNanos = c.startNanos;
            write(c, ByteBuffer.wrap(HEAD));
            due.add(c);
        }

        private void emit(Conn c, Selector sel) {
            c.sent++;
            c.left--;
            byte[] event = ascii("data: {\"i\":" + c.sent + ",\"sent_us\":" + epochMicros() + "}\n\n");
            ByteBuffer out = ByteBuffer.allocate(event.length + 16 + (c.left == 0 ? LAST.length : 0));
            out.put(ascii(Integer.toHexString(event.length) + "\r\n")).put(event).put(ascii("\r\n"));
            if (c.left == 0) {
                out.put(LAST);
            }
            out.flip();
            try {
                write(c, out);
            } catch (IOException e) {
                close(c);
                return;
            }
            if (c.left > 0) {
                c.nextNanos = c.startNanos + c.sent * c.intervalNanos; // absolute: no drift by write time
                due.add(c);
            }
        }

        private void write(Conn c, ByteBuffer out) throws IOException {
            if (c.pending != null) {
                ByteBuffer both = ByteBuffer.allocate(c.pending.remaining() + out.remaining());
                both.put(c.pending).put(out).flip();
                out = both;
            }
            c.ch.write(out);
            c.pending = out.hasRemaining() ? out : null;
            c.key.interestOps(c.pending != null ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        private void drain(Conn c, SelectionKey key) throws IOException {
            if (c.pending != null) {
                c.ch.write(c.pending);
                if (!c.pending.hasRemaining()) {
                    c.pending = null;
                }
            }
            key.interestOps(c.pending != null ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        private void close(Conn c) {
            c.closed = true;
            try {
                c.ch.close();
            } catch (IOException ignored) {
                // closing a broken socket
            }
        }
    }
    // ------------------------------------------------------------------------------------------
    /** The client: one selector thread holding every stream, each with a small chunked decoder. */
    static final class Client {
        private final URI target;
        private final String label;
        private final int streams;
        private final long intervalMs;
        private final long rampNanos;
        private final long settleNanos;
        private final long windowNanos;
        private final int[] pids;
        private final int hz;
        private final int soakMinutes;
        private final double churn;
        private final Random random = new Random(42);
        private Selector sel;
        private long[] delays = new long[1 << 16];
        private int delayCount;
        private long windowStart = Long.MAX_VALUE;
        private long windowEnd = Long.MAX_VALUE;
        private long eventsInWindow;
        private int connectErrors;
        private int badStatus;
        private int broken;
        private int completed;
        private int closedByUs;
        private final List<Stream> open = new ArrayList<>();

        Client(Map<String, String> f) {
            target = URI.create(f.getOrDefault("target", "http://127.0.0.1:8080"));
            label = f.getOrDefault("label", "target");
            streams = Integer.parseInt(f.getOrDefault("streams", "2000"));
            intervalMs = Long.parseLong(f.getOrDefault("interval-ms", "1000"));
            rampNanos = (long) (Double.parseDouble(f.getOrDefault("ramp-s", "2")) * 1e9);
            settleNanos = (long) (Double.parseDouble(f.getOrDefault("settle-s", "3")) * 1e9);
            windowNanos = (long) (Double.parseDouble(f.getOrDefault("window-s", "30")) * 1e9);
            String p = f.getOrDefault("pids", "");
            pids = p.isBlank() ? new int[0] : Arrays.stream(p.split(",")).mapToInt(Integer::parseInt).toArray();
            hz = Integer.parseInt(f.getOrDefault("hz", "100"));
            soakMinutes = Integer.parseInt(f.getOrDefault("soak-minutes", "0"));
            churn = Double.parseDouble(f.getOrDefault("churn", "0.1"));
        }

        private enum Part { HEAD, SIZE, DATA, DATA_END, RAW, DONE }

        final class Stream {
            SocketChannel ch;
            SelectionKey key;
            final int expected;
            Part part = Part.HEAD;
            final StringBuilder line = new StringBuilder();
            long chunkLeft;
            final byte[] event = new byte[1024];
            int eventLen;
            int events;

            Stream(int expected) {
                this.expected = expected;
            }
        }

        void run() throws Exception {
            sel = Selector.open();
            Proc idle = Proc.read(pids);
            long start = System.nanoTime();
            long spanNanos = soakMinutes > 0 ? soakMinutes * 60_000_000_000L : windowNanos;
            int expected = (int) ((rampNanos + settleNanos + spanNanos) / (intervalMs * 1_000_000L)) + 2;
            if (soakMinutes > 0) {
                expected += 120; // a soak's streams never end by themselves: the client ends them
            }
            windowStart = start + rampNanos + settleNanos;
            windowEnd = windowStart + spanNanos;
            long giveUp = windowEnd + intervalMs * 3_000_000L + 10_000_000_000L;
            int opened = 0;
            Proc atStart = null;
            Proc atEnd = null;
            long selfCpu0 = 0;
            long selfCpu1 = 0;
            int nextMinute = 1;
            List<String> minutes = new ArrayList<>();
            long[] minuteRss = new long[Math.max(1, soakMinutes + 1)];
            while (true) {
                long now = System.nanoTime();
                while (opened < streams && now - start >= opened * rampNanos / streams) {
                    openStream(expected);
                    opened++;
                }
                if (atStart == null && now >= windowStart) {
                    atStart = Proc.read(pids);
                    selfCpu0 = Proc.cpuTicks(new int[] {-1});
                }
                if (soakMinutes > 0 && atStart != null && nextMinute <= soakMinutes && now >= windowStart + nextMinute * 60_000_000_000L) {
                    Proc m = Proc.read(pids);
                    minuteRss[nextMinute] = m.rssKb;
                    String row = "SOAK_MINUTE label=" + label + " minute=" + nextMinute + " open=" + open.size() + " rss_kb=" + m.rssKb
                            + " threads=" + m.threads + " fds=" + m.fds + " errors=" + (connectErrors + badStatus + broken);
                    System.out.println(row);
                    System.out.flush();
                    minutes.add(row);
                    if (nextMinute < soakMinutes) {
                        churn(expected);
                    }
                    nextMinute++;
                }
                if (atEnd == null && now >= windowEnd) {
                    atEnd = Proc.read(pids);
                    selfCpu1 = Proc.cpuTicks(new int[] {-1});
                    if (soakMinutes > 0) {
                        for (Stream s : new ArrayList<>(open)) {
                            closeByUs(s);
                        }
                    }
                }
                if ((opened == streams && open.isEmpty() && atEnd != null) || now >= giveUp) {
                    break;
                }
                sel.select(opened < streams ? 2 : 50);
                long arrival = epochMicros();
                for (SelectionKey key : sel.selectedKeys()) {
                    Stream s = (Stream) key.attachment();
                    try {
                        if (key.isConnectable()) {
                            s.ch.finishConnect();
                            sendRequest(s);
                            key.interestOps(SelectionKey.OP_READ);
                        } else if (key.isReadable()) {
                            read(s, arrival);
                        }
                    } catch (IOException e) {
                        if (s.part == Part.HEAD && s.line.isEmpty()) {
                            connectErrors++;
                        } else {
                            broken++;
                        }
                        drop(s);
                    }
                }
                sel.selectedKeys().clear();
            }
            int unfinished = open.size();
            for (Stream s : new ArrayList<>(open)) {
                drop(s);
            }
            if (atEnd == null) {
                atEnd = Proc.read(pids);
                selfCpu1 = Proc.cpuTicks(new int[] {-1});
            }
            if (atStart == null) {
                atStart = atEnd;
            }
            report(idle, atStart, atEnd, selfCpu1 - selfCpu0, unfinished, minutes, minuteRss);
        }

        private void report(Proc idle, Proc a, Proc b, long selfTicks, int unfinished, List<String> minutes, long[] minuteRss) {
            long[] d = Arrays.copyOf(delays, delayCount);
            Arrays.sort(d);
            double windowS = (double) (windowEnd - windowStart) / 1e9;
            long cpuUs = (b.cpuTicks - a.cpuTicks) * 1_000_000L / hz;
            StringBuilder out = new StringBuilder(soakMinutes > 0 ? "SOAK_RESULT" : "STREAMS_RESULT");
            out.append(" label=").append(label).append(" streams=").append(streams).append(" events=").append(eventsInWindow)
                    .append(" p50_us=").append(pct(d, 50)).append(" p90_us=").append(pct(d, 90)).append(" p99_us=").append(pct(d, 99))
                    .append(" max_us=").append(d.length == 0 ? 0 : d[d.length - 1])
                    .append(" errors=").append(connectErrors + badStatus + broken + (soakMinutes > 0 ? 0 : unfinished))
                    .append(" connect_errors=").append(connectErrors).append(" bad_status=").append(badStatus)
                    .append(" broken=").append(broken).append(" unfinished=").append(unfinished).append(" completed=").append(completed)
                    .append(" closed_by_client=").append(closedByUs)
                    .append(" cpu_us_per_event=").append(eventsInWindow == 0 ? 0 : cpuUs / eventsInWindow)
                    .append(" target_cpu_pct=").append(Math.round(cpuUs / windowS / 1e4))
                    .append(" client_cpu_pct=").append(Math.round(selfTicks * 1_000_000L / hz / windowS / 1e4))
                    .append(" rss_idle_kb=").append(idle.rssKb).append(" rss_kb=").append(b.rssKb).append(" hwm_kb=").append(b.hwmKb)
                    .append(" rss_per_stream_kb=").append(String.format("%.1f", (double) (b.rssKb - idle.rssKb) / streams))
                    .append(" threads_idle=").append(idle.threads).append(" threads=").append(b.threads)
                    .append(" fds_idle=").append(idle.fds).append(" fds=").append(b.fds);
            if (soakMinutes > 1) {
                long lo = Long.MAX_VALUE;
                long hi = 0;
                for (int m = 2; m <= soakMinutes; m++) { // from the first churned minute on
                    lo = Math.min(lo, minuteRss[m]);
                    hi = Math.max(hi, minuteRss[m]);
                }
                out.append(" rss_min_kb=").append(lo).append(" rss_max_kb=").append(hi)
                        .append(" rss_spread_pct=").append(String.format("%.1f", lo == 0 ? 0.0 : (hi - lo) * 100.0 / lo));
            }
            System.out.println(out);
        }

        private static long pct(long[] sorted, int p) {
            if (sorted.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(p / 100.0 * sorted.length);
            return sorted[Math.max(0, rank - 1)];
        }

        private void openStream(int expected) {
            Stream s = new Stream(expected);
            try {
                s.ch = SocketChannel.open();
                s.ch.configureBlocking(false);
                s.ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                int port = target.getPort() > 0 ? target.getPort() : 80;
                boolean now = s.ch.connect(new InetSocketAddress(target.getHost(), port));
                s.key = s.ch.register(sel, now ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, s);
                open.add(s);
                if (now) {
                    sendRequest(s);
                }
            } catch (IOException e) {
                connectErrors++;
                drop(s);
            }
        }

        private void sendRequest(Stream s) throws IOException {
            String path = (target.getPath() == null ? "" : target.getPath().replaceAll("/$", "")) + "/streams?n=" + s.expected + "&interval=" + intervalMs;
            ByteBuffer req = ByteBuffer.wrap(ascii("GET " + path + " HTTP/1.1\r\nHost: " + target.getHost() + ":" + target.getPort()
                    + "\r\nAccept: text/event-stream\r\nUser-Agent: stream-herd\r\n\r\n"));
            for (int i = 0; req.hasRemaining() && i < 1000; i++) {
                s.ch.write(req);
            }
            if (req.hasRemaining()) {
                throw new IOException("request not written");
            }
        }

        private final ByteBuffer buf = ByteBuffer.allocate(64 * 1024); // one read buffer: reads are handled one at a time

        private void read(Stream s, long arrival) throws IOException {
            buf.clear();
            int n = s.ch.read(buf);
            if (n < 0) {
                if (s.part == Part.DONE || (s.part == Part.RAW && s.events >= s.expected)) {
                    completed++;
                } else {
                    broken++;
                }
                drop(s);
                return;
            }
            byte[] a = buf.array();
            for (int i = 0; i < n; i++) {
                byte b = a[i];
                switch (s.part) {
                    case HEAD -> {
                        s.line.append((char) (b & 0xff));
                        int len = s.line.length();
                        if (len > 16384) {
                            throw new IOException("head too long");
                        }
                        if (len >= 4 && s.line.charAt(len - 1) == '\n' && s.line.charAt(len - 2) == '\r' && s.line.charAt(len - 3) == '\n') {
                            String head = s.line.toString();
                            if (!head.startsWith("HTTP/1.1 200")) {
                                badStatus++;
                                drop(s);
                                return;
                            }
                            s.part = head.toLowerCase().contains("transfer-encoding: chunked") ? Part.SIZE : Part.RAW;
                            s.line.setLength(0);
                        }
                    }
                    case SIZE -> {
                        if (b == '\n') {
                            String hex = s.line.toString().trim();
                            int semi = hex.indexOf(';');
                            s.chunkLeft = Long.parseLong(semi >= 0 ? hex.substring(0, semi) : hex, 16);
                            s.line.setLength(0);
                            s.part = s.chunkLeft == 0 ? Part.DONE : Part.DATA;
                        } else if (b != '\r') {
                            s.line.append((char) b);
                        }
                    }
                    case DATA -> {
                        body(s, b, arrival);
                        if (--s.chunkLeft == 0) {
                            s.part = Part.DATA_END;
                        }
                    }
                    case DATA_END -> {
                        if (b == '\n') {
                            s.part = Part.SIZE;
                        }
                    }
                    case RAW -> body(s, b, arrival);
                    case DONE -> {
                        // trailers' end; nothing more is asked of this connection
                    }
                }
            }
            if (s.part == Part.DONE) {
                if (s.events >= s.expected) {
                    completed++;
                } else {
                    broken++;
                }
                drop(s);
            }
        }

        private void body(Stream s, byte b, long arrival) {
            if (s.eventLen < s.event.length) {
                s.event[s.eventLen++] = b;
            }
            if (b == '\n' && s.eventLen >= 2 && s.event[s.eventLen - 2] == '\n') {
                s.events++;
                long sent = sentUs(s.event, s.eventLen);
                long now = System.nanoTime();
                if (sent > 0 && now >= windowStart && now < windowEnd) {
                    if (delayCount == delays.length) {
                        delays = Arrays.copyOf(delays, delays.length * 2);
                    }
                    delays[delayCount++] = arrival - sent;
                    eventsInWindow++;
                }
                s.eventLen = 0;
            }
        }

        private static final byte[] KEY = ascii("\"sent_us\":");

        private static long sentUs(byte[] e, int len) {
            outer:
            for (int i = 0; i + KEY.length <= len; i++) {
                for (int k = 0; k < KEY.length; k++) {
                    if (e[i + k] != KEY[k]) {
                        continue outer;
                    }
                }
                long v = 0;
                for (int j = i + KEY.length; j < len && e[j] >= '0' && e[j] <= '9'; j++) {
                    v = v * 10 + (e[j] - '0');
                }
                return v;
            }
            return -1;
        }

        private void churn(int expected) {
            int k = (int) Math.round(open.size() * churn);
            for (int i = 0; i < k && !open.isEmpty(); i++) {
                closeByUs(open.get(random.nextInt(open.size())));
            }
            for (int i = 0; i < k; i++) {
                openStream(expected);
            }
        }

        private void closeByUs(Stream s) {
            closedByUs++;
            drop(s);
        }

        private void drop(Stream s) {
            open.remove(s);
            if (s.key != null) {
                s.key.cancel();
            }
            try {
                if (s.ch != null) {
                    s.ch.close();
                }
            } catch (IOException ignored) {
                // closing a broken socket
            }
        }
    }

    /** CPU, memory, threads and descriptors of some processes, summed, from /proc. */
    record Proc(long cpuTicks, long rssKb, long hwmKb, long threads, long fds) {
        static Proc read(int[] pids) {
            long rss = 0;
            long hwm = 0;
            long threads = 0;
            long fds = 0;
            for (int pid : pids) {
                try {
                    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                        String[] w = line.split("\\s+");
                        switch (w[0]) {
                            case "VmRSS:" -> rss += Long.parseLong(w[1]);
                            case "VmHWM:" -> hwm += Long.parseLong(w[1]);
                            case "Threads:" -> threads += Long.parseLong(w[1]);
                            default -> { }
                        }
                    }
                    try (var list = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                        fds += list.count();
                    }
                } catch (IOException e) {
                    // a process that is gone counts nothing
                }
            }
            return new Proc(cpuTicks(pids), rss, hwm, threads, fds);
        }

        /** user + system ticks; pid -1 = this process. */
        static long cpuTicks(int[] pids) {
            long t = 0;
            for (int pid : pids) {
                try {
                    String stat = Files.readString(Path.of("/proc/" + (pid < 0 ? "self" : Integer.toString(pid)) + "/stat"));
                    String[] w = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    t += Long.parseLong(w[11]) + Long.parseLong(w[12]);
                } catch (IOException e) {
                    // gone
                }
            }
            return t;
        }
    }
}
