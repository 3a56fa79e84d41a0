/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One memory request, as every model of the memory system sees it: the
 * caches (hw/memsys), the MPAM MSCs (hw/mpam), the DDR QoS scheduler,
 * BWMON, the agents and Intel RDT.  A request is built once where the access
 * leaves its requester (a vCPU or a DMA master) and handed from component to
 * component; each returns a MemResult saying what it did, from which the
 * timing model computes a latency with its own per-level parameters.
 * Pure C, no QEMU types (docs/architecture.md, "Traffic").
 */
#ifndef MEMQOS_MEMSYS_REQUEST_H
#define MEMQOS_MEMSYS_REQUEST_H

#include <stdbool.h>
#include <stdint.h>

typedef enum MemReqKind {
    MEMREQ_READ,
    MEMREQ_WRITE,
    MEMREQ_FETCH,               /* instruction fetch: a read for the memory side */
    MEMREQ_PREFETCH,            /* a prefetcher's line fill as a PMU counts it
                                   (MemsysOutcome.prefetched); never a
                                   request's kind: the memory side sees a read */
} MemReqKind;

/*
 * Who the request is for.  Both fields are as wide as any architecture needs,
 * so no component truncates a label: a component whose own fields are
 * narrower checks the range itself (an MSC raises Req_PARTID_Range /
 * Req_PMG_Range, as the MPAM spec says).
 */
typedef struct MemLabel {
    uint32_t partid;            /* Arm PARTID (16 bits) / x86 CLOSID */
    uint32_t pmg;               /* Arm PMG (8 bits) / x86 RMID (exceeds 255) */
} MemLabel;

/* MemReq.src of a request from a device (DMA) rather than a vCPU. */
#define MEMREQ_SRC_DMA          0xFFFF

typedef struct MemReq {
    uint64_t addr;              /* physical address of the first byte */
    uint64_t va;                /* a vCPU's data access: its virtual address
                                   (the stream prefetcher trains on it) */
    uint64_t t_ps;              /* modeled issue time, picoseconds */
    MemLabel label;
    uint32_t size;              /* bytes, may span cache lines */
    uint16_t dspri;             /* downstream priority attached on the way, 0 = none */
    uint16_t src;               /* requester: vCPU index, or MEMREQ_SRC_DMA */
    uint8_t kind;               /* MemReqKind */
} MemReq;

static inline bool memreq_is_write(const MemReq *req)
{
    return req->kind == MEMREQ_WRITE;
}

/*
 * What one component did with a request, summed over the parts of it that
 * saw the request (the RIS of an MSC).  A cache is write-back and
 * write-allocate: a miss reads its line from downstream (also when the line
 * cannot be allocated, then the data passes through), and evicting a dirty
 * line writes it downstream.  So the bytes below are the traffic the next
 * component down receives, and lines/hits say which latency applies; the
 * timing model (issue 7) adds its per-level latencies, there are no times
 * here.
 */
typedef struct MemResult {
    uint32_t seen;              /* bit n: part n saw the request (0: none did) */
    uint32_t lines;             /* cache lines looked up */
    uint32_t hits;              /* ... of which were present */
    uint64_t down_read_bytes;   /* read from downstream (line fills) */
    uint64_t down_write_bytes;  /* written downstream (dirty evictions) */
} MemResult;

#endif
