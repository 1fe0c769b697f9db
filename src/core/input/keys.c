#include "gputui/input/keys.h"

#include <stdio.h>
#include <string.h>

const gt_keybind gt_keys[] = {
    {.key = 'q', .action = GT_A_QUIT},
    {.key = 'Q', .action = GT_A_QUIT},
    {.key = GT_KEY_F10, .action = GT_A_QUIT},
    {.key = GT_KEY_ESC, .action = GT_A_BACK},
    {.key = '?', .action = GT_A_HELP},
    {.key = GT_KEY_F1, .action = GT_A_HELP},
    {.key = 'p', .action = GT_A_PAUSE},
    {.key = 'r', .action = GT_A_RESTART},
    {.key = 'c', .action = GT_A_CLEAR},
    {.key = GT_KEY_TAB, .action = GT_A_NEXT_PANE},
    {.key = GT_KEY_UP, .action = GT_A_UP},
    {.key = 'k', .action = GT_A_UP},
    {.key = GT_KEY_DOWN, .action = GT_A_DOWN},
    {.key = 'j', .action = GT_A_DOWN},
    {.key = GT_KEY_LEFT, .action = GT_A_DEC},
    {.key = 'h', .action = GT_A_DEC},
    {.key = '-', .action = GT_A_DEC},
    {.key = GT_KEY_RIGHT, .action = GT_A_INC},
    {.key = 'l', .action = GT_A_INC},
    {.key = '+', .action = GT_A_INC},
    {.key = '=', .action = GT_A_INC},
    {.key = GT_KEY_ENTER, .action = GT_A_EDIT},
    {.key = ' ', .action = GT_A_TOGGLE},
    {.key = 'e', .action = GT_A_NEXT_EXP},
    {.key = 'E', .action = GT_A_PREV_EXP},
    {.key = '<', .action = GT_A_SLOWER},
    {.key = ',', .action = GT_A_SLOWER},
    {.key = '>', .action = GT_A_FASTER},
    {.key = '.', .action = GT_A_FASTER},
    {.key = 'n', .action = GT_A_NEXT_CONFIG},
    {.key = 'N', .action = GT_A_PREV_CONFIG},
    {.key = 'x', .action = GT_A_EXPORT},
    {.key = 'w', .action = GT_A_SWEEP},
    {.key = 'd', .action = GT_A_DEVICE},
    {.key = 'L', .action = GT_A_LESSONS},
    {.key = 'y', .action = GT_A_WHY},
    {.key = 't', .action = GT_A_TRACE},
    {.key = 'I', .action = GT_A_INSPECT},
    {.key = 's', .action = GT_A_STRIP},
};
const size_t gt_nkeys = sizeof gt_keys / sizeof gt_keys[0];

static const char *const help[GT_A_COUNT] = {
    [GT_A_NONE] = "",
    [GT_A_QUIT] = "quit (frees GPU memory, restores the terminal)",
    [GT_A_HELP] = "show or hide this help",
    [GT_A_PAUSE] = "pause or resume sampling",
    [GT_A_RESTART] = "restart: set up the configuration again",
    [GT_A_CLEAR] = "clear the histograms (current and previous)",
    [GT_A_NEXT_PANE] = "switch pane: experiment / device (/ the series table, when shown)",
    [GT_A_UP] = "previous parameter (device pane: scroll up)",
    [GT_A_DOWN] = "next parameter (device pane: scroll down)",
    [GT_A_DEC] = "decrease the value (sizes halve, choices cycle)",
    [GT_A_INC] = "increase the value (sizes double, choices cycle)",
    [GT_A_EDIT] = "type a value (Enter applies, Esc cancels)",
    [GT_A_TOGGLE] = "toggle a flag, or next choice",
    [GT_A_NEXT_EXP] = "next experiment",
    [GT_A_PREV_EXP] = "previous experiment",
    [GT_A_SLOWER] = "replay: half the speed (down to x0.5)",
    [GT_A_FASTER] = "replay: double the speed (up to x8)",
    [GT_A_NEXT_CONFIG] = "replay: next recorded configuration",
    [GT_A_PREV_CONFIG] = "replay: previous recorded configuration",
    [GT_A_EXPORT] = "export the statistics (now and before) to gputui-*.json, .csv and .html",
    [GT_A_SWEEP] = "sweep the selected parameter: a plot of the median at each value (w stops)",
    [GT_A_DEVICE] = "next device: another GPU, or another recorded GPU when replaying",
    [GT_A_LESSONS] = "lessons (in one: Space/Enter next step, Backspace back, Esc leave)",
    [GT_A_WHY] = "why: the next series' headline against its ceiling, step by step",
    [GT_A_TRACE] = "the CUDA calls of this configuration (set-up, an iteration, teardown)",
    [GT_A_STRIP] = "time strip: each series' median second by second over the last minute",
    [GT_A_INSPECT] = "inspect: the GPU's health card, a verdict a row (Enter: a row's measurement)",
    [GT_A_BACK] = "close what is on top (help, t, y, a list, the card); else quit",
};

gt_action gt_key_action(int key)
{
    for (size_t i = 0; i < gt_nkeys; i++)
        if (gt_keys[i].key == key)
            return gt_keys[i].action;
    return GT_A_NONE;
}

const char *gt_action_help(gt_action a)
{
    return a >= 0 && a < GT_A_COUNT ? help[a] : "";
}

const char *gt_key_name(int key, char *buf, size_t len)
{
    switch (key) {
    case GT_KEY_UP: return "Up";
    case GT_KEY_DOWN: return "Down";
    case GT_KEY_LEFT: return "Left";
    case GT_KEY_RIGHT: return "Right";
    case GT_KEY_ENTER: return "Enter";
    case GT_KEY_F1: return "F1";
    case GT_KEY_F10: return "F10";
    case GT_KEY_ESC: return "Esc";
    case GT_KEY_TAB: return "Tab";
    case ' ': return "Space";
    default:
        snprintf(buf, len, "%c", key);
        return buf;
    }
}

char *gt_action_keys(gt_action a, char *buf, size_t len)
{
    size_t off = 0;
    char k[8];

    buf[0] = '\0';
    for (size_t i = 0; i < gt_nkeys && off < len; i++)
        if (gt_keys[i].action == a)
            off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "",
                                    gt_key_name(gt_keys[i].key, k, sizeof k));
    return buf;
}
