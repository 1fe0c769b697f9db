/* test_verify.h - the GPU tests of the kernels' own checks: the VMM
 * read's (test_verify.c) and the async experiment's (test_verify_async.c).
 * Each prints an ok or FAIL line a case and returns the failures. */
#ifndef GPUTUI_TEST_VERIFY_H
#define GPUTUI_TEST_VERIFY_H

int gt_test_verify(int sms);
int gt_test_verify_async(int sms);

#endif
