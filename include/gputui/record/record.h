/* record.h - recordings (.gtr): versioned JSON Lines written and read with
 * jansson.
 *
 * Format 1.0, one JSON object per line, each with a "type":
 *   header  (first line) format [major, minor], tool, version, created
 *           (UTC, ISO 8601), created_last (optional: a recording merged
 *           from parts, scripts/merge-recordings.py, the newest part's
 *           created), device {the gt_dp_table keys; null = N/A},
 *           t0_unix_ns (since 1.3: the wall clock at t = 0, in ns since
 *           1970, so that recordings taken at once line up)
 *   config  gen, t, experiment, values {param: text as typed on the
 *           command line}, setup [{what, seconds}], verification
 *   sample  gen, t, series, verify ("full"|"sampled"|"failed"), sec, bytes
 *   error   gen, t, message
 *   timeline gen, t, streams, total [serial, streams], sum [h2d, kernel,
 *           d2h], ops [[run, stream, kind, chunk, start, end], ...]
 *           (since 1.1; one per configuration; timeline.h)
 *   inspection t, inspection {what --inspect measured and read: the
 *           facts its card is built from; inspect/inspect_json.c} (since
 *           1.4; the last one stands)
 *   end     t: the writer closed the recording cleanly (since 1.5; last; a
 *           follower, --replay FILE --follow, stops waiting there)
 * t is seconds since the recording started. Readers reject another major
 * version, ignore unknown fields and unknown line types, load every
 * complete line of a file whose last line was cut off, and name the line
 * of anything else that is wrong.
 *
 * A recording may be gzip-compressed: the writer compresses when the name
 * ends in ".gz"; the reader decides by the content, so either name reads
 * either kind. A compressed stream that ends early is a cut-off file (its
 * complete lines load, cut_note says so); corrupt compressed data is an
 * error naming the line it was found in. */
#ifndef GPUTUI_RECORD_H
#define GPUTUI_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gputui/base/common.h"
#include "gputui/device/devprops.h"
#include "gputui/measure/experiment.h"
#include "gputui/measure/timeline.h"
#include "gputui/measure/trace.h"

#define GT_REC_MAJOR 1
/* 1.2: "trace" lines (the CUDA calls of a configuration); 1.3: the
 * header's t0_unix_ns; 1.4: "inspection" lines; 1.5: the "end" line. */
#define GT_REC_MINOR 5

/* How a sample was verified, as the "verify" field spells it. */
extern const char *const gt_verify_names[3];

/* ---- writing (recorder.c) ---- */

typedef struct gt_recorder gt_recorder;

/* Whether --record PATH is written compressed (the name ends in ".gz"). */
bool gt_rec_is_gzip_name(const char *path);

/* Writes PATH.partial (created exclusively) and renames it PATH when it
 * closes cleanly. An existing PATH is refused (exit 64) unless force; so
 * is an existing PATH.partial (a crash's), which force removes. */
int gt_recorder_open(gt_recorder **out, const char *path, bool force, const gt_devprops *p,
                     gt_err *err);
/* A configuration, once its set-up is known (before its first sample);
 * counters: the link counters that watched for other programs' work
 * ("" none read), others: who else was on the GPU and what they were
 * seen doing ("" nobody); each kept only when given. */
void gt_recorder_config(gt_recorder *r, const gt_experiment *exp,
                        const int64_t *vals, uint32_t gen,
                        const gt_setup_info *info, const char *counters, const char *others);
void gt_recorder_sample(gt_recorder *r, const gt_sample *s);
/* Flushes lines written more than half a second ago: call it at least
 * once a second (the TUI's loop does), so a killed gputui loses at most a
 * second of samples, and a follower sees each sample within a second. A
 * configuration's line and its first sample are flushed at once. */
void gt_recorder_tick(gt_recorder *r);
/* Whether a write has failed (a full disk): true with a message for the
 * status line. */
bool gt_recorder_failed(const gt_recorder *r, char *msg, size_t len);
void gt_recorder_error(gt_recorder *r, uint32_t gen, const char *msg);
void gt_recorder_timeline(gt_recorder *r, const gt_timeline *tl);
/* The CUDA calls of configuration gen, once it has been torn down. */
void gt_recorder_trace(gt_recorder *r, uint32_t gen, const gt_trace *t);
/* An inspection: json is the text of a JSON object (inspect_json.h
 * writes it); the recording keeps it as it is. */
void gt_recorder_inspection(gt_recorder *r, const char *json);
/* Writes the "end" line, flushes, closes and renames PATH.partial to PATH (or removes it when
 * no configuration was recorded: no file, none replaced); -1 with a message
 * (the reason, and that the lines written are in PATH.partial) if
 * anything could not be written or renamed. */
int gt_recorder_close(gt_recorder *r, gt_err *err);

/* ---- reading (record.c) ---- */

/* What a reader keeps of any file, however large or hostile
 * (docs/recordings.md): a replay, a lesson or a report never holds more
 * of one recording than these. */
typedef struct gt_rec_limits {
    uint32_t per_series;    /* samples of one series of one configuration
                             * (every bundled recording's fit whole); past
                             * it they are counted, not kept */
    size_t samples;         /* bytes of samples, all configurations */
    size_t extras;          /* bytes of timelines, CUDA call traces and the
                             * inspection; past it they are not kept */
    size_t configs;         /* bytes of configurations and their index;
                             * past it the file is refused */
    uint32_t idle;          /* lines in a row that carry nothing (blank, or
                             * of a type this gputui ignores); past it the
                             * file is refused */
} gt_rec_limits;
extern const gt_rec_limits gt_rec_default_limits;
/* For the unit tests: the limits later readers begin with (NULL: the
 * defaults again). */
void gt_recording_test_limits(const gt_rec_limits *l);

typedef struct gt_rec_config {
    const gt_experiment *exp;
    int64_t vals[GT_MAX_PARAMS];
    uint32_t gen;
    const gt_setup_info *info;  /* never NULL (an empty one when none was recorded) */
    const char *error;      /* the recorded error, NULL if none */
    gt_timeline *tl;        /* recorded timeline, NULL if none */
    gt_trace *trace;        /* recorded CUDA calls, NULL if none (before 1.2) */
    gt_sample *s;           /* samples in recorded order */
    double *t;              /* their times */
    size_t n, cap;
    uint32_t kept[GT_MAX_SERIES];   /* samples kept of each series */
    uint64_t unkept;        /* samples read past a limit, not kept */
} gt_rec_config;

struct gt_rec_index;

typedef struct gt_recording {
    char path[512];
    int major, minor;
    char version[32];       /* gputui version that wrote it */
    char created[40];
    char created_last[40];  /* merged from parts: the newest part's; "" else */
    char when[96];          /* created, or "CREATED to CREATED_LAST": what a screen says */
    gt_devprops props;
    gt_rec_config *cfg;
    size_t ncfg, cfgcap;
    struct gt_rec_index *index; /* configurations by gen and by values */
    char *inspection;       /* the last "inspection" object as JSON text, NULL if none */
    size_t lines;           /* lines loaded */
    bool ended;             /* the "end" line was read: the writer closed it */
    uint32_t gen_offset;    /* added to every gen read: a follower's recording
                             * goes on after a writer that restarted (follow.c) */
    void *lock;             /* a recording that grows while it plays: a
                             * pthread_mutex_t its reader holds while it adds
                             * lines (follow.h, gt_rec_reader_share); NULL else */
    bool followed;          /* read while its writer writes (follow.h) */
    bool loading;           /* a whole file still being read behind the screen
                             * (gt_rec_reader_share): its last configuration may
                             * lack samples yet, and later ones are to come */
    size_t dropped;         /* cut-off lines at the end, not loaded */
    char cut_note[600];     /* "PATH:LINE: the compressed data ends early ...", or "" */
    gt_rec_limits limits;   /* what this reader keeps */
    size_t held_samples, held_extras, held_configs;    /* bytes, against the limits */
    uint64_t samples_read, samples_unkept;   /* every configuration's */
    size_t extras_unkept;   /* timelines and traces read and not kept */
    uint32_t idle;          /* lines in a row that carried nothing */
    struct {                /* the sample line read last and what it gave: the
                             * same line again is the same sample, taken at once */
        char line[256];
        size_t n;
        uint32_t gen_offset;
        gt_sample s;
        double t;
    } last;
} gt_recording;

/* The longest line a reader takes; a longer one stops it with
 * "PATH:LINE: line longer than 1 MiB" (the longest a writer makes, a
 * timeline of 1,536 operations, is 70 KiB; the bundled recordings' 15 KiB).
 * jansson's tree of a line takes up to 25 times the line. */
#define GT_REC_MAX_LINE (1 << 20)

/* Loads a file (record_file.c): a regular file only (a device, FIFO or
 * directory is refused by name), read as a stream, plain or gzip, holding
 * one line at a time besides what it has parsed. On failure everything is
 * freed and err says what and, for a bad line, "PATH:LINE: ...". */
int gt_recording_load(gt_recording *r, const char *path, gt_err *err);
/* The same a piece at a time, so that a viewer shows the configuration
 * it opens on while the rest is read (record_file.c):
 *   open: the file checked and opened, r begun (-1 with err);
 *   share: from now on the lines go in under a lock that r->lock names,
 *     and r->loading says whether more are to come: the replay back-end
 *     reads r from another thread (replay.h);
 *   step: reads on for about 'seconds' (0: to the end): 0 when there is
 *     more, 1 when the file is all read, -1 when it stopped on an error
 *     (gt_rec_reader_error says why; what was read before stays in r);
 *   until: reads on until r holds the configuration (exp, vals) and the
 *     one after it (its samples are all in), or to the end; step's value;
 *   start: open, until and share at once; on failure r and rd freed;
 *   progress: how much of the file is read, 0 to 1;
 *   moved: r was copied elsewhere: rd fills the copy;
 *   close: r stays (free it with gt_recording_free), and no longer grows.
 * Close it only once nothing reads r from another thread. */
typedef struct gt_rec_reader gt_rec_reader;
int gt_rec_reader_open(gt_rec_reader **out, gt_recording *r, const char *path, gt_err *err);
void gt_rec_reader_moved(gt_rec_reader *rd, gt_recording *r);
void gt_rec_reader_share(gt_rec_reader *rd);
int gt_rec_reader_step(gt_rec_reader *rd, double seconds);
int gt_rec_reader_until(gt_rec_reader *rd, const gt_experiment *exp, const int64_t *vals);
int gt_rec_reader_start(gt_rec_reader **out, gt_recording *r, const char *path,
                        const gt_experiment *exp, const int64_t *vals, gt_err *err);
const gt_err *gt_rec_reader_error(const gt_rec_reader *rd);
double gt_rec_reader_progress(const gt_rec_reader *rd);
void gt_rec_reader_close(gt_rec_reader *rd);
/* The same from memory (name is used in messages). */
int gt_recording_parse(gt_recording *r, const char *name, const char *buf,
                       size_t len, gt_err *err);
/* Line by line, as both of those read: begin, then every line (without
 * its newline; terminated false for a last line that had none) numbered
 * from 1: 0 to go on, 1 when a cut-off last line was dropped (stop), -1
 * with err set; then end with the number of lines read, which checks that
 * a recording was there: a configuration, or an inspection alone (ncfg
 * 0: nothing to replay but its card). On -1, call gt_recording_free. */
void gt_recording_begin(gt_recording *r, const char *name);
int gt_recording_line(gt_recording *r, const char *line, size_t n, bool terminated,
                      size_t lineno, gt_err *err);
int gt_recording_end(gt_recording *r, size_t lines_read, gt_err *err);
void gt_recording_free(gt_recording *r);
/* ---- what a loaded recording holds (record_query.c) ---- */

/* What a reader should be told about a file that loaded with losses (a
 * cut-off last line, a compressed stream that ends early), "" if none. */
const char *gt_recording_warning(const gt_recording *r, char *buf, size_t len);

/* All of a recorded configuration's samples as one run (r is initialised
 * here; free it with gt_run_free). -1 if out of memory for its timeline. */
int gt_rec_config_run(const gt_rec_config *c, struct gt_run *r);
/* The same with the first 'first' samples of each series alone, in
 * recorded order (a lesson judges a recording on what it needs). */
int gt_rec_config_run_first(const gt_rec_config *c, uint64_t first, struct gt_run *r);

/* A series c holds no sample of (gputui measured it only after the
 * recording was made) is marked in info as never produced, with why. */
void gt_rec_config_skip_unrecorded(const gt_rec_config *c, gt_setup_info *info);
/* Whether c is that configuration (values that do not apply aside; the
 * index of rec_index.c finds configurations by it). */
bool gt_rec_config_is(const gt_rec_config *c, const gt_experiment *exp, const int64_t *vals);
/* Index of the configuration with exactly these values, or -1: the first
 * such, the one a file still loading reaches first (a bundled recording
 * puts what a viewer opens on at its head, and holds an inspection's
 * configurations beside the sessions'); in a followed recording the last
 * (the writer came back to it). */
int gt_recording_find(const gt_recording *r, const gt_experiment *exp,
                      const int64_t *vals);
/* Whether r (NULL: none) is still being read and has not reached this
 * configuration yet: what needs it waits. */
bool gt_recording_unread(const gt_recording *r, const gt_experiment *exp, const int64_t *vals);
/* Where a replay of experiment exp stands on vals: that configuration if it
 * was recorded, else the experiment's first recorded one, else -1 (the
 * recording does not hold the experiment). */
int gt_recording_place(const gt_recording *r, const gt_experiment *exp, const int64_t *vals);
/* After parameter 'changed' was set in vals: the recorded configuration
 * with that value which shares the most other values (ties: the first
 * recorded), or -1 with the recorded values of that parameter in 'have'
 * ("4M, 64M, 256M"). */
int gt_recording_match(const gt_recording *r, const gt_experiment *exp,
                       const int64_t *vals, int changed, char *have,
                       size_t havelen);

#endif
