/* The inspection card written out (card.h): a text table, JSON, CSV, and
 * the Prometheus text exposition format for node_exporter's textfile
 * collector: one gauge per numeric row, gputui_inspect_<id>_<unit>, and
 * gputui_inspect_verdict{check="<id>"} (0 pass, 1 warn, 2 fail, 3 cannot
 * tell, 4 busy), gputui_inspect_busy (1 when another program's work kept
 * a figure from being judged: an alert can tell a busy node from a
 * failing one) and gputui_inspect_status, each labelled with the GPU's
 * index, UUID, name and host. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/inspect/card.h"
#include "gputui/base/out.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "gputui/report/html.h"

int gt_inspect_print_text(FILE *f, const gt_inspect_card *c)
{
    const char *section = NULL;
    int counts[GT_IV_BUSY + 1] = {0};
    int status = gt_inspect_status(c);

    fprintf(f, "gputui inspection of GPU %d: %s (%s) on %s, %.1f s\n", c->ordinal, c->device,
            c->uuid, c->host, c->wall_s);
    for (int i = 0; i < c->nrows; i++) {
        const gt_inspect_row *r = &c->row[i];
        if (r->section != section) {
            section = r->section;
            fprintf(f, "\n%s\n", section);
        }
        counts[r->verdict]++;
        fprintf(f, "  %-28s %-32s %-11s %s\n", r->name, r->figure, gt_iverdict_word(r->verdict),
                r->reason);
        if (r->expect[0])
            fprintf(f, "  %-28s expected %s\n", "", r->expect);
    }
    fprintf(f, "\n%d pass, %d warn, %d fail, %d cannot tell, %d busy: %s\n",
            counts[GT_IV_PASS], counts[GT_IV_WARN], counts[GT_IV_FAIL], counts[GT_IV_CANNOT],
            counts[GT_IV_BUSY], status == GT_INSPECT_EXIT_FAIL ? "FAIL"
            : status == GT_INSPECT_EXIT_BUSY ? "BUSY (another program's work; not judged)"
            : status == GT_INSPECT_EXIT_WARN ? "WARN" : "pass");
    return ferror(f) ? -1 : 0;
}

int gt_inspect_print_json(FILE *f, const gt_inspect_card *c)
{
    json_t *root = json_object(), *rows = json_array();
    int rc;

    json_object_set_new(root, "inspection", json_integer(1));
    json_object_set_new(root, "host", json_string(c->host));
    json_object_set_new(root, "gpu", json_integer(c->ordinal));
    json_object_set_new(root, "name", json_string(c->device));
    json_object_set_new(root, "uuid", json_string(c->uuid));
    json_object_set_new(root, "wall_s", json_real(c->wall_s));
    json_object_set_new(root, "status", json_integer(gt_inspect_status(c)));
    json_object_set_new(root, "busy", json_boolean(gt_inspect_busy(c)));
    for (int i = 0; i < c->nrows; i++) {
        const gt_inspect_row *r = &c->row[i];
        json_t *o = json_object();
        json_object_set_new(o, "section", json_string(r->section));
        json_object_set_new(o, "id", json_string(r->id));
        json_object_set_new(o, "name", json_string(r->name));
        json_object_set_new(o, "figure", json_string(r->figure));
        json_object_set_new(o, "value", isfinite(r->value) ? json_real(r->value) : json_null());
        json_object_set_new(o, "unit", json_string(r->unit));
        json_object_set_new(o, "expect", json_string(r->expect));
        json_object_set_new(o, "verdict", json_string(gt_iverdict_name(r->verdict)));
        json_object_set_new(o, "reason", json_string(r->reason));
        json_array_append_new(rows, o);
    }
    json_object_set_new(root, "rows", rows);
    rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', f);
    json_decref(root);
    return rc || ferror(f) ? -1 : 0;
}

/* One page: the rows by section, each verdict in its colour (html.h). */
void gt_inspect_html_rows(FILE *f, const gt_inspect_card *c, const char *heading)
{
    const char *section = NULL;
    int counts[GT_IV_BUSY + 1] = {0}, status = gt_inspect_status(c);
    char line[200];

    for (int i = 0; i < c->nrows; i++) {
        const gt_inspect_row *r = &c->row[i];
        if (r->section != section) {
            if (section)
                fputs("</table>\n", f);
            section = r->section;
            gt_html_text(f, heading, NULL, section);
            fputs("<table class=\"card\">\n", f);
        }
        counts[r->verdict]++;
        fprintf(f, "<tr data-id=\"%s\"><th>", r->id);
        gt_html_text(f, "span", NULL, r->name);
        fputs("</th><td>", f);
        gt_html_text(f, "span", "figure", r->figure);
        fprintf(f, "</td><td class=\"v-%s\">", gt_iverdict_name(r->verdict));
        gt_html_text(f, "span", "verdict", gt_iverdict_word(r->verdict));
        fputs("</td><td>", f);
        gt_html_text(f, "span", NULL, r->reason);
        if (r->expect[0]) {
            snprintf(line, sizeof line, "expected %s", r->expect);
            gt_html_text(f, "div", "muted", line);
        }
        fputs("</td></tr>\n", f);
    }
    if (section)
        fputs("</table>\n", f);
    snprintf(line, sizeof line, "%d pass, %d warn, %d fail, %d cannot tell, %d busy: %s",
             counts[GT_IV_PASS], counts[GT_IV_WARN], counts[GT_IV_FAIL], counts[GT_IV_CANNOT],
             counts[GT_IV_BUSY], status == GT_INSPECT_EXIT_FAIL ? "FAIL"
             : status == GT_INSPECT_EXIT_BUSY ? "BUSY (another program's work; not judged)"
             : status == GT_INSPECT_EXIT_WARN ? "WARN" : "pass");
    gt_html_text(f, "p", status == GT_INSPECT_EXIT_FAIL ? "verdict no" :
                 status == GT_INSPECT_EXIT_PASS ? "verdict yes" : "verdict close", line);
}

int gt_inspect_print_html(FILE *f, const gt_inspect_card *c)
{
    char title[160], sub[200];

    snprintf(title, sizeof title, "inspection of GPU %d: %s", c->ordinal, c->device);
    snprintf(sub, sizeof sub, "on %s, %s, in %.1f s", c->host, c->uuid, c->wall_s);
    gt_html_begin(f, NULL, title, sub);
    gt_inspect_html_rows(f, c, "h2");
    return gt_html_end(f);
}

/* A quoted cell of text (out.h guards it), then its separator. */
static void csv_field(FILE *f, const char *s, bool last)
{
    gt_csv_cell(f, s, true);
    fputc(last ? '\n' : ',', f);
}

int gt_inspect_print_csv(FILE *f, const gt_inspect_card *c)
{
    char v[40];

    fprintf(f, "host,gpu,uuid,section,id,name,figure,value,unit,expect,verdict,reason\n");
    for (int i = 0; i < c->nrows; i++) {
        const gt_inspect_row *r = &c->row[i];
        csv_field(f, c->host, false);
        fprintf(f, "%d,", c->ordinal);
        csv_field(f, c->uuid, false);
        csv_field(f, r->section, false);
        csv_field(f, r->id, false);
        csv_field(f, r->name, false);
        csv_field(f, r->figure, false);
        if (isfinite(r->value))
            snprintf(v, sizeof v, "%.9g", r->value);
        else
            v[0] = '\0';
        fprintf(f, "%s,", v);
        csv_field(f, r->unit, false);
        csv_field(f, r->expect, false);
        csv_field(f, gt_iverdict_name(r->verdict), false);
        csv_field(f, r->reason, true);
    }
    return ferror(f) ? -1 : 0;
}

/* A label value: backslash, double quote and line feed escaped. */
void gt_prom_label(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\' || *s == '"')
            fputc('\\', f);
        if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
}

/* A metric name from a row id: [a-z0-9_] only. */
static void metric(char *out, size_t len, const char *id, const char *unit)
{
    size_t n = (size_t)snprintf(out, len, "gputui_inspect_");

    for (const char *s = id; *s && n + 1 < len; s++)
        out[n++] = isalnum((unsigned char)*s) ? (char)tolower((unsigned char)*s) : '_';
    out[n] = '\0';
    if (unit && *unit && strcmp(unit, "count") && strcmp(unit, "ratio"))
        snprintf(out + n, len - n, "_%s", unit);
    else if (unit && !strcmp(unit, "ratio"))
        snprintf(out + n, len - n, "_ratio");
}

static void labels(FILE *f, const gt_inspect_card *c)
{
    fprintf(f, "gpu=\"%d\",uuid=\"", c->ordinal);
    gt_prom_label(f, c->uuid);
    fputs("\",name=\"", f);
    gt_prom_label(f, c->device);
    fputs("\",host=\"", f);
    gt_prom_label(f, c->host);
    fputc('"', f);
}

/* Rows of one id that repeat (peer.bw: one per pair) are told apart by
 * their name. */
static void pair(FILE *f, const gt_inspect_row *r)
{
    if (strcmp(r->id, "peer.bw"))
        return;
    fputs(",pair=\"", f);
    gt_prom_label(f, r->name);
    fputc('"', f);
}

int gt_inspect_print_prometheus_cards(FILE *f, const gt_inspect_card *const *cards, int n)
{
    char name[96];
    bool done[GT_MAX_DEVICES][GT_INSPECT_ROWS];

    if (n < 1 || n > GT_MAX_DEVICES)
        return -1;
    memset(done, 0, sizeof done);
    /* A family a row id, its samples those of every card (rows that share
     * an id, peer.bw, one per pair: one family too). */
    for (int a = 0; a < n; a++)
        for (int i = 0; i < cards[a]->nrows; i++) {
            const gt_inspect_row *r = &cards[a]->row[i];
            if (done[a][i] || !isfinite(r->value))
                continue;
            metric(name, sizeof name, r->id, r->unit);
            fprintf(f, "# HELP %s gputui --inspect: %s\n# TYPE %s gauge\n", name, r->name, name);
            for (int b = a; b < n; b++)
                for (int k = b == a ? i : 0; k < cards[b]->nrows; k++) {
                    const gt_inspect_row *q = &cards[b]->row[k];
                    if (done[b][k] || strcmp(q->id, r->id) || !isfinite(q->value))
                        continue;
                    done[b][k] = true;
                    fprintf(f, "%s{", name);
                    labels(f, cards[b]);
                    pair(f, q);
                    fprintf(f, "} %.9g\n", q->value);
                }
        }
    fputs("# HELP gputui_inspect_verdict gputui --inspect verdict of a check: 0 pass, 1 warn, "
          "2 fail, 3 cannot tell, 4 busy\n# TYPE gputui_inspect_verdict gauge\n", f);
    for (int a = 0; a < n; a++)
        for (int i = 0; i < cards[a]->nrows; i++) {
            fputs("gputui_inspect_verdict{", f);
            labels(f, cards[a]);
            fputs(",check=\"", f);
            gt_prom_label(f, cards[a]->row[i].id);
            fputc('"', f);
            pair(f, &cards[a]->row[i]);
            fprintf(f, "} %d\n", (int)cards[a]->row[i].verdict);
        }
    fputs("# HELP gputui_inspect_busy gputui --inspect: 1 when another program's work on the "
          "GPU kept a figure from being judged\n# TYPE gputui_inspect_busy gauge\n", f);
    for (int a = 0; a < n; a++) {
        fputs("gputui_inspect_busy{", f);
        labels(f, cards[a]);
        fprintf(f, "} %d\n", gt_inspect_busy(cards[a]));
    }
    fputs("# HELP gputui_inspect_status gputui --inspect exit status: 0 pass, 2 warn, 3 fail, "
          "4 busy\n# TYPE gputui_inspect_status gauge\n", f);
    for (int a = 0; a < n; a++) {
        fputs("gputui_inspect_status{", f);
        labels(f, cards[a]);
        fprintf(f, "} %d\n", gt_inspect_status(cards[a]));
    }
    fputs("# HELP gputui_inspect_seconds gputui --inspect wall time\n"
          "# TYPE gputui_inspect_seconds gauge\n", f);
    for (int a = 0; a < n; a++) {
        fputs("gputui_inspect_seconds{", f);
        labels(f, cards[a]);
        fprintf(f, "} %.3f\n", cards[a]->wall_s);
    }
    return ferror(f) ? -1 : 0;
}

int gt_inspect_print_prometheus(FILE *f, const gt_inspect_card *c)
{
    return gt_inspect_print_prometheus_cards(f, &c, 1);
}
