/* bundle.h - the recordings installed with gputui, one per GPU model
 * (share/gputui/MODEL.gtr.gz: h200.gtr.gz, h100.gtr.gz ...). The TUI
 * replays them when there is no usable GPU, 'd' and --device N choose
 * among them, and --compare names them by model ("h100").
 *
 * Where they are looked for, first match wins: $GPUTUI_DATA (or its older
 * name $GPUTUI_DATA_DIR), then
 * beside the binary in the build tree (BIN/../share/gputui) or an
 * installation (BIN/../share/gputui as well: bin/ and share/ are siblings).
 * Files are listed in descending order of name, so "h200" comes before
 * "h100"; device N is the N-th. */
#ifndef GPUTUI_BUNDLE_H
#define GPUTUI_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

#define GT_BUNDLE_MAX 8

typedef struct gt_bundle {
    int n;
    char dir[512];                       /* where they were found */
    char path[GT_BUNDLE_MAX][640];
    char model[GT_BUNDLE_MAX][32];       /* the name before ".gtr.gz" */
} gt_bundle;

/* The data directory the environment names ($GPUTUI_DATA, else
 * $GPUTUI_DATA_DIR), or NULL; *name (if name) gets the variable's name. */
const char *gt_bundle_env(const char **name);

/* Fills b from the first directory that holds any; exe_dir is the
 * directory of the running binary (NULL: only the environment). Returns
 * how many (0: none, b->dir then says where it looked). */
int gt_bundle_find(gt_bundle *b, const char *exe_dir);

/* A recording named on the command line (--replay, --compare): an existing
 * file, or a name with a '/' or ".gtr" in it, as it is; else the bundled
 * recording of that model (case-insensitive, "H100" or "h100"). Returns 0,
 * or -1 with a message naming the models there are. */
int gt_bundle_resolve(const gt_bundle *b, const char *name, char *out, size_t len,
                      char *err, size_t errlen);

/* The names of the files in dir (the data directory, or its lessons/) that
 * end in suffix, hidden ones left out, sorted by name (descending if
 * desc), at most max, each allocated: free them with gt_data_files_free.
 * Returns how many, or -1 when dir cannot be read (errno says why). */
int gt_data_files(const char *dir, const char *suffix, bool desc, char **names, int max);
void gt_data_files_free(char **names, int n);

/* "h200, h100" for messages. */
char *gt_bundle_models(const gt_bundle *b, char *buf, size_t len);

#endif
