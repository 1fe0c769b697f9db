/* card.h - the inspection card (gputui --inspect): rows of a figure, what
 * was expected of it, a verdict (pass, warn, fail, cannot tell) and the
 * reason, grouped as PCIe, NUMA, Memory, Clocks and power, Peers and
 * Software. The card is built from facts (what was measured, and what the
 * driver said before, during and after: health.h) and thresholds, which
 * are data (share/gputui/inspect.json: each with its reason and source).
 * Building it is pure: the runner (inspect_run.c) gathers the facts, a
 * test hands in faults. */
#ifndef GPUTUI_CARD_H
#define GPUTUI_CARD_H

#include <stdbool.h>
#include <stdio.h>

#include "gputui/base/common.h"
#include "gputui/device/devprops.h"
#include "gputui/device/health.h"

/* busy: the figure was measured beside another program's work, so it says
 * nothing of the hardware and is not judged. */
typedef enum { GT_IV_PASS, GT_IV_WARN, GT_IV_FAIL, GT_IV_CANNOT, GT_IV_BUSY } gt_iverdict;

/* The batch exit status of an inspection (documented in the man page): a
 * failure outranks a busy row, which outranks a warning. */
enum {
    GT_INSPECT_EXIT_PASS = 0,     /* every row passes (or cannot tell) */
    GT_INSPECT_EXIT_NORUN = 1,    /* the inspection could not run */
    GT_INSPECT_EXIT_WARN = 2,     /* a warning, no failure */
    GT_INSPECT_EXIT_FAIL = 3,     /* a failure */
    GT_INSPECT_EXIT_BUSY = 4      /* no failure, but a figure was taken beside another
                                   * program's work: run again when the GPU is quiet */
};

/* A measured step with more than this share of its samples disturbed has
 * too few clean ones to judge: its row says busy. Below it, its figure is
 * the clean samples' (gt_series_judged, run.h), and the row says how many
 * were left out. */
#define GT_INSPECT_BUSY_SHARE 0.5

/* One threshold: the figure's ratio to its basis ("ceiling", "reference",
 * "max") or the figure itself ("value") against warn/fail bounds (NAN:
 * none). */
typedef struct gt_threshold {
    char id[32];
    char of[16];
    double warn_below, fail_below, warn_above, fail_above;
    char reason[200];
    char source[160];
} gt_threshold;

#define GT_THRESHOLDS_MAX 48
typedef struct gt_thresholds {
    int n;
    gt_threshold t[GT_THRESHOLDS_MAX];
    char path[512];
} gt_thresholds;

/* Loads thresholds from a JSON file; -1 with err naming the file, the
 * entry and what is wrong. */
int gt_thresholds_load(gt_thresholds *th, const char *path, gt_err *err);
/* Parses the same from text (tests); name is used in messages. */
int gt_thresholds_parse(gt_thresholds *th, const char *text, const char *name, gt_err *err);
const gt_threshold *gt_threshold_get(const gt_thresholds *th, const char *id);
/* The threshold of a copy over the host link whose key is link (the facts'
 * host_link): "ID@LINK" where the file has one, else ID, which holds for
 * PCIe; NULL for an NVLink-C2C copy with no bound of its own. */
const gt_threshold *gt_threshold_for_link(const gt_thresholds *th, const char *id,
                                          const char *link);

#define GT_PEERS_MAX 28
typedef struct gt_peer_fact {
    int a, b;               /* ordinals: a copies to b */
    double bw;              /* bytes/s p50; NAN not measured */
    double ceiling;         /* bytes/s of the link between them; NAN unknown */
    char link[40];          /* "NVLink x18", "PCIe" */
    char note[120];         /* why it was not measured, "" */
    double busy;            /* share of its samples disturbed, 0 to 1 */
} gt_peer_fact;

/* What the runner measured and read. Figures are NAN (and counts -1)
 * where they were not measured; the reference figures come from the
 * bundled recording of the same model, NAN where there is none. */
typedef struct gt_inspect_facts {
    gt_health before, during, after;    /* during: merged over the load */
    bool during_known;
    double h2d, d2h, bidir;             /* bytes/s, p50; bidir: both directions together */
    double pcie_ceiling;                /* bytes/s per direction after encoding and packets */
    char pcie_label[64];                /* "PCIe Gen5 x16", "NVLink-C2C" */
    char host_link[16];                 /* which thresholds judge the copies: "gen3" ...
                                         * "gen6", "c2c", "integrated"; "" unknown */
    double h2d_ref, d2h_ref, bidir_ref;
    double d2d, d2d_peak, d2d_ref;      /* bytes/s; d2d counts each byte once, so
                                         * d2d_peak is half the memory's peak */
    /* A copy's first look, where it would have warned or failed and was
     * measured again (the figure above is the second); NAN: once. */
    double h2d_first, d2h_first, bidir_first, d2d_first;
    double host_lat, host_lat_ref;      /* seconds, one dependent load of mapped host memory */
    int64_t pattern_errors;             /* copies that failed their check; -1: not run */
    int pattern_copies;                 /* device copies checked word by word */
    double pattern_bytes;               /* bytes each */
    int npeers;
    gt_peer_fact peer[GT_PEERS_MAX];
    int gpus;                           /* GPUs on the machine */
    int others;                         /* other processes on the GPU; -1 unknown */
    char others_text[200];
    int cuda_driver, cuda_runtime;      /* 13000 ...; 0 unknown */
    char ref_name[64];                  /* the reference recording, "" none */
    /* Each measured step's share of samples marked disturbed, 0 to 1
     * (GT_INSPECT_BUSY_SHARE says what follows). */
    double h2d_busy, d2h_busy, bidir_busy, d2d_busy, d2d_sm_busy, host_lat_busy;
    char neighbour[200];                /* the other programs a disturbed step saw, and
                                         * what they did: "pid 4242 nvbandwidth: moving
                                         * 54.1 GB/s on the link"; "" none */
    char counters[64];                  /* the counters that saw it, "" none */
} gt_inspect_facts;

#define GT_INSPECT_ROWS 40
typedef struct gt_inspect_row {
    const char *section;
    char id[32];            /* JSON, CSV and Prometheus key; the threshold's id */
    char name[48];
    char figure[64];        /* as shown */
    double value;           /* the number behind it (SI units); NAN none */
    const char *unit;       /* Prometheus unit: "bytes_per_second", "seconds", ... or "" */
    char expect[120];
    gt_iverdict verdict;
    char reason[240];
    int peer;               /* peer.bw: the other GPU's ordinal; else -1 */
} gt_inspect_row;

typedef struct gt_inspect_card {
    char device[64], uuid[48], host[64];
    int ordinal;
    double wall_s;
    int nrows;
    gt_inspect_row row[GT_INSPECT_ROWS];
} gt_inspect_card;

void gt_inspect_facts_init(gt_inspect_facts *f);
/* The facts' host_link for device p: the key of the thresholds that judge
 * its copies ("pcie.h2d@gen3" before "pcie.h2d"). */
void gt_inspect_host_link(const gt_devprops *p, char *key, size_t n);
/* Fills the rows of c from f and th (c's device, uuid, host, ordinal and
 * wall_s are the caller's). */
void gt_inspect_build(gt_inspect_card *c, const gt_inspect_facts *f, const gt_thresholds *th);
/* The last part of gt_inspect_build (card_busy.c): the row of other
 * programs on the GPU, and every row whose measurement they disturbed
 * made busy. */
void gt_inspect_neighbours(gt_inspect_card *c, const gt_inspect_facts *f);
/* The exit status the rows call for. */
int gt_inspect_status(const gt_inspect_card *c);
const char *gt_iverdict_name(gt_iverdict v);
/* As the card prints it: pass, WARN, FAIL, cannot tell, BUSY. */
const char *gt_iverdict_word(gt_iverdict v);

/* Whether a row says busy (the card then exits GT_INSPECT_EXIT_BUSY
 * unless a row failed). */
bool gt_inspect_busy(const gt_inspect_card *c);

/* Writers: text (a table), json, csv, prometheus (the text exposition
 * format, for node_exporter's textfile collector). 0, or -1 on a write
 * error. */
int gt_inspect_print_text(FILE *f, const gt_inspect_card *c);
int gt_inspect_print_json(FILE *f, const gt_inspect_card *c);
int gt_inspect_print_csv(FILE *f, const gt_inspect_card *c);
/* One self-contained HTML page (report/html.h), each verdict in its colour. */
int gt_inspect_print_html(FILE *f, const gt_inspect_card *c);
/* Its tables and verdict line, for a larger page: each section under a
 * heading of this tag ("h2", "h3"). */
void gt_inspect_html_rows(FILE *f, const gt_inspect_card *c, const char *heading);
int gt_inspect_print_prometheus(FILE *f, const gt_inspect_card *c);
/* A Prometheus label value: backslash, double quote and line feed escaped. */
void gt_prom_label(FILE *f, const char *s);
/* Several cards (a node's, at most GT_MAX_DEVICES) in one exposition:
 * each family once, with every card's samples told apart by their labels. */
int gt_inspect_print_prometheus_cards(FILE *f, const gt_inspect_card *const *cards, int n);

#endif
