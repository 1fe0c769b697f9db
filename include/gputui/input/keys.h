/* keys.h - the default key bindings and their help text, in one table.
 * Key codes are gputui's own so that core/ needs no curses header; the UI
 * translates curses codes into these. */
#ifndef GPUTUI_KEYS_H
#define GPUTUI_KEYS_H

#include <stddef.h>

typedef enum {
    GT_A_NONE, GT_A_QUIT, GT_A_HELP, GT_A_PAUSE, GT_A_RESTART, GT_A_CLEAR,
    GT_A_NEXT_PANE, GT_A_UP, GT_A_DOWN, GT_A_DEC, GT_A_INC, GT_A_EDIT,
    GT_A_TOGGLE, GT_A_NEXT_EXP, GT_A_PREV_EXP, GT_A_SLOWER, GT_A_FASTER,
    GT_A_NEXT_CONFIG, GT_A_PREV_CONFIG, GT_A_EXPORT, GT_A_SWEEP, GT_A_DEVICE,
    GT_A_LESSONS, GT_A_WHY, GT_A_TRACE, GT_A_INSPECT, GT_A_STRIP, GT_A_BACK, GT_A_COUNT
} gt_action;

enum {
    GT_KEY_UP = 0x10000, GT_KEY_DOWN, GT_KEY_LEFT, GT_KEY_RIGHT,
    GT_KEY_ENTER, GT_KEY_F1, GT_KEY_TAB, GT_KEY_F10, GT_KEY_ESC
};

typedef struct gt_keybind {
    int key;
    gt_action action;
} gt_keybind;

extern const gt_keybind gt_keys[];
extern const size_t gt_nkeys;

gt_action gt_key_action(int key);
const char *gt_action_help(gt_action a);
/* "Up k" - every key bound to a, as shown in the help overlay. */
char *gt_action_keys(gt_action a, char *buf, size_t len);
const char *gt_key_name(int key, char *buf, size_t len);

#endif
