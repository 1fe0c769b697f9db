/* Recordings: the writer of the .gtr JSON Lines format (record.h), plain
 * or through zlib. It writes PATH.partial, created exclusively, and
 * renames it PATH only when the recording closes cleanly: a crash leaves
 * a readable PATH.partial, a failed write never leaves a PATH that looks
 * complete. Flushed at a configuration's first sample and at least twice a
 * second, so that a follower (follow.c) sees each line within a second; a
 * clean close writes the "end" line last.
 * The reader is record.c. */
#define _POSIX_C_SOURCE 200809L
#include "gputui/record/record.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "gputui/base/files.h"
#include "gputui/base/port.h"

/* A name ending in ".gz" is written through zlib, anything else plainly. */
struct gt_recorder {
    FILE *f;
    gzFile gz;
    bool failed;            /* a write went wrong: close() says so */
    bool force;             /* PATH may be replaced */
    int werrno;             /* the first failed write's errno, 0 if unknown */
    bool dirty;             /* lines written since the last flush */
    bool first_sample;      /* a configuration was written: flush its first sample */
    int nconfig;            /* configurations and inspections written */
    double t0, last_flush;
    char path[512], partial[520];
};

bool gt_rec_is_gzip_name(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".gz");
}

static void failed(gt_recorder *r)
{
    if (!r->failed)
        r->werrno = errno;
    r->failed = true;
}

static void flush(gt_recorder *r)
{
    if (r->gz ? gzflush(r->gz, Z_SYNC_FLUSH) != Z_OK : fflush(r->f) != 0)
        failed(r);
    r->dirty = false;
    r->last_flush = gt_now();
}

bool gt_recorder_failed(const gt_recorder *r, char *msg, size_t len)
{
    if (!r || !r->failed)
        return false;
    snprintf(msg, len, "--record %s: a write failed (%s); the recording is incomplete: what "
             "was written is in %s", r->path, r->werrno ? strerror(r->werrno) : "write error",
             r->partial);
    return true;
}

void gt_recorder_tick(gt_recorder *r)
{
    if (r && r->dirty && gt_now() - r->last_flush >= 0.5)
        flush(r);
}

/* Nine significant digits keep a float event time exactly and a
 * CLOCK_MONOTONIC figure to the nanosecond below a second, and compress
 * far better than the seventeen that round-trip a double. */
#define DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9))

static void put_line(gt_recorder *r, json_t *o)
{
    char *s = json_dumps(o, DUMP_FLAGS);
    double now = gt_now();

    if (s) {
        size_t n = strlen(s);
        s[n] = '\n';           /* json_dumps' terminator becomes the newline */
        if (r->gz ? gzwrite(r->gz, s, (unsigned)(n + 1)) != (int)(n + 1)
                  : fwrite(s, 1, n + 1, r->f) != n + 1)
            failed(r);
        free(s);
    }
    json_decref(o);
    r->dirty = true;
    /* Flush now and then, so a run cut off by a signal keeps most lines. */
    if (now - r->last_flush > 0.5)
        flush(r);
}

/* PATH.partial, created exclusively (no symbolic link followed), as a
 * plain or zlib stream; -1 with err set. */
static int create(gt_recorder *r, const char *path, gt_err *err)
{
    struct stat st;
    int fd;

    if (!r->force && lstat(path, &st) == 0) {
        gt_err_set(err, GT_EXIT_USAGE, "--record %s: the file exists; give --force to replace "
                   "it, or another name", path);
        return -1;
    }
    if (snprintf(r->partial, sizeof r->partial, "%s.partial", path) >= (int)sizeof r->partial) {
        gt_err_set(err, GT_EXIT_USAGE, "--record %s: the name is too long", path);
        return -1;
    }
    if (r->force)
        unlink(r->partial);
    if ((fd = gt_create_new(r->partial)) < 0) {
        if (errno == EEXIST)
            gt_err_set(err, GT_EXIT_USAGE, "--record %s: %s exists, a recording cut off by a "
                       "crash (gputui --replay reads it); move it away, or give --force",
                       path, r->partial);
        else
            gt_err_set(err, GT_EXIT_FAIL, "--record %s: %s: %s", path, r->partial, strerror(errno));
        return -1;
    }
    if (gt_rec_is_gzip_name(path))
        r->gz = gzdopen(fd, "wb9");
    else
        r->f = fdopen(fd, "w");
    if (!r->f && !r->gz) {
        gt_err_set(err, GT_EXIT_FAIL, "--record %s: out of memory", path);
        close(fd);
        unlink(r->partial);
        return -1;
    }
    return 0;
}

int gt_recorder_open(gt_recorder **out, const char *path, bool force, const gt_devprops *p,
                     gt_err *err)
{
    gt_recorder *r = calloc(1, sizeof *r);
    json_t *h, *fmt;
    char created[40];
    struct timespec wall;
    time_t now;
    struct tm tm;

    *out = NULL;
    if (!r) {
        gt_err_set(err, GT_EXIT_FAIL, "out of memory");
        return -1;
    }
    r->force = force;
    if (create(r, path, err)) {
        free(r);
        return -1;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    r->t0 = r->last_flush = gt_now();
    clock_gettime(CLOCK_REALTIME, &wall);
    now = wall.tv_sec;
    gmtime_r(&now, &tm);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    h = json_object();
    fmt = json_array();
    json_array_append_new(fmt, json_integer(GT_REC_MAJOR));
    json_array_append_new(fmt, json_integer(GT_REC_MINOR));
    json_object_set_new(h, "type", json_string("header"));
    json_object_set_new(h, "format", fmt);
    json_object_set_new(h, "tool", json_string("gputui"));
    json_object_set_new(h, "version", json_string(GT_VERSION));
    json_object_set_new(h, "created", json_string(created));
    /* An integer: a real would be written with 9 digits, 10 s apart. */
    json_object_set_new(h, "t0_unix_ns",
                        json_integer((json_int_t)wall.tv_sec * 1000000000 + wall.tv_nsec));
    json_object_set_new(h, "device", gt_devprops_json(p));
    put_line(r, h);
    flush(r);
    *out = r;
    return 0;
}

/* The fields every line after the header starts with. */
static json_t *line_new(const gt_recorder *r, const char *type, uint32_t gen)
{
    json_t *o = json_object();

    json_object_set_new(o, "type", json_string(type));
    json_object_set_new(o, "gen", json_integer(gen));
    json_object_set_new(o, "t", json_real(gt_now() - r->t0));
    return o;
}

void gt_recorder_config(gt_recorder *r, const gt_experiment *exp, const int64_t *vals,
                        uint32_t gen, const gt_setup_info *info, const char *counters,
                        const char *others)
{
    json_t *o, *v, *setup;
    char buf[64];

    if (!r)
        return;
    v = json_object();
    setup = json_array();
    for (int i = 0; i < exp->nparams; i++)
        json_object_set_new(v, exp->params[i].name,
                            json_string(gt_param_format(&exp->params[i], vals[i], buf, sizeof buf)));
    for (int i = 0; info && i < info->ntimes; i++) {
        json_t *t = json_object();
        json_object_set_new(t, "what", json_string(info->times[i].label));
        json_object_set_new(t, "seconds", json_real(info->times[i].sec));
        if (info->kept)
            json_object_set_new(t, "kept", json_true());
        json_array_append_new(setup, t);
    }
    o = line_new(r, "config", gen);
    json_object_set_new(o, "experiment", json_string(exp->name));
    json_object_set_new(o, "values", v);
    json_object_set_new(o, "setup", setup);
    json_object_set_new(o, "verification", json_string(info ? info->note : ""));
    if (info && info->timing[0])
        json_object_set_new(o, "timing", json_string(info->timing));
    if (counters && counters[0])
        json_object_set_new(o, "counters", json_string(counters));
    if (others && others[0])
        json_object_set_new(o, "others", json_string(others));
    put_line(r, o);
    flush(r);      /* a new configuration is on disk at once, */
    r->first_sample = true;     /* and so is its first sample */
    r->nconfig++;
}

void gt_recorder_sample(gt_recorder *r, const gt_sample *s)
{
    json_t *o;

    if (!r)
        return;
    o = line_new(r, "sample", s->gen);
    json_object_set_new(o, "series", json_integer(s->series));
    json_object_set_new(o, "verify", json_string(gt_verify_names[s->verify <= GT_V_FAILED ? s->verify : GT_V_FAILED]));
    json_object_set_new(o, "sec", json_real(s->sec));
    json_object_set_new(o, "bytes", json_integer((json_int_t)s->bytes));
    if (s->disturbed)
        json_object_set_new(o, "disturbed", json_true());
    put_line(r, o);
    if (r->first_sample) {
        flush(r);
        r->first_sample = false;
    }
}

void gt_recorder_error(gt_recorder *r, uint32_t gen, const char *msg)
{
    json_t *o;

    if (!r)
        return;
    o = line_new(r, "error", gen);
    json_object_set_new(o, "message", json_string(msg));
    put_line(r, o);
}

void gt_recorder_timeline(gt_recorder *r, const gt_timeline *tl)
{
    json_t *o, *ops, *tot, *sum;

    if (!r)
        return;
    ops = json_array();
    for (int i = 0; i < tl->nops; i++) {
        const gt_tl_op *op = &tl->ops[i];
        json_array_append_new(ops, json_pack("[iiiiff]", op->run, op->stream, op->kind, op->chunk,
                                             (double)op->start, (double)op->end));
    }
    tot = json_pack("[ff]", tl->total[0], tl->total[1]);
    sum = json_pack("[fff]", tl->sum[0], tl->sum[1], tl->sum[2]);
    o = line_new(r, "timeline", tl->gen);
    json_object_set_new(o, "streams", json_integer(tl->nstreams));
    if (tl->kernels_overlap)
        json_object_set_new(o, "kernels_overlap", json_true());
    json_object_set_new(o, "total", tot);
    json_object_set_new(o, "sum", sum);
    json_object_set_new(o, "ops", ops);
    put_line(r, o);
}

void gt_recorder_trace(gt_recorder *r, uint32_t gen, const gt_trace *t)
{
    json_t *o;

    if (!r)
        return;
    o = line_new(r, "trace", gen);
    json_object_set_new(o, "calls", gt_trace_json(t, "sec"));
    put_line(r, o);
}

void gt_recorder_inspection(gt_recorder *r, const char *json)
{
    json_error_t je;
    json_t *o, *v;

    if (!r)
        return;
    v = json_loads(json, 0, &je);
    if (!json_is_object(v)) {
        json_decref(v);
        failed(r);
        return;
    }
    o = json_object();
    json_object_set_new(o, "type", json_string("inspection"));
    json_object_set_new(o, "t", json_real(gt_now() - r->t0));
    json_object_set_new(o, "inspection", v);
    put_line(r, o);
    flush(r);
    r->nconfig++;
}

/* PATH.partial becomes PATH: replacing it only with --force. */
static int publish(gt_recorder *r)
{
    if (r->force)
        return rename(r->partial, r->path);
    return gt_port_rename_noreplace(r->partial, r->path);
}

int gt_recorder_close(gt_recorder *r, gt_err *err)
{
    int bad = r ? r->failed : 0;

    if (!r)
        return 0;
    if (r->nconfig) {
        json_t *o = json_object();
        json_object_set_new(o, "type", json_string("end"));
        json_object_set_new(o, "t", json_real(gt_now() - r->t0));
        put_line(r, o);
        bad = r->failed;
    }
    if (r->gz) {
        if (gzclose(r->gz) != Z_OK && !bad)
            bad = 1, r->werrno = errno;
    } else {
        if ((fflush(r->f) != 0 || ferror(r->f)) && !bad)
            bad = 1, r->werrno = errno;
        if (fclose(r->f) != 0 && !bad)
            bad = 1, r->werrno = errno;
    }
    if (!bad && r->nconfig == 0)
        unlink(r->partial);     /* nothing was recorded: no file, none replaced */
    else if (bad)
        gt_err_set(err, GT_EXIT_FAIL, "--record %s: could not write the recording (%s); what "
                   "was written is in %s", r->path,
                   r->werrno ? strerror(r->werrno) : "write error", r->partial);
    else if (publish(r))
        gt_err_set(err, GT_EXIT_FAIL, "--record %s: could not rename %s to it (%s); the "
                   "recording is in %s", r->path, r->partial, strerror(errno), r->partial),
            bad = 1;
    free(r);
    return bad ? -1 : 0;
}
