// refprobe_vmm_share.cu - refprobe's plain program of the VMM
// experiment's op=share (usage: refprobe.cu), written apart from gputui's
// vmm_gpu_share.c: the same driver calls, each on its process's clock.
#include <cuda.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <vector>

#include "refprobe.h"
#include "refprobe_cu.h"

// refprobe vmm-share [MiB [N]]: memory made by cuMemCreate with a POSIX
// file descriptor as its shareable handle, mapped here and filled; its
// descriptor exported (timed), sent with SCM_RIGHTS over a Unix socket
// to a second refprobe (vmm-share-child, the socket its stdin), which
// imports it, reserves a range, maps it and opens it to its GPU (each
// timed on its clock) and reads a word back; N samples after two more.
namespace {

struct share_msg {
    unsigned long long bytes;   // 0: the end
};

struct share_reply {
    double import_s, map_s, access_s;
    unsigned word;
};

void send_fd(int sock, const share_msg &m, int fd)
{
    char ctl[CMSG_SPACE(sizeof(int))];
    memset(ctl, 0, sizeof ctl);
    iovec io = {(void *)&m, sizeof m};
    msghdr h;
    memset(&h, 0, sizeof h);
    h.msg_iov = &io;
    h.msg_iovlen = 1;
    if (fd >= 0) {
        h.msg_control = ctl;
        h.msg_controllen = sizeof ctl;
        cmsghdr *c = CMSG_FIRSTHDR(&h);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    if (sendmsg(sock, &h, 0) != (ssize_t)sizeof m) {
        perror("refprobe: vmm-share: sendmsg");
        exit(1);
    }
}

// The message and its descriptor (-1 without one); false at the end.
bool recv_fd(int sock, share_msg *m, int *fd)
{
    char ctl[CMSG_SPACE(sizeof(int))];
    iovec io = {m, sizeof *m};
    msghdr h;
    memset(&h, 0, sizeof h);
    h.msg_iov = &io;
    h.msg_iovlen = 1;
    h.msg_control = ctl;
    h.msg_controllen = sizeof ctl;
    if (recvmsg(sock, &h, 0) != (ssize_t)sizeof *m)
        return false;
    *fd = -1;
    for (cmsghdr *c = CMSG_FIRSTHDR(&h); c; c = CMSG_NXTHDR(&h, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
            memcpy(fd, CMSG_DATA(c), sizeof *fd);
    return m->bytes != 0;
}

bool read_all(int fd, void *p, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, (char *)p + got, n - got);
        if (r <= 0)
            return false;
        got += (size_t)r;
    }
    return true;
}

}  // namespace

void vmm_share_child()
{
    int dev;
    CK(cudaGetDevice(&dev));
    CUmemAccessDesc acc;
    memset(&acc, 0, sizeof acc);
    acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    acc.location.id = dev;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    share_msg m;
    int fd;
    while (recv_fd(0, &m, &fd)) {
        share_reply r;
        CUmemGenericAllocationHandle h;
        CUdeviceptr va;
        double t0 = now();
        CU(cuMemImportFromShareableHandle(&h, (void *)(uintptr_t)fd,
                                          CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
        r.import_s = now() - t0;
        CU(cuMemAddressReserve(&va, m.bytes, 0, 0, 0));
        t0 = now();
        CU(cuMemMap(va, m.bytes, 0, h, 0));
        r.map_s = now() - t0;
        t0 = now();
        CU(cuMemSetAccess(va, m.bytes, &acc, 1));
        r.access_s = now() - t0;
        CU(cuMemcpyDtoH(&r.word, va, sizeof r.word));
        CU(cuMemUnmap(va, m.bytes));
        CU(cuMemRelease(h));
        CU(cuMemAddressFree(va, m.bytes));
        close(fd);
        if (write(1, &r, sizeof r) != (ssize_t)sizeof r)
            exit(1);
    }
}

void vmm_share(size_t mib, int n)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
        perror("refprobe: vmm-share: socketpair");
        exit(1);
    }
    int back[2];
    if (pipe(back)) {
        perror("refprobe: vmm-share: pipe");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(sv[1], 0);
        dup2(back[1], 1);
        close(sv[0]);
        close(sv[1]);
        close(back[0]);
        close(back[1]);
        execl("/proc/self/exe", "refprobe", "vmm-share-child", (char *)NULL);
        _exit(127);
    }
    close(sv[1]);
    close(back[1]);
    int dev;
    CK(cudaGetDevice(&dev));
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t gran, bytes = mib << 20;
    CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
    bytes = (bytes + gran - 1) / gran * gran;
    CUmemAccessDesc acc;
    memset(&acc, 0, sizeof acc);
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    std::vector<double> t[4];
    for (int s = 0; s < n + 2; s++) {
        CUmemGenericAllocationHandle h;
        CUdeviceptr va;
        unsigned want = 0x5EED0000u + (unsigned)s;
        CU(cuMemCreate(&h, bytes, &prop, 0));
        CU(cuMemAddressReserve(&va, bytes, 0, 0, 0));
        CU(cuMemMap(va, bytes, 0, h, 0));
        CU(cuMemSetAccess(va, bytes, &acc, 1));
        CU(cuMemsetD32(va, want, bytes / 4));
        CK(cudaDeviceSynchronize());
        int fd = -1;
        double t0 = now();
        CU(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
        double te = now() - t0;
        send_fd(sv[0], share_msg{bytes}, fd);
        share_reply r;
        if (!read_all(back[0], &r, sizeof r)) {
            fprintf(stderr, "refprobe: vmm-share: the second process ended\n");
            exit(1);
        }
        if (r.word != want) {
            fprintf(stderr, "refprobe: vmm-share: the second process read %08x, not %08x\n",
                    r.word, want);
            exit(1);
        }
        close(fd);
        CU(cuMemUnmap(va, bytes));
        CU(cuMemRelease(h));
        CU(cuMemAddressFree(va, bytes));
        if (s >= 2) {
            t[0].push_back(te * 1e3);
            t[1].push_back(r.import_s * 1e3);
            t[2].push_back(r.map_s * 1e3);
            t[3].push_back(r.access_s * 1e3);
        }
    }
    send_fd(sv[0], share_msg{0}, -1);
    int st;
    waitpid(pid, &st, 0);
    dist("vmm_share_export", t[0]);
    dist("vmm_share_import", t[1]);
    dist("vmm_share_map", t[2]);
    dist("vmm_share_access", t[3]);
}
