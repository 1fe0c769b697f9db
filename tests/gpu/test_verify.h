/* test_verify.h - the GPU test of the VMM read's check (test_verify.c):
 * prints an ok or FAIL line a case, returns the failures. */
#ifndef GPUTUI_TEST_VERIFY_H
#define GPUTUI_TEST_VERIFY_H

int gt_test_verify(int sms);

#endif
