/* The machine's GPUs and their pairwise links (topology.h): names of the
 * link kinds, the NVLink ceiling, the peer a two-GPU experiment uses, and
 * the JSON that reports and recordings carry. */
#include "gputui/device/topology.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

void gt_topo_init(gt_topo *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < GT_MAX_DEVICES; i++)
        for (int j = 0; j < GT_MAX_DEVICES; j++)
            t->link[i][j] = (gt_topo_link){-1, -1, -1, 0, GT_PATH_UNKNOWN, -1};
}

/* nvmlNvlinkVersion_t: 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0, 5 = 3.1,
 * 6 = 4.0, 7 = 5.0; the signalling rate of one link, one way, in GB/s. */
static const struct { const char *name; double gbs; } nvlink_vers[] = {
    {.name = NULL},
    {.name = "NVLink 1.0", .gbs = 20},
    {.name = "NVLink 2.0", .gbs = 25},
    {.name = "NVLink 2.2", .gbs = 25},
    {.name = "NVLink 3.0", .gbs = 25},
    {.name = "NVLink 3.1", .gbs = 25},
    {.name = "NVLink 4.0", .gbs = 25},
    {.name = "NVLink 5.0", .gbs = 50},
};
#define NVERS ((int)(sizeof nvlink_vers / sizeof nvlink_vers[0]))

const char *gt_topo_nvlink_name(int ver)
{
    return ver > 0 && ver < NVERS ? nvlink_vers[ver].name : NULL;
}

double gt_topo_nvlink_bw(const gt_topo_link *l)
{
    if (l->nvlinks <= 0 || l->nvlink_ver <= 0 || l->nvlink_ver >= NVERS)
        return 0;
    return l->nvlinks * nvlink_vers[l->nvlink_ver].gbs * 1e9;
}

const char *gt_topo_path_name(int path)
{
    static const char *const n[] = {"board", "PIX", "PXB", "PHB", "NODE", "SYS"};
    return path >= 0 && path <= GT_PATH_SYS ? n[path] : "N/A";
}

char *gt_topo_link_short(const gt_topo_link *l, char *buf, size_t len)
{
    if (l->nvlinks > 0)
        snprintf(buf, len, "NV%d", l->nvlinks);
    else
        snprintf(buf, len, "%s", gt_topo_path_name(l->path));
    return buf;
}

int gt_topo_pick_peer(const gt_topo *t, int self, int want)
{
    int count = t->count < t->n ? t->count : t->n;

    if (want >= 0)
        return want != self && want < count ? want : -1;
    for (int j = 0; j < count; j++)
        if (j != self && self >= 0 && self < count && t->link[self][j].access == 1)
            return j;
    for (int j = 0; j < count; j++)
        if (j != self)
            return j;
    return -1;
}

static json_t *tri(int v)
{
    return v < 0 ? json_null() : json_integer(v);
}

json_t *gt_topo_json(const gt_topo *t)
{
    json_t *o = json_object(), *devs = json_array(), *links = json_array();

    json_object_set_new(o, "count", json_integer(t->count));
    for (int i = 0; i < t->n; i++) {
        json_t *d = json_object();
        json_object_set_new(d, "ordinal", json_integer(i));
        json_object_set_new(d, "name", json_string(t->dev[i].name));
        json_object_set_new(d, "pci_bus_id", json_string(t->dev[i].pci_bus_id));
        json_object_set_new(d, "global_mem_bytes", t->dev[i].mem_total ?
                            json_integer(t->dev[i].mem_total) : json_null());
        json_object_set_new(d, "pcie_gen_current", tri(t->dev[i].pcie_gen ? t->dev[i].pcie_gen : -1));
        json_object_set_new(d, "pcie_width_current",
                            tri(t->dev[i].pcie_width ? t->dev[i].pcie_width : -1));
        json_array_append_new(devs, d);
    }
    for (int i = 0; i < t->n; i++)
        for (int j = 0; j < t->n; j++) {
            const gt_topo_link *l = &t->link[i][j];
            json_t *k;
            if (i == j)
                continue;
            k = json_object();
            json_object_set_new(k, "from", json_integer(i));
            json_object_set_new(k, "to", json_integer(j));
            json_object_set_new(k, "peer_access", l->access < 0 ? json_null() : json_boolean(l->access));
            json_object_set_new(k, "native_atomics", l->atomics < 0 ? json_null() : json_boolean(l->atomics));
            json_object_set_new(k, "nvlinks", tri(l->nvlinks));
            json_object_set_new(k, "nvlink_version", tri(l->nvlink_ver ? l->nvlink_ver : -1));
            json_object_set_new(k, "nvswitch", l->nvswitch < 0 ? json_null() : json_boolean(l->nvswitch));
            json_object_set_new(k, "pcie_path", l->path < 0 ? json_null() : json_string(gt_topo_path_name(l->path)));
            json_array_append_new(links, k);
        }
    json_object_set_new(o, "devices", devs);
    json_object_set_new(o, "links", links);
    json_object_set_new(o, "note", t->note[0] ? json_string(t->note) : json_null());
    return o;
}

static int small(json_t *v, int lo, int hi, int none)
{
    if (json_is_boolean(v))
        return json_is_true(v);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return none;
    return (int)json_integer_value(v);
}

void gt_topo_read(json_t *o, gt_topo *t)
{
    json_t *devs, *links, *v;
    size_t i;

    gt_topo_init(t);
    if (!json_is_object(o))
        return;
    t->count = small(json_object_get(o, "count"), 0, 4096, 0);
    devs = json_object_get(o, "devices");
    for (i = 0; json_is_array(devs) && i < json_array_size(devs) && i < GT_MAX_DEVICES; i++) {
        json_t *d = json_array_get(devs, i);
        gt_topo_dev *x = &t->dev[i];
        if (json_is_string(v = json_object_get(d, "name")))
            snprintf(x->name, sizeof x->name, "%s", json_string_value(v));
        if (json_is_string(v = json_object_get(d, "pci_bus_id")))
            snprintf(x->pci_bus_id, sizeof x->pci_bus_id, "%s", json_string_value(v));
        if (json_is_integer(v = json_object_get(d, "global_mem_bytes")) && json_integer_value(v) > 0)
            x->mem_total = json_integer_value(v);
        x->pcie_gen = (int8_t)small(json_object_get(d, "pcie_gen_current"), 1, 99, 0);
        x->pcie_width = (int8_t)small(json_object_get(d, "pcie_width_current"), 1, 64, 0);
        t->n = (int)i + 1;
    }
    if (t->count < t->n)
        t->count = t->n;
    links = json_object_get(o, "links");
    for (i = 0; json_is_array(links) && i < json_array_size(links); i++) {
        json_t *k = json_array_get(links, i);
        int a = small(json_object_get(k, "from"), 0, GT_MAX_DEVICES - 1, -1);
        int b = small(json_object_get(k, "to"), 0, GT_MAX_DEVICES - 1, -1);
        gt_topo_link *l;
        if (a < 0 || b < 0 || a == b || a >= t->n || b >= t->n)
            continue;
        l = &t->link[a][b];
        l->access = (int8_t)small(json_object_get(k, "peer_access"), 0, 1, -1);
        l->atomics = (int8_t)small(json_object_get(k, "native_atomics"), 0, 1, -1);
        l->nvlinks = (int8_t)small(json_object_get(k, "nvlinks"), 0, 64, -1);
        l->nvlink_ver = (int8_t)small(json_object_get(k, "nvlink_version"), 1, 31, 0);
        l->nvswitch = (int8_t)small(json_object_get(k, "nvswitch"), 0, 1, -1);
        l->path = GT_PATH_UNKNOWN;
        if (json_is_string(v = json_object_get(k, "pcie_path")))
            for (int p = 0; p <= GT_PATH_SYS; p++)
                if (!strcmp(json_string_value(v), gt_topo_path_name(p)))
                    l->path = (int8_t)p;
    }
    if (json_is_string(v = json_object_get(o, "note")))
        snprintf(t->note, sizeof t->note, "%s", json_string_value(v));
}

static const char *yn(int v)
{
    return v < 0 ? "N/A" : v ? "yes" : "no";
}

int gt_topo_lines(const gt_topo *t, int self, gt_topo_line *lines, int max)
{
    char mem[32], lk[32];
    int n = 0;

#define LINE(...) do { if (n < max) snprintf(lines[n++], sizeof lines[0], __VA_ARGS__); } while (0)
    for (int i = 0; i < t->n; i++) {
        const gt_topo_dev *d = &t->dev[i];
        if (d->mem_total)
            snprintf(mem, sizeof mem, "%.0f GiB", (double)d->mem_total / (1ull << 30));
        else
            snprintf(mem, sizeof mem, "N/A");
        LINE("GPU %d%s %s", i, i == self ? "*" : " ", d->name);
        if (d->pcie_gen)
            LINE("  %s %s Gen%d x%d", d->pci_bus_id[0] ? d->pci_bus_id : "N/A", mem,
                 d->pcie_gen, d->pcie_width);
        else
            LINE("  %s %s PCIe N/A", d->pci_bus_id[0] ? d->pci_bus_id : "N/A", mem);
    }
    if (t->count > t->n)
        LINE("(%d more GPUs not listed)", t->count - t->n);
    for (int i = 0; i < t->n; i++)
        for (int j = 0; j < t->n; j++) {
            const gt_topo_link *l = &t->link[i][j];
            if (i == j)
                continue;
            LINE("%d->%d %-5s peer %s, atomics %s", i, j, gt_topo_link_short(l, lk, sizeof lk),
                 yn(l->access), yn(l->atomics));
            if (l->nvlinks > 0 && gt_topo_nvlink_bw(l) > 0)
                LINE("  %s x%d%s: %.0f GB/s", gt_topo_nvlink_name(l->nvlink_ver),
                     l->nvlinks, l->nvswitch == 1 ? " (NVSwitch)" : "",
                     gt_topo_nvlink_bw(l) / 1e9);
        }
    if (t->note[0])
        LINE("links: %s", t->note);
#undef LINE
    return n;
}
