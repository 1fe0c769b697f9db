/* peer.h - parameter indices and enum values of the peer experiment
 * (copies between two GPUs), shared by its table row (core) and its
 * back-end (gpu). The experiment runs on the device the engine opened
 * ("this GPU"); 'peer' names the other one. */
#ifndef GPUTUI_EXP_PEER_H
#define GPUTUI_EXP_PEER_H

#include "gputui/measure/experiment.h"

enum { GT_PE_PEER, GT_PE_MEASURE, GT_PE_ENGINE, GT_PE_OP, GT_PE_DIR, GT_PE_ACCESS,
       GT_PE_SIZE, GT_PE_REGION, GT_PE_WARMUP, GT_PE_NPARAMS };
/* peer: 0 = auto (the first other GPU with peer access), k = device k-1. */
#define GT_PE_AUTO 0
enum { GT_PE_BANDWIDTH, GT_PE_LATENCY };
enum { GT_PE_CE, GT_PE_SM };
/* read: this GPU's copy pulls the peer's memory into its own; write: it
 * pushes its memory into the peer's. */
enum { GT_PE_READ, GT_PE_WRITE };
/* one: this GPU copies; both: the peer does the mirror copy at once. */
enum { GT_PE_ONE, GT_PE_BOTH };
enum { GT_PE_ACCESS_ON, GT_PE_ACCESS_OFF };

/* The latency chase: 4-byte indices, one step to the next 128-byte line
 * (nvbandwidth's stride), this many dependent reads per sample. */
#define GT_PE_STRIDE_BYTES 128
#define GT_PE_HOPS 4096

extern const gt_experiment gt_exp_peer;

/* The peer device of these values on the device of p: -1 when there is
 * none (one GPU, or the one asked for does not exist). */
int gt_peer_device(const int64_t *vals, const gt_devprops *p);

#endif
