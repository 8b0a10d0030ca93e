/*
 * bench/BareRelay.c: the least a relay hop can do, as a floor for the SSE section.
 *
 * A TCP relay with one blocking thread per direction, the model the proxy's stream threads use,
 * and nothing else: no HTTP parsing, no buffering beyond one read, no JVM. Whatever delay an
 * event picks up through it is the machine's price for one more process on the path (a wake-up,
 * a read, a write), so the SSE section can tell the proxy's own cost from the machine's.
 *
 * Usage: BareRelay LISTEN_PORT UPSTREAM_PORT (both on 127.0.0.1). Prints
 * "bare-relay listening on 127.0.0.1:PORT" once it accepts; runs until killed.
 * Built by bench/run.sh with the system C compiler (cc -O2 -pthread).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int upstream_port;

struct pipe_ends {
    int from;
    int to;
};

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short) port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

static void no_delay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* Copies until end of stream or an error, then half-closes the other side so its reader ends too. */
static void *copy(void *arg) {
    struct pipe_ends *p = arg;
    char buf[16384];
    ssize_t n;
    while ((n = read(p->from, buf, sizeof buf)) > 0) {
        ssize_t off = 0;
        while (off < n) {
            ssize_t w = write(p->to, buf + off, (size_t) (n - off));
            if (w <= 0) {
                shutdown(p->from, SHUT_RD);
                goto done;
            }
            off += w;
        }
    }
done:
    shutdown(p->to, SHUT_WR);
    return NULL;
}

/* One client: connect upstream, copy request bytes up on a second thread and answer bytes down here. */
static void *serve(void *arg) {
    int client = (int) (long) arg;
    int upstream = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = loopback(upstream_port);
    if (upstream < 0 || connect(upstream, (struct sockaddr *) &a, sizeof a) != 0) {
        if (upstream >= 0) close(upstream);
        close(client);
        return NULL;
    }
    no_delay(client);
    no_delay(upstream);
    struct pipe_ends up = {client, upstream};
    struct pipe_ends down = {upstream, client};
    pthread_t t;
    if (pthread_create(&t, NULL, copy, &up) != 0) {
        close(upstream);
        close(client);
        return NULL;
    }
    copy(&down);
    pthread_join(t, NULL);
    close(upstream);
    close(client);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: BareRelay LISTEN_PORT UPSTREAM_PORT\n");
        return 2;
    }
    int port = atoi(argv[1]);
    upstream_port = atoi(argv[2]);
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = loopback(port);
    if (listener < 0 || bind(listener, (struct sockaddr *) &a, sizeof a) != 0 || listen(listener, 512) != 0) {
        perror("bare-relay: listen");
        return 1;
    }
    printf("bare-relay listening on 127.0.0.1:%d\n", port);
    fflush(stdout);
    while (1) {
        int client = accept(listener, NULL, NULL);
        if (client < 0) {
            continue;
        }
        pthread_t t;
        if (pthread_create(&t, NULL, serve, (void *) (long) client) != 0) {
            close(client);
            continue;
        }
        pthread_detach(t);
    }
}
