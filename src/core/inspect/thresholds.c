/* The inspection's thresholds, read from JSON (card.h):
 *   {"thresholds": {"ID": {"of": "ceiling"|"reference"|"max"|"value",
 *                          "warn_below": x, "fail_below": x,
 *                          "warn_above": x, "fail_above": x,
 *                          "reason": "...", "source": "..."}, ...}}
 * Each entry needs "of", a reason, a source and at least one bound. A copy
 * over the host link is judged by the entry for its link (ID@gen3, ID@c2c). */
#define _POSIX_C_SOURCE 200809L
#include "gputui/inspect/card.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

static const char *const bases[] = {"ceiling", "reference", "max", "value"};
static const char *const bounds[] = {"warn_below", "fail_below", "warn_above", "fail_above"};

static int entry(gt_threshold *t, const char *id, json_t *o, const char *name, gt_err *err)
{
    const char *of = json_string_value(json_object_get(o, "of"));
    const char *reason = json_string_value(json_object_get(o, "reason"));
    const char *source = json_string_value(json_object_get(o, "source"));
    double *b[] = {&t->warn_below, &t->fail_below, &t->warn_above, &t->fail_above};
    const char *key;
    json_t *v;
    bool any = false, known = false;

    if (!json_is_object(o)) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: threshold \"%s\" is not an object", name, id);
        return -1;
    }
    if (strlen(id) >= sizeof t->id) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: threshold id \"%s\" is too long (at most %zu "
                   "characters)", name, id, sizeof t->id - 1);
        return -1;
    }
    for (size_t i = 0; of && i < sizeof bases / sizeof *bases; i++)
        known |= !strcmp(of, bases[i]);
    if (!known) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: threshold \"%s\": \"of\" must be one of ceiling, "
                   "reference, max, value", name, id);
        return -1;
    }
    if (!reason || !*reason || !source || !*source) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: threshold \"%s\" needs a \"reason\" and a "
                   "\"source\"", name, id);
        return -1;
    }
    json_object_foreach(o, key, v) {
        bool ok = !strcmp(key, "of") || !strcmp(key, "reason") || !strcmp(key, "source");
        for (size_t i = 0; i < 4; i++)
            ok |= !strcmp(key, bounds[i]);
        if (!ok) {
            gt_err_set(err, GT_EXIT_FAIL, "%s: threshold \"%s\": unknown key \"%s\" (allowed: "
                       "of, warn_below, fail_below, warn_above, fail_above, reason, source)",
                       name, id, key);
            return -1;
        }
    }
    snprintf(t->id, sizeof t->id, "%s", id);
    snprintf(t->of, sizeof t->of, "%s", of);
    snprintf(t->reason, sizeof t->reason, "%s", reason);
    snprintf(t->source, sizeof t->source, "%s", source);
    for (size_t i = 0; i < 4; i++) {
        v = json_object_get(o, bounds[i]);
        *b[i] = NAN;
        if (!v)
            continue;
        if (!json_is_number(v)) {
            gt_err_set(err, GT_EXIT_FAIL, "%s: threshold \"%s\": \"%s\" must be a number", name,
                       id, bounds[i]);
            return -1;
        }
        *b[i] = json_number_value(v);
        any = true;
    }
    if (!any) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: threshold \"%s\" has no bound (warn_below, "
                   "fail_below, warn_above or fail_above)", name, id);
        return -1;
    }
    return 0;
}

static int from_json(gt_thresholds *th, json_t *root, const char *name, gt_err *err)
{
    json_t *all = json_object_get(root, "thresholds"), *o;
    const char *id;

    if (!json_is_object(all)) {
        gt_err_set(err, GT_EXIT_FAIL, "%s: no \"thresholds\" object", name);
        return -1;
    }
    json_object_foreach(all, id, o) {
        if (th->n == GT_THRESHOLDS_MAX) {
            gt_err_set(err, GT_EXIT_FAIL, "%s: more than %d thresholds", name, GT_THRESHOLDS_MAX);
            return -1;
        }
        if (entry(&th->t[th->n], id, o, name, err))
            return -1;
        th->n++;
    }
    return 0;
}

/* root (NULL: je says why it did not parse) into th; root is freed. */
static int from_root(gt_thresholds *th, json_t *root, const json_error_t *je, const char *name,
                     gt_err *err)
{
    int rc;

    if (!root) {
        gt_err_set(err, GT_EXIT_FAIL, "%s:%d: %s", name, je->line, je->text);
        return -1;
    }
    rc = from_json(th, root, name, err);
    json_decref(root);
    return rc;
}

int gt_thresholds_parse(gt_thresholds *th, const char *text, const char *name, gt_err *err)
{
    json_error_t je;

    memset(th, 0, sizeof *th);
    snprintf(th->path, sizeof th->path, "%s", name);
    return from_root(th, json_loads(text, 0, &je), &je, name, err);
}

int gt_thresholds_load(gt_thresholds *th, const char *path, gt_err *err)
{
    json_error_t je;

    memset(th, 0, sizeof *th);
    snprintf(th->path, sizeof th->path, "%s", path);
    return from_root(th, json_load_file(path, 0, &je), &je, path, err);
}

const gt_threshold *gt_threshold_get(const gt_thresholds *th, const char *id)
{
    for (int i = 0; th && i < th->n; i++)
        if (!strcmp(th->t[i].id, id))
            return &th->t[i];
    return NULL;
}

/* The threshold of a copy over the host link: "ID@LINK" (pcie.h2d@gen3,
 * pcie.h2d@c2c) where the file has one, else ID, which holds for PCIe
 * (Gen3 to Gen6 share their 128b/130b encoding and packet overheads). An
 * NVLink-C2C figure with none of its own is not judged against PCIe's. */
const gt_threshold *gt_threshold_for_link(const gt_thresholds *th, const char *id,
                                          const char *link)
{
    char key[48];
    const gt_threshold *t;

    snprintf(key, sizeof key, "%s@%s", id, link);
    if (link[0] && (t = gt_threshold_get(th, key)))
        return t;
    return strcmp(link, "c2c") ? gt_threshold_get(th, id) : NULL;
}
