/* A whole node inspected (node.h). The GPUs are inspected one after
 * another, each through its own engine: every step that loads the host
 * link (the PCIe copies, the host latency) runs with no other GPU of the
 * node measuring, and the copies to the peers are each card's own. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/inspect/node.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputui/base/out.h"
#include "gputui/engine/engine.h"
#include "gputui/inspect/card.h"
#include "gputui/inspect/fleet.h"
#include "gputui/inspect/inspect_run.h"
#include "gputui/inspect/inspection.h"
#include "gputui/report/html.h"
#include "gputui/report/pairs_judge.h"

typedef struct node {
    int n;
    gt_inspect_facts f[GT_MAX_DEVICES];
    gt_inspect_card c[GT_MAX_DEVICES];
    int status[GT_MAX_DEVICES];         /* each card's exit status, NORUN: no card */
    gt_topo topo;
    gt_pairs_matrix pm;
    gt_pairs_verdict pv;
    gt_fleet_card fleet[GT_MAX_DEVICES];
    int outliers;
} node;

/* How bad an exit status is: a failure, then an inspection that could not
 * run, a warning, busy, a pass. */
static int badness(int status)
{
    switch (status) {
    case GT_INSPECT_EXIT_FAIL: return 4;
    case GT_INSPECT_EXIT_NORUN: return 3;
    case GT_INSPECT_EXIT_WARN: return 2;
    case GT_INSPECT_EXIT_BUSY: return 1;
    default: return 0;
    }
}

static int worse(int a, int b)
{
    return badness(b) > badness(a) ? b : a;
}

/* A card's JSON, as --batch --inspect --format json writes it; NULL on
 * failure. */
static char *card_json(const gt_inspect_card *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f)
        return NULL;
    if (gt_inspect_print_json(f, c)) {
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    return buf;
}

/* Each GPU inspected through an engine of its own: 0, or 128+N. */
static int inspect_all(const gt_cli *cli, const gt_backend *be, const gt_bundle *bundle,
                       node *z)
{
    for (int d = 0; d < z->n; d++) {
        gt_engine *eng;
        gt_devprops p;
        gt_err err;
        int rc;

        gt_err_clear(&err);
        z->status[d] = GT_INSPECT_EXIT_NORUN;
        if (!cli->format)
            fprintf(gt_stderr(), "gputui: --inspect: GPU %d of %d\n", d, z->n);
        if (gt_engine_start(&eng, be, d, &err)) {
            fprintf(gt_stderr(), "gputui: --inspect: GPU %d: %s\n", d, err.msg);
            continue;
        }
        gt_engine_set_share(eng, !cli->no_share_lock, NULL, 0);
        gt_engine_props(eng, &p);
        if (!z->topo.n)                 /* the machine as the first GPU that starts sees it */
            z->topo = p.topo;
        rc = gt_inspect_measure(cli, eng, be, bundle, NULL, &z->f[d], &z->c[d]);
        gt_engine_stop(eng);
        if (rc > 128)
            return rc;
        if (!rc)
            z->status[d] = gt_inspect_status(&z->c[d]);
    }
    return 0;
}

/* The copies of every card to its peers, as one matrix, judged. */
static void judge_links(node *z)
{
    gt_pairs_matrix *pm = &z->pm;

    memset(pm, 0, sizeof *pm);
    pm->n = z->n;
    pm->samples = GT_INSPECT_SAMPLES;
    snprintf(pm->what, sizeof pm->what, "the inspection's copies to the peers");
    snprintf(pm->desc, sizeof pm->desc, "each GPU's card: a copy-engine copy to each peer");
    for (int i = 0; i < GT_MAX_DEVICES; i++)
        for (int j = 0; j < GT_MAX_DEVICES; j++)
            pm->m[i][j] = NAN;
    for (int d = 0; d < z->n; d++) {
        const gt_inspect_facts *f = &z->f[d];
        if (z->status[d] == GT_INSPECT_EXIT_NORUN)
            continue;
        if (!pm->name[0])
            snprintf(pm->name, sizeof pm->name, "%s", z->c[d].device);
        for (int k = 0; k < f->npeers; k++)
            if (f->peer[k].a >= 0 && f->peer[k].a < z->n && f->peer[k].b >= 0 &&
                f->peer[k].b < z->n)
                pm->m[f->peer[k].a][f->peer[k].b] = f->peer[k].bw;
    }
    gt_pairs_judge(&z->topo, z->n, pm->m, false, &z->pv);
}

/* The cards as --fleet's cards, judged against each other. */
static void judge_cards(node *z)
{
    for (int d = 0; d < z->n; d++) {
        gt_fleet_card *fc = &z->fleet[d];
        char *json = z->status[d] != GT_INSPECT_EXIT_NORUN ? card_json(&z->c[d]) : NULL;
        char name[32];

        snprintf(name, sizeof name, "GPU %d", d);
        if (json) {
            gt_fleet_card_parse(fc, json, name);
            free(json);
        } else {
            memset(fc, 0, sizeof *fc);
            for (int k = 0; k < GT_FLEET_FIGS; k++)
                fc->fig[k] = NAN;
            snprintf(fc->file, sizeof fc->file, "%s", name);
            fc->status = -1;
            snprintf(fc->why, sizeof fc->why, "the inspection of %s did not run (see above)",
                     name);
        }
    }
    z->outliers = gt_fleet_judge(z->fleet, z->n);
}

static int verdict(const node *z)
{
    int rc = GT_INSPECT_EXIT_PASS;

    for (int d = 0; d < z->n; d++)
        rc = worse(rc, z->status[d]);
    if (z->pv.worst == GT_PV_FAIL)
        rc = worse(rc, GT_INSPECT_EXIT_FAIL);
    if (z->pv.worst == GT_PV_WARN || z->outliers)
        rc = worse(rc, GT_INSPECT_EXIT_WARN);
    return rc;
}

static const char *status_word(int rc)
{
    switch (rc) {
    case GT_INSPECT_EXIT_PASS: return "PASS";
    case GT_INSPECT_EXIT_WARN: return "WARN";
    case GT_INSPECT_EXIT_FAIL: return "FAIL";
    case GT_INSPECT_EXIT_BUSY: return "BUSY";
    default: return "NOT RUN";
    }
}

/* "node: WARN, 8 GPUs: 1 link slower than its type's median, ..." */
static char *summary(const node *z, int rc, char *buf, size_t len)
{
    size_t o = 0;
    int bad = 0;

#define ADD(...) (o += o < len ? (size_t)snprintf(buf + o, len - o, __VA_ARGS__) : 0)
    ADD("node: %s, %d GPUs:", status_word(rc), z->n);
    for (int d = 0; d < z->n; d++)
        if (z->status[d] != GT_INSPECT_EXIT_PASS)
            ADD("%s GPU %d's card %s", bad++ ? ";" : "", d, status_word(z->status[d]));
    if (z->pv.warn || z->pv.fail)
        ADD("%s %d link%s slower than its type's median, %d NVLink without peer access",
            bad++ ? ";" : "", z->pv.warn, z->pv.warn == 1 ? "" : "s", z->pv.fail);
    if (z->outliers)
        ADD("%s %d outlier%s among the cards", bad++ ? ";" : "", z->outliers,
            z->outliers == 1 ? "" : "s");
    if (!bad)
        ADD(" every card passes, every link within a tenth of its type");
#undef ADD
    return buf;
}

static int print_text(FILE *f, const node *z, int rc)
{
    char line[512];

    for (int d = 0; d < z->n; d++) {
        fprintf(f, "== GPU %d of %d ==\n", d, z->n);
        if (z->status[d] == GT_INSPECT_EXIT_NORUN)
            fprintf(f, "the inspection did not run (see above)\n\n");
        else if (gt_inspect_print_text(f, &z->c[d]))
            return -1;
    }
    fprintf(f, "== the links between the %d GPUs ==\n", z->n);
    gt_pairs_print(f, GT_FMT_TEXT, &z->pm, &z->pv);
    fprintf(f, "\n== the node's cards against each other ==\n");
    if (gt_fleet_print(f, GT_FMT_TEXT, z->fleet, z->n))
        return -1;
    fprintf(f, "\n%s\n", summary(z, rc, line, sizeof line));
    return ferror(f) ? -1 : 0;
}

/* One page: the verdict, the links as a table, the cards against each
 * other, then each card. */
static int print_html(FILE *f, const node *z, int rc)
{
    static const char *const cls[] = {
        [GT_PV_PASS] = "pass", [GT_PV_ALONE] = "cannot", [GT_PV_WARN] = "warn",
        [GT_PV_FAIL] = "fail",
    };
    char title[96], line[512], cell[32];

    snprintf(title, sizeof title, "inspection of a node of %d GPUs", z->n);
    gt_html_begin(f, NULL, title, z->pm.name);
    gt_html_text(f, "p", rc == GT_INSPECT_EXIT_FAIL ? "verdict no" : rc == GT_INSPECT_EXIT_PASS
                 ? "verdict yes" : "verdict close", summary(z, rc, line, sizeof line));
    gt_html_text(f, "h2", NULL, "the links: each card's copy to each peer, GB/s, against "
                 "the median of its link type");
    fputs("<table class=\"links\">\n<tr><th></th>", f);
    for (int j = 0; j < z->n; j++)
        fprintf(f, "<th>GPU %d</th>", j);
    fputs("</tr>\n", f);
    for (int i = 0, k = 0; i < z->n; i++) {
        fprintf(f, "<tr><th>GPU %d</th>", i);
        for (int j = 0; j < z->n; j++) {
            const gt_pair_judged *p = i != j ? &z->pv.p[k++] : NULL;
            if (!p) {
                fputs("<td>-</td>", f);
                continue;
            }
            if (isfinite(p->figure))
                snprintf(cell, sizeof cell, "%.1f", p->figure * 1e-9);
            else
                snprintf(cell, sizeof cell, "N/A");
            fprintf(f, "<td class=\"v-%s\">", cls[p->level]);
            gt_html_text(f, "span", NULL, cell);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    for (int k = 0; k < z->pv.n; k++)
        if (z->pv.p[k].level == GT_PV_WARN || z->pv.p[k].level == GT_PV_FAIL)
            gt_html_text(f, "p", z->pv.p[k].level == GT_PV_FAIL ? "verdict no" : "verdict close",
                         gt_pair_judged_text(&z->pv.p[k], false, line, sizeof line));
    gt_html_text(f, "h2", NULL, "the cards against each other");
    if (gt_fleet_html_tables(f, z->fleet, z->n, "h3"))
        return -1;
    for (int d = 0; d < z->n; d++) {
        snprintf(line, sizeof line, "GPU %d: %s", d, z->status[d] == GT_INSPECT_EXIT_NORUN
                 ? "the inspection did not run" : z->c[d].device);
        gt_html_text(f, "h2", NULL, line);
        if (z->status[d] != GT_INSPECT_EXIT_NORUN)
            gt_inspect_html_rows(f, &z->c[d], "h3");
    }
    return gt_html_end(f);
}

static int print_json(FILE *f, const node *z, int rc)
{
    json_t *root = json_object(), *cards = json_array(), *fleet;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    json_error_t je;

    for (int d = 0; d < z->n; d++) {
        char *text = z->status[d] != GT_INSPECT_EXIT_NORUN ? card_json(&z->c[d]) : NULL;
        json_t *o = text ? json_loads(text, 0, &je) : NULL;
        json_array_append_new(cards, o ? o : json_null());
        free(text);
    }
    if (m) {
        gt_fleet_print(m, GT_FMT_JSON, z->fleet, z->n);
        fclose(m);
    }
    fleet = buf ? json_loads(buf, 0, &je) : NULL;
    free(buf);
    json_object_set_new(root, "node", json_true());
    json_object_set_new(root, "gpus", json_integer(z->n));
    json_object_set_new(root, "status", json_integer(rc));
    json_object_set_new(root, "verdict", json_string(status_word(rc)));
    json_object_set_new(root, "cards", cards);
    json_object_set_new(root, "links", gt_pairs_json(&z->pm, &z->pv));
    json_object_set_new(root, "fleet", fleet ? fleet : json_null());
    json_dumpf(root, f, JSON_INDENT(2));
    fputc('\n', f);
    json_decref(root);
    return ferror(f) ? -1 : 0;
}

/* The cards (each family once, every GPU's samples), then each link's
 * verdict and the node's status. */
static int print_prometheus(FILE *f, const node *z, int rc)
{
    static const int level[] = {
        [GT_PV_PASS] = 0, [GT_PV_WARN] = 1, [GT_PV_FAIL] = 2, [GT_PV_ALONE] = 3,
    };
    const gt_inspect_card *cards[GT_MAX_DEVICES];
    const char *host = "";
    int n = 0;

    for (int d = 0; d < z->n; d++)
        if (z->status[d] != GT_INSPECT_EXIT_NORUN) {
            cards[n++] = &z->c[d];
            host = z->c[d].host;
        }
    if (n && gt_inspect_print_prometheus_cards(f, cards, n))
        return -1;
    fputs("# HELP gputui_node_link_verdict gputui --inspect -d all: a card's copy to a peer "
          "against the median of its link type: 0 pass, 1 warn, 2 fail, 3 cannot tell (too "
          "few pairs of its type)\n# TYPE gputui_node_link_verdict gauge\n", f);
    for (int k = 0; k < z->pv.n; k++) {
        const gt_pair_judged *p = &z->pv.p[k];
        fprintf(f, "gputui_node_link_verdict{from=\"%d\",to=\"%d\",link=\"", p->from, p->to);
        gt_prom_label(f, p->link);
        fputs("\",host=\"", f);
        gt_prom_label(f, host);
        fprintf(f, "\"} %d\n", level[p->level]);
    }
    fputs("# HELP gputui_node_status gputui --inspect -d all exit status: 0 pass, 2 warn, "
          "3 fail, 1 not run, 4 busy\n# TYPE gputui_node_status gauge\ngputui_node_status{host=\"",
          f);
    gt_prom_label(f, host);
    fprintf(f, "\",gpus=\"%d\"} %d\n", z->n, rc);
    return ferror(f) ? -1 : 0;
}

int gt_inspect_node(const gt_cli *cli, const gt_backend *be, const gt_bundle *bundle)
{
    node *z = calloc(1, sizeof *z);
    gt_err err;
    int n = 0, rc;

    gt_err_clear(&err);
    if (!z) {
        fprintf(gt_stderr(), "gputui: --inspect: out of memory\n");
        return GT_INSPECT_EXIT_NORUN;
    }
    if (be->device_count(&n, &err)) {
        fprintf(gt_stderr(), "gputui: --inspect: %s\n", err.msg);
        free(z);
        return GT_INSPECT_EXIT_NORUN;
    }
    if (n > GT_MAX_DEVICES) {
        fprintf(gt_stderr(), "gputui: --inspect -d all: inspecting the first %d of %d GPUs\n",
                GT_MAX_DEVICES, n);
        n = GT_MAX_DEVICES;
    }
    z->n = n;
    if ((rc = inspect_all(cli, be, bundle, z))) {
        free(z);
        return rc;
    }
    judge_links(z);
    judge_cards(z);
    rc = verdict(z);
    if ((cli->format == GT_FMT_JSON         ? print_json(gt_stdout(), z, rc)
         : cli->format == GT_FMT_PROMETHEUS ? print_prometheus(gt_stdout(), z, rc)
         : cli->format == GT_FMT_HTML       ? print_html(gt_stdout(), z, rc)
                                            : print_text(gt_stdout(), z, rc)) ||
        fflush(gt_stdout())) {
        fprintf(gt_stderr(), "gputui: --inspect: cannot write the node's cards\n");
        rc = GT_INSPECT_EXIT_NORUN;
    }
    free(z);
    return rc;
}
