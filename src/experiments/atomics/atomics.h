/* atomics.h - parameter indices, series and address arithmetic of the
 * atomics experiment (a grid of threads makes atomic operations on K
 * addresses of global, shared, mapped host or a peer's memory), shared by
 * its table row (core) and its back-end (gpu). */
#ifndef GPUTUI_EXP_ATOMICS_H
#define GPUTUI_EXP_ATOMICS_H

#include <stdint.h>

#include "gputui/experiments/patterns.h"
#include "gputui/measure/experiment.h"

enum { GT_AT_WHERE, GT_AT_ADDRS, GT_AT_STRIDE, GT_AT_OP, GT_AT_TYPE, GT_AT_SCOPE, GT_AT_AGG,
       GT_AT_BLOCKS, GT_AT_OPS, GT_AT_WARMUP, GT_AT_NPARAMS };
enum { GT_AT_GLOBAL, GT_AT_SHARED, GT_AT_MAPPED, GT_AT_PEER };
enum { GT_AT_ADD, GT_AT_MIN, GT_AT_MAX, GT_AT_CAS, GT_AT_MUL, GT_AT_NOPS };
enum { GT_AT_U32, GT_AT_U64, GT_AT_F32, GT_AT_F64 };
enum { GT_AT_BLOCK, GT_AT_DEVICE, GT_AT_SYSTEM };
enum { GT_AT_COMPILER, GT_AT_WARP };

/* A block: this many threads. */
#define GT_AT_THREADS 256
/* A sample makes at most this many atomic operations (2^26): the host
 * works out what each address must hold from them. */
#define GT_AT_MAX_OPS (1ull << 26)
/* The targets in global, mapped or peer memory: at most this many bytes. */
#define GT_AT_MAX_SPAN (1ull << 30)
/* Floats stay exact while an address counts up to 2^24 (f32). */
#define GT_AT_F32_EXACT (1ull << 24)
/* A CAS loop (op=cas, op=mul) on an address C threads share: each success
 * costs a try of about every other, C x C x ops tries an address a sample,
 * one after another where the address is served (some 9 ns a try on an
 * H200: 64 addresses of 2112 threads, 16 operations each, took 0.66 s). At
 * most this many on device memory, some 80 ms; over a link (mapped, peer)
 * each try is a round trip of about a microsecond, and the bound is 64
 * times lower. */
#define GT_AT_MAX_TRIES (1ull << 23)
#define GT_AT_MAX_TRIES_LINK (1ull << 17)
/* Over a link (mapped, peer) the operations on one address are round trips
 * one after another, about a microsecond each: at most this many of them
 * a sample, as written (aggregate=warp sends one for a warp's lanes). */
#define GT_AT_MAX_LINK_OPS (1ull << 20)

extern const gt_experiment gt_exp_atomics;

/* Threads of a sample: blocks an SM x SMs x GT_AT_THREADS. */
uint64_t gt_at_threads(const int64_t *v, int sms);
/* How many addresses (each thread its own: the threads). */
uint64_t gt_at_addresses(const int64_t *v, int sms);
/* Bytes of one target. */
unsigned gt_at_size(int64_t type);

/* The address (0 .. K - 1) that thread t's operation i goes to: each
 * thread its own (K = threads: t), else (t + i) mod K. */
static inline GT_PAT_HD uint64_t gt_at_target(uint64_t t, uint64_t i, uint64_t k, int own)
{
    return own ? t : (t + i) % k;
}

/* The value thread t's operation i brings to min and max: distinct, and
 * scattered so that no order of arrival favours one. */
static inline GT_PAT_HD uint32_t gt_at_value(uint64_t t, uint64_t i, uint32_t seed)
{
    uint32_t x = (uint32_t)(t * 0x9E3779B1u) ^ (uint32_t)(i * 0x85EBCA77u) ^ seed;

    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    return x ^ (x >> 12);
}

/* Lanes of a warp whose operation goes to the same address at once, at
 * most (the conflict the addresses give): 32 / K rounded up, 1 for each
 * thread its own. */
int gt_at_conflict(const int64_t *v);

/* How many operations each address receives in a sample: count[a] for
 * a < K, from 'threads' threads making 'ops' each (O(threads + K)). */
void gt_at_counts(uint64_t threads, uint64_t ops, uint64_t k, int own, uint64_t *count);

#endif
