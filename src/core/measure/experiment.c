#include "gputui/measure/experiment.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gputui/base/units.h"
#include "gputui/device/topology.h"

int gt_experiment_param(const gt_experiment *e, const char *name)
{
    for (int i = 0; i < e->nparams; i++)
        if (!strcmp(e->params[i].name, name))
            return i;
    return -1;
}

void gt_experiment_defaults(const gt_experiment *e, int64_t *vals)
{
    memset(vals, 0, GT_MAX_PARAMS * sizeof *vals);
    for (int i = 0; i < e->nparams; i++)
        vals[i] = e->params[i].def;
}

int gt_experiment_validate(const gt_experiment *e, const int64_t *vals,
                           uint64_t given, char *err, size_t errlen)
{
    for (int i = 0; i < e->nparams; i++) {
        const char *why;
        if (gt_param_check(&e->params[i], vals[i], err, errlen))
            return -1;
        if (((given >> i) & 1u) && !gt_param_applies(&e->params[i], vals, &why)) {
            snprintf(err, errlen, "--%s applies %s", e->params[i].name, why);
            return -1;
        }
    }
    return 0;
}

char *gt_experiment_describe(const gt_experiment *e, const int64_t *vals,
                             char *buf, size_t len)
{
    size_t off = 0;
    char v[48];

    buf[0] = '\0';
    for (int i = 0; i < e->nparams && off < len; i++) {
        if (!gt_param_applies(&e->params[i], vals, NULL))
            continue;
        gt_param_format(&e->params[i], vals[i], v, sizeof v);
        off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", off ? " " : "",
                                e->params[i].name, v);
    }
    return buf;
}

int gt_experiment_check(const gt_experiment *e, const int64_t *vals, const gt_devprops *p,
                        char *err, size_t errlen)
{
    return e->check ? e->check(vals, p, err, errlen) : 0;
}

double gt_experiment_ceiling(const gt_experiment *e, const int64_t *vals, int s,
                             const gt_devprops *p, double *factor, char *label, size_t labellen)
{
    *factor = 1.0;
    if (!e->ceiling) {
        snprintf(label, labellen, "no ceiling known");
        return 0.0;
    }
    return e->ceiling(vals, s, p, factor, label, labellen);
}

void gt_setup_info_time(gt_setup_info *info, double sec, const char *fmt, ...)
{
    va_list ap;

    if (info->ntimes >= GT_MAX_TIMES)
        return;
    va_start(ap, fmt);
    vsnprintf(info->times[info->ntimes].label,
              sizeof info->times[info->ntimes].label, fmt, ap);
    va_end(ap);
    info->times[info->ntimes++].sec = sec;
}

void gt_setup_info_timing(gt_setup_info *info, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(info->timing, sizeof info->timing, fmt, ap);
    va_end(ap);
}

bool gt_experiment_bandwidth(const gt_experiment *e, const int64_t *vals)
{
    return e->bandwidth_for ? e->bandwidth_for(vals) : e->bandwidth;
}

double gt_ceiling_host(const gt_devprops *p, double *factor, char *label, size_t n)
{
    *factor = 1.0;
    return gt_host_link(p, NULL, label, n);
}

double gt_ceiling_link(const gt_devprops *p, int a, int b, double *factor, char *label,
                       size_t n)
{
    const gt_topo_link *l;
    double bw;

    *factor = 1.0;
    if (a < 0 || b < 0 || a >= p->topo.n || b >= p->topo.n || a == b) {
        snprintf(label, n, "no ceiling");
        return 0;
    }
    l = &p->topo.link[a][b];
    if ((bw = gt_topo_nvlink_bw(l)) > 0) {
        snprintf(label, n, "%s x%d", gt_topo_nvlink_name(l->nvlink_ver), l->nvlinks);
        return bw;
    }
    if (l->nvlinks < 0) {
        snprintf(label, n, "link N/A (no NVML)");
        return 0;
    }
    return gt_ceiling_host(p, factor, label, n);
}

char *gt_ceiling_share(double bw_p50, double factor, double ceil, const char *label, char *buf,
                       size_t len)
{
    snprintf(buf, len, "p50 = %.1f%% of %s (%.1f GB/s)%s", 100.0 * bw_p50 * factor / ceil, label,
             ceil / 1e9, factor != 1.0 ? ", bytes counted twice for this comparison" : "");
    return buf;
}

double gt_ceiling_hbm(const gt_devprops *p, double *factor, char *label, size_t n)
{
    *factor = 2.0;
    snprintf(label, n, "HBM peak, read+write");
    return (double)gt_dp_get(p, GT_DP_MEM_PEAK);
}

bool gt_ceiling_in_l2(const gt_devprops *p, uint64_t bytes, const char *what, double *factor,
                      char *label, size_t n)
{
    bool known = gt_dp_ok(p, GT_DP_L2);

    if (known && bytes > (uint64_t)gt_dp_get(p, GT_DP_L2))
        return false;
    *factor = 1.0;
    if (known)
        snprintf(label, n, "none known: the %s fits in the L2", what);
    else
        snprintf(label, n, "none known: the L2's size is unknown");
    return true;
}

double gt_ceiling_hbm_read(const gt_devprops *p, double *factor, char *label, size_t n)
{
    *factor = 1.0;
    snprintf(label, n, "HBM peak, read");
    return (double)gt_dp_get(p, GT_DP_MEM_PEAK);
}

bool gt_experiment_iteration_only(const gt_experiment *e, const int64_t *from,
                                  const int64_t *to, bool retune, char *what, size_t len)
{
    int changed = 0;
    size_t off = 0;

    if (len)
        what[0] = '\0';
    for (int i = 0; i < e->nparams; i++) {
        if (from[i] == to[i])
            continue;
        if (!e->params[i].iteration || (i != e->warmup_param && !retune))
            return false;
        if (off < len)
            off += (size_t)snprintf(what + off, len - off, "%s%s", changed ? ", " : "",
                                    e->params[i].label + strspn(e->params[i].label, " "));
        changed++;
    }
    return changed > 0;
}

const char *gt_setup_time_text(const gt_setup_info *info, int i, char *buf, size_t len)
{
    if (info->kept) {
        snprintf(buf, len, "kept");
        return buf;
    }
    return gt_format_seconds(info->times[i].sec, buf, len);
}
