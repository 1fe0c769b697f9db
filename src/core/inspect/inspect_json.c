/* An inspection's facts as JSON (inspect_json.h): one table of members per
 * structure, read and written by the same two loops. */
#include "gputui/inspect/inspect_json.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

typedef enum { F_INT, F_I64, F_U64, F_DBL, F_BOOL, F_STR } ftype;

typedef struct field {
    const char *name;
    ftype type;
    size_t off, size;
} field;

#define H(n, t) {.name = #n, .type = t, .off = offsetof(gt_health, n), \
                 .size = sizeof(((gt_health *)0)->n)}
static const field health_fields[] = {
    H(nvml, F_BOOL), H(note, F_STR),
    H(pcie_gen, F_INT), H(pcie_width, F_INT), H(pcie_gen_max, F_INT), H(pcie_width_max, F_INT),
    H(pcie_replays, F_I64),
    H(ecc_on, F_INT), H(ecc_vol_corr, F_I64), H(ecc_vol_unc, F_I64), H(ecc_agg_corr, F_I64),
    H(ecc_agg_unc, F_I64), H(retired_sbe, F_I64), H(retired_dbe, F_I64),
    H(retired_pending, F_INT), H(remap_corr, F_I64), H(remap_unc, F_I64),
    H(remap_pending, F_INT), H(remap_failed, F_INT),
    H(sm_clock, F_INT), H(sm_clock_max, F_INT), H(mem_clock, F_INT),
    H(reasons_known, F_BOOL), H(reasons, F_U64),
    H(temp, F_INT), H(temp_slowdown, F_INT),
    H(power, F_DBL), H(power_limit, F_DBL), H(power_default_limit, F_DBL),
    H(nvlinks, F_INT), H(nvlinks_up, F_INT),
    H(persistence, F_INT), H(mig, F_INT), H(compute_mode, F_INT), H(driver, F_STR),
    H(numa_node, F_INT), H(near_cpus, F_INT), H(affinity, F_STR),
};
#undef H

#define F(n, t) {.name = #n, .type = t, .off = offsetof(gt_inspect_facts, n), \
                 .size = sizeof(((gt_inspect_facts *)0)->n)}
static const field fact_fields[] = {
    F(during_known, F_BOOL),
    F(h2d, F_DBL), F(d2h, F_DBL), F(bidir, F_DBL), F(pcie_ceiling, F_DBL), F(pcie_label, F_STR),
    F(host_link, F_STR),
    F(h2d_ref, F_DBL), F(d2h_ref, F_DBL), F(bidir_ref, F_DBL),
    F(d2d, F_DBL), F(d2d_peak, F_DBL), F(d2d_ref, F_DBL),
    F(h2d_first, F_DBL), F(d2h_first, F_DBL), F(bidir_first, F_DBL), F(d2d_first, F_DBL),
    F(host_lat, F_DBL), F(host_lat_ref, F_DBL),
    F(pattern_errors, F_I64), F(pattern_copies, F_INT), F(pattern_bytes, F_DBL),
    F(gpus, F_INT), F(others, F_INT), F(others_text, F_STR),
    F(cuda_driver, F_INT), F(cuda_runtime, F_INT), F(ref_name, F_STR),
    F(h2d_busy, F_DBL), F(d2h_busy, F_DBL), F(bidir_busy, F_DBL), F(d2d_busy, F_DBL),
    F(d2d_sm_busy, F_DBL), F(host_lat_busy, F_DBL), F(neighbour, F_STR), F(counters, F_STR),
};
#undef F

#define P(n, t) {.name = #n, .type = t, .off = offsetof(gt_peer_fact, n), \
                 .size = sizeof(((gt_peer_fact *)0)->n)}
static const field peer_fields[] = {
    P(a, F_INT), P(b, F_INT), P(bw, F_DBL), P(ceiling, F_DBL), P(link, F_STR), P(note, F_STR),
    P(busy, F_DBL),
};
#undef P

#define C(n, t) {.name = #n, .type = t, .off = offsetof(gt_inspect_card, n), \
                 .size = sizeof(((gt_inspect_card *)0)->n)}
static const field card_fields[] = {
    C(device, F_STR), C(uuid, F_STR), C(host, F_STR), C(ordinal, F_INT), C(wall_s, F_DBL),
};
#undef C

static json_t *write_fields(const void *base, const field *fs, size_t n)
{
    json_t *o = json_object();

    for (size_t i = 0; i < n; i++) {
        const char *p = (const char *)base + fs[i].off;
        json_t *v = NULL;
        switch (fs[i].type) {
        case F_INT: v = json_integer(*(const int *)p); break;
        case F_I64: v = json_integer((json_int_t)*(const int64_t *)p); break;
        case F_U64: v = json_integer((json_int_t)*(const uint64_t *)p); break;
        case F_BOOL: v = json_boolean(*(const bool *)p); break;
        case F_STR: v = json_string(p); break;
        case F_DBL: {
            double d = *(const double *)p;
            v = isfinite(d) ? json_real(d) : json_null();
            break;
        }
        }
        json_object_set_new(o, fs[i].name, v ? v : json_null());
    }
    return o;
}

/* Members of o into base; a missing or null member leaves the field as it
 * was (unknown); a member of the wrong kind is an error. */
static int read_fields(json_t *o, void *base, const field *fs, size_t n, const char *what,
                       gt_err *err)
{
    if (!json_is_object(o)) {
        gt_err_set(err, GT_EXIT_FAIL, "the inspection has no \"%s\" object", what);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_object_get(o, fs[i].name);
        char *p = (char *)base + fs[i].off;
        bool ok = true;
        if (!v || json_is_null(v))
            continue;
        switch (fs[i].type) {
        case F_INT:
            if ((ok = json_is_integer(v)))
                *(int *)p = (int)json_integer_value(v);
            break;
        case F_I64:
            if ((ok = json_is_integer(v)))
                *(int64_t *)p = (int64_t)json_integer_value(v);
            break;
        case F_U64:
            if ((ok = json_is_integer(v) && json_integer_value(v) >= 0))
                *(uint64_t *)p = (uint64_t)json_integer_value(v);
            break;
        case F_BOOL:
            if ((ok = json_is_boolean(v)))
                *(bool *)p = json_is_true(v);
            break;
        case F_DBL:
            if ((ok = json_is_number(v)))
                *(double *)p = json_number_value(v);
            break;
        case F_STR:
            if ((ok = json_is_string(v)))
                snprintf(p, fs[i].size, "%s", json_string_value(v));
            break;
        }
        if (!ok) {
            gt_err_set(err, GT_EXIT_FAIL, "the inspection's %s.%s is not %s", what, fs[i].name,
                       fs[i].type == F_STR ? "a string" : fs[i].type == F_BOOL ? "true or false"
                       : fs[i].type == F_DBL ? "a number" : "an integer");
            return -1;
        }
    }
    return 0;
}

#define N(a) (sizeof(a) / sizeof *(a))

char *gt_inspect_json_write(const gt_inspect_facts *f, const gt_inspect_card *c)
{
    json_t *o = json_object(), *peers = json_array();
    char *text;

    json_object_set_new(o, "version", json_integer(1));
    json_object_set_new(o, "gpu", write_fields(c, card_fields, N(card_fields)));
    json_object_set_new(o, "facts", write_fields(f, fact_fields, N(fact_fields)));
    json_object_set_new(o, "before", write_fields(&f->before, health_fields, N(health_fields)));
    json_object_set_new(o, "during", write_fields(&f->during, health_fields, N(health_fields)));
    json_object_set_new(o, "after", write_fields(&f->after, health_fields, N(health_fields)));
    for (int i = 0; i < f->npeers && i < GT_PEERS_MAX; i++)
        json_array_append_new(peers, write_fields(&f->peer[i], peer_fields, N(peer_fields)));
    json_object_set_new(o, "peers", peers);
    text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

int gt_inspect_json_read(const char *text, gt_inspect_facts *f, gt_inspect_card *c, gt_err *err)
{
    json_error_t je;
    json_t *o = json_loads(text, 0, &je), *peers;
    int rc = -1;

    gt_inspect_facts_init(f);
    memset(c, 0, sizeof *c);
    if (!json_is_object(o)) {
        gt_err_set(err, GT_EXIT_FAIL, "the inspection is not a JSON object%s%s", o ? "" : ": ",
                   o ? "" : je.text);
        goto out;
    }
    if (read_fields(json_object_get(o, "gpu"), c, card_fields, N(card_fields), "gpu", err) ||
        read_fields(json_object_get(o, "facts"), f, fact_fields, N(fact_fields), "facts", err) ||
        read_fields(json_object_get(o, "before"), &f->before, health_fields, N(health_fields),
                    "before", err) ||
        read_fields(json_object_get(o, "during"), &f->during, health_fields, N(health_fields),
                    "during", err) ||
        read_fields(json_object_get(o, "after"), &f->after, health_fields, N(health_fields),
                    "after", err))
        goto out;
    peers = json_object_get(o, "peers");
    for (size_t i = 0; json_is_array(peers) && i < json_array_size(peers); i++) {
        gt_peer_fact *p;
        if (f->npeers == GT_PEERS_MAX) {
            gt_err_set(err, GT_EXIT_FAIL, "the inspection holds more than %d peers",
                       GT_PEERS_MAX);
            goto out;
        }
        p = &f->peer[f->npeers];
        memset(p, 0, sizeof *p);
        p->bw = p->ceiling = NAN;
        if (read_fields(json_array_get(peers, i), p, peer_fields, N(peer_fields), "peers", err))
            goto out;
        f->npeers++;
    }
    rc = 0;
out:
    json_decref(o);
    return rc;
}
