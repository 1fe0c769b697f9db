/* param.h - the parameter table: one row per experiment parameter drives
 * the CLI (--name VALUE), validation, the help text and the on-screen
 * editor. Values are int64: an enum index, a byte count, an integer or a
 * 0/1 flag. */
#ifndef GPUTUI_PARAM_H
#define GPUTUI_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GT_MAX_PARAMS 16

typedef enum { GT_P_ENUM, GT_P_SIZE, GT_P_INT, GT_P_BOOL } gt_ptype;

/* Whether a parameter means anything under the other values. When it does
 * not, *why says so ("only with host=hostalloc"); the UI greys the row and
 * the CLI rejects it. */
typedef bool (*gt_applies_fn)(const int64_t *vals, const char **why);

typedef struct gt_param {
    /* A row names its fields (.name = "size", .type = GT_P_SIZE, ...); a
     * field left out is zero, which means what each comment says. */
    const char *name;           /* CLI option and JSON key; always given */
    const char *label;          /* on screen; always given */
    gt_ptype type;              /* 0: GT_P_ENUM */
    int64_t min, max, def;      /* range and default; 0 is a value like any */
    int64_t step;               /* +/- step; 0: powers of two (SIZE, INT) */
    int64_t align;              /* SIZE: value must be a multiple of this; 0: any */
    const char *const *choices; /* ENUM: names, nchoices of them; NULL otherwise */
    int nchoices;
    const char *unit;           /* "bytes", "us"; NULL: none shown */
    const char *help;           /* one line; always given */
    gt_applies_fn applies;      /* NULL: always applies */
    const char *zero_name;      /* INT, SIZE: how 0 is shown and typed ("auto"); NULL: "0" */
    const char *before;         /* the value in effect in recordings made before the
                                   parameter existed; NULL: its default */
    bool iteration;             /* a change needs no new set-up: the warm-up count, or
                                   what the back-end's retune takes (backend.h);
                                   false: a change sets the configuration up again */
} gt_param;

/* The warm-up row every timed experiment's table has: untimed iterations
 * after each change, 0 to 1000, a change of it keeping the set-up:
 *     [GT_XX_WARMUP] = GT_PARAM_WARMUP(3),                                  */
#define GT_PARAM_WARMUP(default_iterations)                                     \
    {.name = "warmup", .label = "warm-up iterations", .type = GT_P_INT,         \
     .iteration = true, .max = 1000, .def = (default_iterations), .step = 1,    \
     .help = "untimed iterations after each change, kept out of the histograms"}

/* Parses text for p into *out. Returns 0, or -1 with a message that names
 * the allowed values. */
int gt_param_parse(const gt_param *p, const char *text, int64_t *out,
                   char *err, size_t errlen);
/* Range/alignment check of a value. Returns 0 or -1 with a message. */
int gt_param_check(const gt_param *p, int64_t v, char *err, size_t errlen);
/* Next value one step up (dir > 0) or down; clamps at min/max, enums wrap. */
int64_t gt_param_step(const gt_param *p, int64_t v, int dir);
/* The value as the user would type it: "pinned", "64M" .. Returns buf. */
char *gt_param_format(const gt_param *p, int64_t v, char *buf, size_t len);
/* "pageable, pinned, hostalloc, register" or "4 KiB to 4 GiB". */
char *gt_param_allowed(const gt_param *p, char *buf, size_t len);
bool gt_param_applies(const gt_param *p, const int64_t *vals,
                      const char **why);

#endif
