/* port.h - every call of gputui that is not POSIX, each behind one
 * function with a POSIX fallback (port.c). The rest of src/ calls these
 * and names no Linux or macOS interface itself.
 *
 *   what                     Linux                macOS              other POSIX
 *   rename, never replacing  renameat2 NOREPLACE  renamex_np EXCL    link + unlink
 *   the binary's own path    /proc/self/exe       _NSGetExecutablePath  argv[0], PATH
 *   the engine's wake-up fd  eventfd              pipe               pipe
 *   available host memory    /proc/meminfo        (unknown: 0)       (unknown: 0)
 *   PCIe config space        sysfs                (none)             (none)
 *   a file-size limit        SIGXFSZ ignored where the signal exists
 *   a stream with our writer fopencookie          funopen            open_memstream
 */
#ifndef GPUTUI_PORT_H
#define GPUTUI_PORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Renames from to to unless to exists: 0, or -1 with errno (EEXIST when
 * to exists, and then neither file is touched). The native call first;
 * where the file system or kernel refuses it (EINVAL, ENOSYS, ENOTSUP), a
 * hard link, which fails on an existing name too, then unlink(from). A
 * file system without hard links (EPERM, ENOTSUP) gets -1: nothing is
 * replaced, from is left where it was. */
int gt_port_rename_noreplace(const char *from, const char *to);
/* For the unit tests: the native no-replace rename answers errno_value
 * (ENOSYS, EINVAL ...) instead of running; 0 restores it. */
void gt_port_test_refuse_native_rename(int errno_value);

/* main() hands argv[0] over once, for systems with no other way to find
 * the binary. */
void gt_port_set_argv0(const char *argv0);
/* The running binary's absolute path into buf: buf, or NULL when it
 * cannot be known. */
char *gt_port_exe_path(char *buf, size_t len);
/* The directory that holds it (for BIN/../share/gputui): buf or NULL. */
char *gt_port_exe_dir(char *buf, size_t len);
/* A path that executes this same binary in a child: on Linux
 * /proc/self/exe, the running file even if its path was replaced since;
 * elsewhere its path. buf or NULL. */
char *gt_port_exe_for_spawn(char *buf, size_t len);

/* A wake-up that one thread gives another's poll(): never blocks either
 * side; signals before a drain count once. */
typedef struct gt_wake {
    int rfd, wfd;       /* the same eventfd on Linux; a pipe's two ends elsewhere */
} gt_wake;
/* 0, or -1 with errno. */
int gt_wake_open(gt_wake *w);
void gt_wake_signal(gt_wake *w);
void gt_wake_drain(gt_wake *w);
void gt_wake_close(gt_wake *w);

/* Bytes of host memory available without swapping, 0 when unknown. */
uint64_t gt_port_mem_available(void);

/* Up to len bytes of the PCI configuration space of the device at bus id
 * ("0000:17:00.0", any case): bytes read, or -1 where it cannot be read. */
long gt_port_pci_config(const char *bus_id, unsigned char *buf, size_t len);
/* The NUMA node of the device at bus id, or -1 (none, or unknown here). */
int gt_port_pci_numa_node(const char *bus_id);
/* The host's NUMA nodes that are online, as a mask (bit n: node n, nodes
 * 0 to 62), or -1 where the system does not say. */
int64_t gt_port_numa_nodes(void);
/* Parses a node list as Linux writes it ("0", "0-3", "0,2-3"): the mask
 * of gt_port_numa_nodes, or -1 for text that is not one. */
int64_t gt_port_parse_nodes(const char *text);

/* A write past a file-size limit (ulimit -f) then fails with EFBIG, which
 * gputui reports like a full disk, instead of killing the process. */
void gt_port_ignore_file_size_signal(void);

/* A stream for writing whose bytes go to write(cookie, buf, n) as its
 * buffer flushes; write returns n, or -1 (errno set) and the stream's
 * error is set. NULL with errno. Close it with gt_port_stream_close (not
 * fclose): 0, or EOF after a failed write. Where the system has neither
 * fopencookie nor funopen, the stream is a memory stream whose bytes
 * reach write when gt_port_stream_flush or the close is called. */
FILE *gt_port_write_stream(void *cookie, long (*write)(void *cookie, const char *buf, size_t n));
int gt_port_stream_flush(FILE *f);
int gt_port_stream_close(FILE *f);

#endif
