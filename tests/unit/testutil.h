/* Helpers shared by the unit tests. */
#ifndef GPUTUI_TESTUTIL_H
#define GPUTUI_TESTUTIL_H

#include <math.h>

/* |a - b| <= eps, in double precision; NaN never passes. */
#define assert_near(a, b, eps)                                               \
    do {                                                                     \
        double a_ = (a), b_ = (b), e_ = (eps);                               \
        if (!(fabs(a_ - b_) <= e_))                                          \
            fail_msg("%s = %.17g, expected %.17g +/- %g", #a, a_, b_, e_);   \
    } while (0)

#endif
