/* host.h - the kinds of host memory an experiment copies to and from
 * (the transfer and hostalloc experiments' parameter values), which the
 * back-end's host memory (src/gpu/hostmem.c) allocates. */
#ifndef GPUTUI_EXPERIMENTS_HOST_H
#define GPUTUI_EXPERIMENTS_HOST_H

enum { GT_HOST_PAGEABLE, GT_HOST_PINNED, GT_HOST_HOSTALLOC, GT_HOST_REGISTER };

#endif
