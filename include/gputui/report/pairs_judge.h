/* The peer matrix of --pairs all judged (pairs_judge.c): each measured
 * pair against the median of the pairs of its link type on this machine
 * (topology.h's short form: "NV18", "PXB", "SYS"), and each pair that the
 * topology joins by NVLink but that has no peer access. A node's odd link
 * is a warning that names the pair, not a number in a table. */
#ifndef GPUTUI_REPORT_PAIRS_JUDGE_H
#define GPUTUI_REPORT_PAIRS_JUDGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gputui/device/topology.h"
#include "gputui/input/cli.h"

/* A pair's bandwidth below this share of its link type's median (or its
 * latency above the median by the inverse) is a warning. Healthy pairs of
 * one link type agree within about 1% (two H200s, two H100s and four H200s
 * joined by NVLink beside nvbandwidth: docs/measured.md), so a tenth is an
 * odd link and not noise. */
#define GT_PAIRS_WARN_SHARE 0.9
/* Fewer measured pairs of a link type than this have no median to speak
 * of: their pairs are not judged against it. */
#define GT_PAIRS_MIN_GROUP 3

typedef enum {
    GT_PV_PASS,     /* within the share of its link's median */
    GT_PV_ALONE,    /* too few pairs of its link to compare */
    GT_PV_WARN,     /* slower than its link's median by more than the share */
    GT_PV_FAIL      /* NVLink by the topology, but no peer access */
} gt_pair_level;

typedef struct gt_pair_judged {
    int from, to;               /* row: the GPU that copies or reads */
    char link[16];              /* "NV18", "PXB", ... */
    double figure, median;      /* bytes/s or seconds; NAN where not measured */
    int group;                  /* measured pairs of its link type */
    gt_pair_level level;
} gt_pair_judged;

typedef struct gt_pairs_verdict {
    int n;
    gt_pair_judged p[GT_MAX_DEVICES * (GT_MAX_DEVICES - 1)];
    gt_pair_level worst;        /* PASS where every pair passed or stood alone */
    int warn, fail;
} gt_pairs_verdict;

/* m[i][j]: the figure of GPU i with peer j (NAN: not measured), over the
 * first n GPUs of t. */
void gt_pairs_judge(const gt_topo *t, int n, const double m[GT_MAX_DEVICES][GT_MAX_DEVICES],
                    bool latency, gt_pairs_verdict *v);
/* One pair in words: "GPU 3 -> GPU 5: 180.2 GB/s, 54% below the median
 * of its 55 NV18 pairs (392.8 GB/s)". */
char *gt_pair_judged_text(const gt_pair_judged *p, bool latency, char *buf, size_t len);
/* "pass", "alone", "warn" or "fail". */
const char *gt_pair_level_name(gt_pair_level l);

/* A matrix measured (pairs.c, or an inspection's copies to the peers). */
typedef struct gt_pairs_matrix {
    int n;                      /* GPUs */
    double m[GT_MAX_DEVICES][GT_MAX_DEVICES];  /* bytes/s or seconds; NAN not measured */
    bool latency;
    int64_t samples;            /* per pair */
    char what[32];              /* "peer" */
    char desc[512];             /* the configuration */
    char name[128];             /* the GPUs' names */
} gt_pairs_matrix;

/* The matrix, then its pairs that warn or fail and the verdict in one
 * line (text); with the verdict of every pair (JSON, CSV). */
void gt_pairs_print(FILE *f, gt_format fmt, const gt_pairs_matrix *pm, const gt_pairs_verdict *v);
/* The JSON of gt_pairs_print, to be put in a larger document. */
json_t *gt_pairs_json(const gt_pairs_matrix *pm, const gt_pairs_verdict *v);

#endif
