/* The decomposition of a headline figure: see why.h. */
#include "gputui/report/why.h"

#include <stdio.h>

int gt_why(gt_run *r, int s, const gt_devprops *p, gt_summary_line *lines, int max)
{
    int n = 0, k;

    if (s < 0 || s >= r->nseries || max <= 0)
        return 0;
    snprintf(lines[n++], sizeof lines[0], "why %s: %s", r->s[s].name,
             "the headline against its ceiling, step by step");
    if (r->exp && r->exp->why && (k = r->exp->why(r, s, p, lines + n, max - n)) >= 0)
        n += k;
    else if (n < max)
        snprintf(lines[n++], sizeof lines[0], "N/A: no physical ceiling decomposes this figure "
                 "(its summary lines compare the series)");
    return n;
}
