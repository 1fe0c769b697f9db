/* Many inspection cards as one table (fleet.h). */
#define _POSIX_C_SOURCE 200809L
#include "gputui/inspect/fleet.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "gputui/report/html.h"

/* The columns: a row id of the card, its heading, which way is good, and
 * how far from the model's median a card may lie before it is an outlier.
 * Bandwidths and clocks: 5%. A load from host memory goes through the
 * host, and a process lands where the host puts it: on four H100s of one
 * node, one run read 1176-1208 ns, the next 1181-1295 ns (+9% on one
 * GPU, 2026-11-28), so a latency is an outlier past 15%. */
static const struct {
    const char *id, *head;
    double scale, tol;
    bool lower_better;
} cols[GT_FLEET_FIGS] = {
    {.id = "pcie.h2d", .head = "H2D GB/s", .scale = 1e-9, .tol = 0.05},
    {.id = "pcie.d2h", .head = "D2H GB/s", .scale = 1e-9, .tol = 0.05},
    {.id = "pcie.bidir", .head = "both GB/s", .scale = 1e-9, .tol = 0.05},
    {.id = "mem.d2d", .head = "D2D GB/s", .scale = 1e-9, .tol = 0.05},
    {.id = "pcie.latency", .head = "host ns", .scale = 1e9, .tol = 0.15, .lower_better = true},
    {.id = "clk.sm", .head = "SM MHz", .scale = 1e-6, .tol = 0.05},
    {.id = NULL},
    {.id = NULL},
};

static void no_card(gt_fleet_card *c, const char *why)
{
    c->status = -1;
    snprintf(c->why, sizeof c->why, "%s", why);
}

/* A card from its JSON (root, NULL: not JSON, je says why). */
static void take_card(gt_fleet_card *c, const char *name, json_t *root, const json_error_t *je)
{
    json_t *rows, *r;
    size_t i;
    size_t nf = 0, nb = 0;
    const char *others = NULL;

    memset(c, 0, sizeof *c);
    snprintf(c->file, sizeof c->file, "%s", name);
    for (int k = 0; k < GT_FLEET_FIGS; k++)
        c->fig[k] = NAN;
    if (!root) {
        char why[200];
        snprintf(why, sizeof why, "not JSON (line %d: %s)", je->line, je->text);
        no_card(c, why);
        return;
    }
    rows = json_object_get(root, "rows");
    if (!json_is_integer(json_object_get(root, "inspection")) || !json_is_array(rows) ||
        !json_is_integer(json_object_get(root, "status"))) {
        no_card(c, "not a gputui inspection card (no \"inspection\", \"status\" and \"rows\")");
        json_decref(root);
        return;
    }
    snprintf(c->host, sizeof c->host, "%s",
             json_string_value(json_object_get(root, "host")) ? json_string_value(json_object_get(root, "host")) : "?");
    snprintf(c->name, sizeof c->name, "%s",
             json_string_value(json_object_get(root, "name")) ? json_string_value(json_object_get(root, "name")) : "?");
    snprintf(c->uuid, sizeof c->uuid, "%s",
             json_string_value(json_object_get(root, "uuid")) ? json_string_value(json_object_get(root, "uuid")) : "");
    c->gpu = (int)json_integer_value(json_object_get(root, "gpu"));
    c->status = (int)json_integer_value(json_object_get(root, "status"));
    json_array_foreach(rows, i, r) {
        const char *id = json_string_value(json_object_get(r, "id"));
        const char *v = json_string_value(json_object_get(r, "verdict"));
        json_t *val = json_object_get(r, "value");
        if (!id)
            continue;
        for (int k = 0; k < GT_FLEET_FIGS; k++)
            if (cols[k].id && !strcmp(cols[k].id, id) && json_is_number(val))
                c->fig[k] = json_number_value(val);
        if (v && !strcmp(v, "fail") && nf < sizeof c->fails)
            nf += (size_t)snprintf(c->fails + nf, sizeof c->fails - nf, "%s%s", nf ? ", " : "", id);
        if (v && !strcmp(v, "busy") && strcmp(id, "sw.others") && nb < sizeof c->busy)
            nb += (size_t)snprintf(c->busy + nb, sizeof c->busy - nb, "%s%s", nb ? ", " : "",
                                   id);
        if (!strcmp(id, "sw.others"))
            others = json_string_value(json_object_get(r, "figure"));
    }
    if (c->status == GT_INSPECT_EXIT_BUSY && !nb)
        nb = (size_t)snprintf(c->busy, sizeof c->busy, "a row");
    if (c->status == GT_INSPECT_EXIT_BUSY && others && nb < sizeof c->busy)
        snprintf(c->busy + nb, sizeof c->busy - nb, " not judged; on the GPU: %s", others);
    else if (c->status != GT_INSPECT_EXIT_BUSY)
        c->busy[0] = '\0';
    json_decref(root);
}

static void read_card(gt_fleet_card *c, const char *path)
{
    json_error_t je;

    take_card(c, path, json_load_file(path, 0, &je), &je);
}

void gt_fleet_card_parse(gt_fleet_card *c, const char *json, const char *name)
{
    json_error_t je;

    take_card(c, name, json_loads(json, 0, &je), &je);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.json files of dir, sorted, appended to *list. */
static int list_dir(const char *dir, char ***list, int *n, int *cap, gt_err *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int first = *n;

    if (!d) {
        gt_err_set(err, GT_EXIT_FAIL, "--fleet: %s: %s", dir, strerror(errno));
        return -1;
    }
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        if (*n == *cap) {
            char **l = realloc(*list, (size_t)(*cap = *cap * 2 + 16) * sizeof *l);
            if (!l) {
                closedir(d);
                gt_err_set(err, GT_EXIT_FAIL, "--fleet: out of memory");
                return -1;
            }
            *list = l;
        }
        (*list)[*n] = malloc(strlen(dir) + len + 2);
        if (!(*list)[*n]) {
            closedir(d);
            gt_err_set(err, GT_EXIT_FAIL, "--fleet: out of memory");
            return -1;
        }
        sprintf((*list)[*n], "%s/%s", dir, e->d_name);
        (*n)++;
    }
    closedir(d);
    if (*n > first)
        qsort(*list + first, (size_t)(*n - first), sizeof **list, by_name);
    return 0;
}

int gt_fleet_load(const char *const *paths, int npaths, gt_fleet_card **cards, int *n,
                  gt_err *err)
{
    char **files = NULL;
    int nfiles = 0, cap = 0, rc = 0;
    struct stat st;

    *cards = NULL;
    *n = 0;
    for (int i = 0; i < npaths && !rc; i++) {
        if (stat(paths[i], &st)) {
            gt_err_set(err, GT_EXIT_FAIL, "--fleet: %s: %s", paths[i], strerror(errno));
            rc = -1;
        } else if (S_ISDIR(st.st_mode)) {
            rc = list_dir(paths[i], &files, &nfiles, &cap, err);
        } else {
            char **l = nfiles == cap ? realloc(files, (size_t)(cap = cap * 2 + 16) * sizeof *l) : files;
            if (!l || !(l[nfiles] = strdup(paths[i]))) {
                gt_err_set(err, GT_EXIT_FAIL, "--fleet: out of memory");
                rc = -1;
            }
            if (l)
                files = l;
            if (!rc)
                nfiles++;
        }
    }
    if (!rc && !nfiles) {
        gt_err_set(err, GT_EXIT_FAIL, "--fleet: no inspection cards (*.json) in %s%s",
                   npaths ? paths[0] : "nothing", npaths > 1 ? " and the others" : "");
        rc = -1;
    }
    if (!rc && !(*cards = calloc((size_t)nfiles, sizeof **cards))) {
        gt_err_set(err, GT_EXIT_FAIL, "--fleet: out of memory");
        rc = -1;
    }
    for (int i = 0; !rc && i < nfiles; i++)
        read_card(&(*cards)[i], files[i]);
    if (!rc)
        *n = nfiles;
    for (int i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    return rc;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Whether card c is judged among the cards of model name (a card, not
 * busy). */
static bool member(const gt_fleet_card *c, const char *name)
{
    return c->status >= 0 && c->status != GT_INSPECT_EXIT_BUSY && !strcmp(c->name, name);
}

static double median_of(const gt_fleet_card *cards, int n, const char *name, int k)
{
    double *v = malloc((size_t)n * sizeof *v), m = NAN;
    int m_n = 0;

    if (!v)
        return NAN;
    for (int i = 0; i < n; i++)
        if (member(&cards[i], name) && !isnan(cards[i].fig[k]))
            v[m_n++] = cards[i].fig[k];
    if (m_n >= 2) {
        qsort(v, (size_t)m_n, sizeof *v, by_value);
        m = m_n % 2 ? v[m_n / 2] : (v[m_n / 2 - 1] + v[m_n / 2]) / 2;
    }
    free(v);
    return m;
}

int gt_fleet_judge(gt_fleet_card *cards, int n)
{
    int outliers = 0;

    for (int i = 0; i < n; i++) {
        gt_fleet_card *c = &cards[i];
        size_t o = 0;
        c->outlier[0] = '\0';
        if (c->status < 0) {
            snprintf(c->outlier, sizeof c->outlier, "no card: %s", c->why);
            outliers++;
            continue;
        }
        if (c->status == GT_INSPECT_EXIT_BUSY)
            continue;
        if (c->fails[0])
            o += (size_t)snprintf(c->outlier, sizeof c->outlier, "failed %s", c->fails);
        for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++) {
            double m = median_of(cards, n, c->name, k), x = c->fig[k];
            if (isnan(m) || isnan(x) || !(m > 0))
                continue;
            if ((cols[k].lower_better && x > (1 + cols[k].tol) * m) ||
                (!cols[k].lower_better && x < (1 - cols[k].tol) * m))
                o += (size_t)snprintf(c->outlier + o, o < sizeof c->outlier ? sizeof c->outlier - o : 0,
                                      "%s%s %+.1f%% against the median", o ? "; " : "",
                                      cols[k].id, 100.0 * (x / m - 1));
            if (o >= sizeof c->outlier)
                break;
        }
        outliers += c->outlier[0] != '\0';
    }
    return outliers;
}

int gt_fleet_busy(const gt_fleet_card *cards, int n)
{
    int busy = 0;

    for (int i = 0; i < n; i++)
        busy += cards[i].status == GT_INSPECT_EXIT_BUSY;
    return busy;
}

static int print_json(FILE *f, const gt_fleet_card *cards, int n)
{
    json_t *root = json_object(), *arr = json_array();
    int outliers = 0, rc;

    for (int i = 0; i < n; i++) {
        const gt_fleet_card *c = &cards[i];
        json_t *o = json_object(), *figs = json_object();
        outliers += c->outlier[0] != '\0';
        json_object_set_new(o, "file", json_string(c->file));
        json_object_set_new(o, "host", json_string(c->host));
        json_object_set_new(o, "gpu", json_integer(c->gpu));
        json_object_set_new(o, "name", json_string(c->name));
        json_object_set_new(o, "uuid", json_string(c->uuid));
        json_object_set_new(o, "status", c->status >= 0 ? json_integer(c->status) : json_null());
        for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++)
            json_object_set_new(figs, cols[k].id, isnan(c->fig[k]) ? json_null() : json_real(c->fig[k]));
        json_object_set_new(o, "figures", figs);
        json_object_set_new(o, "outlier", c->outlier[0] ? json_string(c->outlier) : json_null());
        json_object_set_new(o, "busy", c->busy[0] ? json_string(c->busy) : json_null());
        json_array_append_new(arr, o);
    }
    json_object_set_new(root, "cards", arr);
    json_object_set_new(root, "outliers", json_integer(outliers));
    json_object_set_new(root, "busy", json_integer(gt_fleet_busy(cards, n)));
    rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', f);
    json_decref(root);
    return rc || ferror(f) ? -1 : 0;
}

static const char *const status_word[] = {"pass", "?", "WARN", "FAIL", "BUSY"};

/* The medians of model name's figures, column by column (NAN: none). */
static void medians(const gt_fleet_card *cards, int n, const char *name, double *med)
{
    for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++)
        med[k] = median_of(cards, n, name, k);
}

/* Figure k of card c as a cell: the figure, and its change against the
 * model's median m when there is one; "-" when the card has none. */
static char *fig_cell(const gt_fleet_card *c, int k, double m, char *buf, size_t len)
{
    if (isnan(c->fig[k]))
        snprintf(buf, len, "-");
    else if (isnan(m) || !(m > 0))
        snprintf(buf, len, "%.5g", c->fig[k] * cols[k].scale);
    else
        snprintf(buf, len, "%.5g %+.1f%%", c->fig[k] * cols[k].scale, 100.0 * (c->fig[k] / m - 1));
    return buf;
}

/* One page: a table a model, each figure against the model's median, the
 * outliers marked in their colour, then the busy cards and the files that
 * are no card (html.h). */
/* The tables of the models and what stands apart, each model under a
 * heading of this tag. */
static void html_tables(FILE *f, const gt_fleet_card *cards, int n, bool *done,
                        const char *heading)
{
    int busy = gt_fleet_busy(cards, n);
    char line[400], cell[32];
    double med[GT_FLEET_FIGS];

    for (int i = 0; i < n; i++) {
        const char *name = cards[i].status >= 0 && cards[i].status != GT_INSPECT_EXIT_BUSY
                           ? cards[i].name : NULL;
        if (done[i] || !name)
            continue;
        medians(cards, n, name, med);
        gt_html_text(f, heading, NULL, name);
        fputs("<table class=\"fleet\">\n<tr><th>host</th><th>gpu</th><th>status</th>", f);
        for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++)
            fprintf(f, "<th>%s</th>", cols[k].head);
        fputs("</tr>\n<tr><th>median</th><td></td><td></td>", f);
        for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++) {
            if (isnan(med[k]))
                fputs("<td>-</td>", f);
            else
                fprintf(f, "<td>%.5g</td>", med[k] * cols[k].scale);
        }
        fputs("</tr>\n", f);
        for (int j = i; j < n; j++) {
            const gt_fleet_card *c = &cards[j];
            if (!member(c, name))
                continue;
            done[j] = true;
            fprintf(f, "<tr data-card=\"%d\" class=\"%s\"><th>", j, c->outlier[0] ?
                    "outlier" : "member");
            gt_html_text(f, "span", NULL, c->host);
            fprintf(f, "</th><td>%d</td><td class=\"v-%s\">%s</td>", c->gpu,
                    c->status == GT_INSPECT_EXIT_FAIL ? "fail" : c->status == GT_INSPECT_EXIT_WARN
                    ? "warn" : "pass", c->status <= 4 ? status_word[c->status] : "?");
            for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++) {
                fprintf(f, "<td data-fig=\"%s\"", cols[k].id);
                if (!isnan(c->fig[k]))
                    fprintf(f, " data-value=\"%.17g\"", c->fig[k]);
                fprintf(f, ">%s</td>", fig_cell(c, k, med[k], cell, sizeof cell));
            }
            fputs("</tr>\n", f);
            if (c->outlier[0]) {
                fprintf(f, "<tr class=\"outlier\"><td></td><td colspan=\"%d\" class=\"v-fail\">",
                        GT_FLEET_FIGS + 1);
                snprintf(line, sizeof line, "OUTLIER: %s", c->outlier);
                gt_html_text(f, "span", NULL, line);
                fputs("</td></tr>\n", f);
            }
        }
        fputs("</table>\n", f);
    }
    if (busy)
        gt_html_text(f, heading, NULL, "busy, not judged (another program's work on the GPU)");
    for (int i = 0; i < n; i++)
        if (cards[i].status == GT_INSPECT_EXIT_BUSY) {
            snprintf(line, sizeof line, "%s GPU %d %s: %s", cards[i].host, cards[i].gpu,
                     cards[i].name, cards[i].busy);
            gt_html_text(f, "p", "verdict close", line);
        }
    for (int i = 0; i < n; i++)
        if (cards[i].status < 0) {
            snprintf(line, sizeof line, "%s: OUTLIER: %s", cards[i].file, cards[i].outlier);
            gt_html_text(f, "p", "verdict no", line);
        }
}

static int print_html(FILE *f, const gt_fleet_card *cards, int n, bool *done)
{
    int outliers = 0, busy = gt_fleet_busy(cards, n);
    char line[200];

    for (int i = 0; i < n; i++)
        outliers += cards[i].outlier[0] != '\0';
    snprintf(line, sizeof line, "%d card%s, %d outlier%s, %d busy", n, n == 1 ? "" : "s",
             outliers, outliers == 1 ? "" : "s", busy);
    gt_html_begin(f, NULL, "fleet", line);
    html_tables(f, cards, n, done, "h2");
    return gt_html_end(f);
}

int gt_fleet_html_tables(FILE *f, const gt_fleet_card *cards, int n, const char *heading)
{
    bool *done = calloc((size_t)n + 1, 1);

    if (!done)
        return -1;
    html_tables(f, cards, n, done, heading);
    free(done);
    return ferror(f) ? -1 : 0;
}

int gt_fleet_print(FILE *f, gt_format fmt, const gt_fleet_card *cards, int n)
{
    bool *done = calloc((size_t)n + 1, 1);
    double med[GT_FLEET_FIGS];
    char cell[32];
    int outliers = 0, busy = gt_fleet_busy(cards, n);

    if (fmt == GT_FMT_JSON) {
        free(done);
        return print_json(f, cards, n);
    }
    if (!done)
        return -1;
    if (fmt == GT_FMT_HTML) {
        int rc = print_html(f, cards, n, done);
        free(done);
        return rc;
    }
    for (int i = 0; i < n; i++)
        outliers += cards[i].outlier[0] != '\0';
    fprintf(f, "fleet: %d card%s, %d outlier%s, %d busy\n", n, n == 1 ? "" : "s", outliers,
            outliers == 1 ? "" : "s", busy);
    for (int i = 0; i < n; i++) {
        const char *name = cards[i].status >= 0 && cards[i].status != GT_INSPECT_EXIT_BUSY
                           ? cards[i].name : NULL;
        int members = 0;
        if (done[i] || !name)
            continue;
        for (int k = i; k < n; k++)
            members += member(&cards[k], name);
        medians(cards, n, name, med);
        fprintf(f, "\n%s: %d card%s; each figure's change against the model's median\n", name,
                members, members == 1 ? "" : "s");
        fprintf(f, "  %-24s %3s %-6s", "host", "gpu", "status");
        for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++)
            fprintf(f, " %16s", cols[k].head);
        fprintf(f, "\n  %-24s %3s %-6s", "median", "", "");
        for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++) {
            if (isnan(med[k]))
                fprintf(f, " %16s", "-");
            else
                fprintf(f, " %16.5g", med[k] * cols[k].scale);
        }
        fputc('\n', f);
        for (int j = i; j < n; j++) {
            const gt_fleet_card *c = &cards[j];
            if (!member(c, name))
                continue;
            done[j] = true;
            fprintf(f, "  %-24.24s %3d %-6s", c->host, c->gpu,
                    c->status <= 4 ? status_word[c->status] : "?");
            for (int k = 0; k < GT_FLEET_FIGS && cols[k].id; k++)
                fprintf(f, " %16s", fig_cell(c, k, med[k], cell, sizeof cell));
            fputc('\n', f);
            if (c->outlier[0])
                fprintf(f, "  %-24s OUTLIER: %s\n", "", c->outlier);
        }
    }
    if (busy)
        fprintf(f, "\nbusy, not judged (another program's work on the GPU; run again when it "
                "is quiet, or with --wait-quiet):\n");
    for (int i = 0; i < n; i++)
        if (cards[i].status == GT_INSPECT_EXIT_BUSY)
            fprintf(f, "  %-24.24s %3d %s: %s\n", cards[i].host, cards[i].gpu, cards[i].name,
                    cards[i].busy);
    for (int i = 0; i < n; i++)
        if (cards[i].status < 0)
            fprintf(f, "\n%s: OUTLIER: %s\n", cards[i].file, cards[i].outlier);
    free(done);
    return ferror(f) ? -1 : 0;
}
