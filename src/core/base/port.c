/* The calls that differ between systems (port.h): each function has its
 * Linux branch, its macOS branch where macOS has a better call than POSIX,
 * and a POSIX fallback. This is the one file of src/core/ that names a
 * Linux or Darwin interface. GT_PORT_POSIX builds the fallbacks alone, so
 * that the unit tests run them on Linux too (test_port_posix). */
#if defined(__linux__) && !defined(GT_PORT_POSIX)
#define PORT_LINUX 1
#define _GNU_SOURCE             /* syscall(); the Linux-only calls below */
#elif defined(__APPLE__) && !defined(GT_PORT_POSIX)
#define PORT_DARWIN 1
#ifndef _DARWIN_C_SOURCE
#define _DARWIN_C_SOURCE        /* renamex_np, RENAME_EXCL */
#endif
#elif !defined(_XOPEN_SOURCE)
#define _XOPEN_SOURCE 700       /* realpath */
#endif
#include "gputui/base/port.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if PORT_LINUX
#include <sys/eventfd.h>
#include <sys/syscall.h>
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#elif PORT_DARWIN
#include <mach-o/dyld.h>
#endif

/* ---- a rename that never replaces ---- */

static int refused_errno;

void gt_port_test_refuse_native_rename(int errno_value)
{
    refused_errno = errno_value;
}

/* The system's own no-replace rename; -1 with ENOSYS where there is none. */
static int native_rename_noreplace(const char *from, const char *to)
{
    if (refused_errno) {
        errno = refused_errno;
        return -1;
    }
#if PORT_LINUX && defined(SYS_renameat2)
    /* The system call rather than glibc's wrapper (2.28 and later). */
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#elif PORT_DARWIN && defined(RENAME_EXCL)
    return renamex_np(from, to, RENAME_EXCL);
#else
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
#endif
}

int gt_port_rename_noreplace(const char *from, const char *to)
{
    if (native_rename_noreplace(from, to) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP && errno != EOPNOTSUPP)
        return -1;
    /* link() fails on an existing name as well, and atomically. */
    if (link(from, to) != 0)
        return -1;
    return unlink(from);
}

/* ---- the binary's own path ---- */

static const char *argv0;

void gt_port_set_argv0(const char *a)
{
    argv0 = a;
}

/* argv[0] as the shell found it: a path with a '/', or a name along PATH. */
static char *from_argv0(char *buf, size_t len)
{
    const char *path = getenv("PATH");
    char cand[4096], *real;

    if (!argv0 || !argv0[0])
        return NULL;
    if (strchr(argv0, '/')) {
        real = realpath(argv0, NULL);
    } else {
        real = NULL;
        while (path && *path && !real) {
            size_t n = strcspn(path, ":");
            snprintf(cand, sizeof cand, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", argv0);
            if (access(cand, X_OK) == 0)
                real = realpath(cand, NULL);
            path += n + (path[n] == ':');
        }
    }
    if (!real || strlen(real) >= len) {
        free(real);
        return NULL;
    }
    memcpy(buf, real, strlen(real) + 1);
    free(real);
    return buf;
}

char *gt_port_exe_path(char *buf, size_t len)
{
#if PORT_LINUX
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n > 0 && (size_t)n < len - 1) {
        buf[n] = '\0';
        return buf;
    }
#elif PORT_DARWIN
    char raw[4096], *real;
    uint32_t size = sizeof raw;
    if (_NSGetExecutablePath(raw, &size) == 0 && (real = realpath(raw, NULL))) {
        int fits = strlen(real) < len;
        if (fits)
            memcpy(buf, real, strlen(real) + 1);
        free(real);
        if (fits)
            return buf;
    }
#endif
    return from_argv0(buf, len);
}

char *gt_port_exe_for_spawn(char *buf, size_t len)
{
#if PORT_LINUX
    if (len > sizeof "/proc/self/exe") {
        memcpy(buf, "/proc/self/exe", sizeof "/proc/self/exe");
        return buf;
    }
    return NULL;
#else
    return gt_port_exe_path(buf, len);
#endif
}

char *gt_port_exe_dir(char *buf, size_t len)
{
    char *slash;

    if (!gt_port_exe_path(buf, len) || !(slash = strrchr(buf, '/')))
        return NULL;
    *slash = '\0';
    return buf;
}

/* ---- the engine's wake-up ---- */

int gt_wake_open(gt_wake *w)
{
#if PORT_LINUX
    w->rfd = w->wfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    return w->rfd < 0 ? -1 : 0;
#else
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        if (fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK) != 0 ||
            fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0) {
            int e = errno;
            close(fds[0]);
            close(fds[1]);
            errno = e;
            return -1;
        }
    }
    w->rfd = fds[0];
    w->wfd = fds[1];
    return 0;
#endif
}

void gt_wake_signal(gt_wake *w)
{
#if PORT_LINUX
    uint64_t one = 1;
    ssize_t r = write(w->wfd, &one, sizeof one);
#else
    /* A full pipe already wakes the reader: EAGAIN is fine. */
    ssize_t r = write(w->wfd, "", 1);
#endif
    (void)r;
}

void gt_wake_drain(gt_wake *w)
{
#if PORT_LINUX
    uint64_t v;
    ssize_t r = read(w->rfd, &v, sizeof v);
    (void)r;
#else
    char b[64];
    while (read(w->rfd, b, sizeof b) > 0)
        ;
#endif
}

void gt_wake_close(gt_wake *w)
{
    close(w->rfd);
    if (w->wfd != w->rfd)
        close(w->wfd);
    w->rfd = w->wfd = -1;
}

/* ---- host memory, PCIe, signals ---- */

uint64_t gt_port_mem_available(void)
{
#if PORT_LINUX
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long long kb = 0;

    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024;
#else
    return 0;
#endif
}

#if PORT_LINUX
/* /sys/bus/pci/devices/ID/file for bus id "0000:17:00.0" (any case; an
 * 8-digit domain, as cudaDeviceGetPCIBusId gives it, where sysfs has 4);
 * false for an id that is no bus id. */
static bool pci_path(const char *bus_id, const char *file, char *path, size_t len)
{
    char id[32];
    size_t n;

    for (n = 0; n + 1 < sizeof id && bus_id[n]; n++) {
        char c = bus_id[n];
        id[n] = (char)(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
    }
    id[n] = '\0';
    snprintf(path, len, "/sys/bus/pci/devices/%s/%s",
             n == 16 && !strncmp(id, "0000", 4) ? id + 4 : id, file);
    return !strchr(id, '/');
}
#endif

long gt_port_pci_config(const char *bus_id, unsigned char *buf, size_t len)
{
#if PORT_LINUX
    char path[96];
    ssize_t n;
    size_t got = 0;
    int fd;

    /* read(2), not stdio: a buffered FILE reads 4 KiB, the whole extended
     * configuration space, and each word of it is a configuration cycle:
     * 20 ms on a lent H100's virtual machine, where the 256 bytes used
     * take 1 ms. */
    if (!pci_path(bus_id, "config", path, sizeof path) || (fd = open(path, O_RDONLY)) < 0)
        return -1;
    while (got < len && ((n = read(fd, buf + got, len - got)) > 0 || (n < 0 && errno == EINTR)))
        if (n > 0)
            got += (size_t)n;
    close(fd);
    return (long)got;
#else
    (void)bus_id;
    (void)buf;
    (void)len;
    return -1;
#endif
}

int gt_port_pci_numa_node(const char *bus_id)
{
#if PORT_LINUX
    char path[96];
    FILE *f;
    int node = -1;

    if (!pci_path(bus_id, "numa_node", path, sizeof path) || !(f = fopen(path, "r")))
        return -1;
    if (fscanf(f, "%d", &node) != 1)
        node = -1;
    fclose(f);
    return node;
#else
    (void)bus_id;
    return -1;
#endif
}

int64_t gt_port_parse_nodes(const char *text)
{
    int64_t mask = 0;
    const char *c = text;

    while (*c && *c != '\n') {
        char *end;
        long lo = strtol(c, &end, 10), hi = lo;
        if (end == c || lo < 0 || lo > 62)
            return -1;
        c = end;
        if (*c == '-') {
            hi = strtol(c + 1, &end, 10);
            if (end == c + 1 || hi < lo || hi > 62)
                return -1;
            c = end;
        }
        for (long n = lo; n <= hi; n++)
            mask |= (int64_t)1 << n;
        if (*c == ',')
            c++;
        else if (*c && *c != '\n')
            return -1;
    }
    return mask ? mask : -1;
}

int64_t gt_port_numa_nodes(void)
{
#if PORT_LINUX
    char line[256];
    FILE *f = fopen("/sys/devices/system/node/online", "r");
    int64_t mask = -1;

    if (!f)
        return -1;
    if (fgets(line, sizeof line, f))
        mask = gt_port_parse_nodes(line);
    fclose(f);
    return mask;
#else
    return -1;
#endif
}

void gt_port_ignore_file_size_signal(void)
{
#ifdef SIGXFSZ
    signal(SIGXFSZ, SIG_IGN);
#endif
}

/* ---- a stream with our own writer ---- */

typedef long (*writer_fn)(void *, const char *, size_t);

#if PORT_LINUX || PORT_DARWIN
typedef struct {
    void *cookie;
    writer_fn write;
} cookie_stream;

#if PORT_LINUX
static ssize_t cs_write(void *c, const char *buf, size_t n)
{
    cookie_stream *s = c;
    return s->write(s->cookie, buf, n);
}
#else
static int cs_write(void *c, const char *buf, int n)
{
    cookie_stream *s = c;
    return (int)s->write(s->cookie, buf, (size_t)n);
}
#endif

static int cs_close(void *c)
{
    free(c);
    return 0;
}

FILE *gt_port_write_stream(void *cookie, writer_fn write)
{
    cookie_stream *s = malloc(sizeof *s);
    FILE *f;

    if (!s)
        return NULL;
    s->cookie = cookie;
    s->write = write;
#if PORT_LINUX
    f = fopencookie(s, "w", (cookie_io_functions_t){.write = cs_write, .close = cs_close});
#else
    f = funopen(s, NULL, cs_write, NULL, cs_close);
#endif
    if (!f)
        free(s);
    return f;
}

int gt_port_stream_flush(FILE *f)
{
    return fflush(f);
}

int gt_port_stream_close(FILE *f)
{
    return fclose(f);
}
#else
/* A memory stream; its new bytes go to the writer when asked. */
#define MEM_STREAMS 16
static struct mem_stream {
    FILE *f;
    char *buf;
    size_t size, sent;
    void *cookie;
    writer_fn write;
    bool failed;
} mem[MEM_STREAMS];

FILE *gt_port_write_stream(void *cookie, writer_fn write)
{
    for (int i = 0; i < MEM_STREAMS; i++)
        if (!mem[i].f) {
            struct mem_stream *m = &mem[i];
            memset(m, 0, sizeof *m);
            if (!(m->f = open_memstream(&m->buf, &m->size)))
                return NULL;
            m->cookie = cookie;
            m->write = write;
            return m->f;
        }
    errno = EMFILE;
    return NULL;
}

static struct mem_stream *mem_of(FILE *f)
{
    for (int i = 0; i < MEM_STREAMS; i++)
        if (mem[i].f == f)
            return &mem[i];
    return NULL;
}

int gt_port_stream_flush(FILE *f)
{
    struct mem_stream *m = mem_of(f);

    if (fflush(f))
        return EOF;
    if (!m)
        return 0;
    if (!m->failed && m->size > m->sent) {
        if (m->write(m->cookie, m->buf + m->sent, m->size - m->sent) < 0)
            m->failed = true;
        m->sent = m->size;
    }
    return m->failed ? EOF : 0;
}

int gt_port_stream_close(FILE *f)
{
    struct mem_stream *m = mem_of(f);
    int rc = gt_port_stream_flush(f);

    if (fclose(f))
        rc = EOF;
    if (m) {
        free(m->buf);
        memset(m, 0, sizeof *m);
    }
    return rc;
}
#endif
