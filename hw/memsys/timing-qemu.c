/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memqos-timing device: QEMU glue of the modeled memory system.
 *
 * Data flow of a guest load (docs/architecture.md, "Modeled time"):
 * TCG-generated code looks the load's line up in the vCPU's filter: its
 * current line, then a table of lines the model holds in the L1D (patch
 * 0020, hw/memsys/filter.h); only when neither has it does
 * helper_access_line call timing_cpu_access() here, which labels the
 * request, walks the model (memsys_cpu_access: L1 -> L2 -> the L3 MSC ->
 * the memory MSC), turns the returned stall into icount units added to
 * the vCPU's access_pending (patch 0021 charges them to the vCPU's clock
 * at the next TB) and adds the line to the filter.  Lines leave the
 * filter as they leave the L1D (timing_l1_evict).  No policy lives here.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/core/cpu.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "exec/access-hook.h"
#include "system/cpu-timers.h"
#include "system/reset.h"
#include "system/qtest.h"
#include "trace/trace-hw_memqos_memsys.h"
#include "qapi/qapi-commands-memqos.h"
#include "timing-qemu.h"

/* The hook table has no opaque pointer: there is one model per machine. */
static MemqosTimingState *timing;

MemqosTimingState *memqos_timing_get(void)
{
    return timing;
}

void memqos_timing_set_ports(MemqosTimingState *s, const MemsysPorts *ports,
                             MemqosTimingLabelFn label, MemLabel label_max)
{
    s->ports = *ports;
    s->label = label;
    s->label_max = label_max;
}

void memqos_timing_set_outcome(MemqosTimingState *s,
                               MemqosTimingOutcomeFn outcome)
{
    s->outcome = outcome;
}

/* ---- the access stream -------------------------------------------------- */

static void refresh_labels(MemqosTimingState *s, CPUState *cs,
                           MemqosTimingCpu *tc)
{
    tc->label[0] = s->label(cs, false);
    tc->label[1] = s->label(cs, true);
    trace_memqos_timing_label(cs->cpu_index, tc->label[0].partid,
                              tc->label[0].pmg, tc->label[1].partid,
                              tc->label[1].pmg);
}

/*
 * Empty a vCPU's data and fetch filters: its next access to any line
 * reaches the model.
 */
static void filters_reset(CPUState *cs)
{
    /* the data filter's arrays are the vCPU's: the model's reset clears them */
    memsys_filter_reset(&timing->cpu[cs->cpu_index].filter);
    access_label_changed(cs);
    for (int i = 0; i < ARRAY_SIZE(cs->neg.access_iline); i++) {
        cs->neg.access_iline[i] = ACCESS_LINE_NONE;
    }
}

/* A line left vCPU @opaque's L1D or L1I: its filter forgets it. */
static void timing_l1_evict(void *opaque, bool fetch, uint32_t slot,
                            uint64_t line)
{
    CPUState *cs = opaque;

    if (!fetch) {
        memsys_filter_evict(&timing->cpu[cs->cpu_index].filter, slot);
    } else if (cs->neg.access_iline[line & 7] == line) {
        cs->neg.access_iline[line & 7] = ACCESS_LINE_NONE;
    }
}

/*
 * The stream prefetcher's translation past a page (memsys_cpu_set_translate):
 * the vCPU's current regime, walked without side effects (no TLB fill, no
 * fault, no permission check), once per page a stream enters.
 */
static bool timing_translate(void *opaque, uint64_t va, uint64_t *pa)
{
    hwaddr p = cpu_get_phys_page_debug(opaque, va);

    *pa = p;
    return p != -1;
}

static void timing_cpu_access(CPUState *cs, vaddr va, hwaddr pa,
                              unsigned size, unsigned kind)
{
    static const uint8_t req_kind[] = {
        [ACCESS_READ] = MEMREQ_READ,
        [ACCESS_WRITE] = MEMREQ_WRITE,
        [ACCESS_FETCH] = MEMREQ_FETCH,
    };
    MemqosTimingState *s = timing;
    MemqosTimingCpu *tc = &s->cpu[cs->cpu_index];
    CPUNegativeOffsetState *neg = &cs->neg;
    uint64_t pline = pa >> ACCESS_LINE_BITS;
    MemsysOutcome out;
    MemReq req;
    uint64_t fs;

    /*
     * Labels change only with the exception level or an MPAM register
     * write (Arm: both rebuild hflags) or an IA32_PQR_ASSOC write (x86):
     * each moves access_gen (patches 0020, 0032).
     */
    if (tc->gen != neg->access_gen) {
        tc->gen = neg->access_gen;
        refresh_labels(s, cs, tc);
    }
    req = (MemReq) {
        .addr = pa,
        .va = va,
        .t_ps = icount_cpu_now_fs(cs) / 1000,
        .label = tc->label[kind == ACCESS_FETCH],
        .size = size,
        .src = cs->cpu_index,
        .kind = req_kind[kind],
    };
    memsys_cpu_access(s->memsys, tc->mc, &req, &out);
    if (s->outcome) {
        s->outcome(cs, req.kind, out.level);
        for (unsigned l = MEMSYS_L2; l <= MEMSYS_MEM; l++) {
            for (unsigned i = 0; i < out.prefetched[l]; i++) {
                s->outcome(cs, MEMREQ_PREFETCH, l);
            }
        }
    }
    if (out.level > MEMSYS_L2) {
        trace_memqos_timing_shared(cs->cpu_index, pa, kind, req.label.partid,
                                   req.label.pmg, out.level, out.mem_ps);
    }

    /*
     * Every load's L1 part (L1 - CPI) is already charged: per TB for
     * inline loads, per load on the helper path (patch 0020/0021).
     */
    if (kind == ACCESS_READ) {
        out.stall_fs -= s->l1_stall_fs;
    }
    /* whole icount units now, the rest with the next stall */
    if (out.stall_fs) {
        fs = tc->rem_fs + out.stall_fs;
        neg->access_pending += fs / s->unit_fs;
        tc->rem_fs = fs % s->unit_fs;
    }

    /* what left the L1s on the way went through timing_l1_evict */
    if (kind == ACCESS_FETCH) {
        neg->access_iline[pline & 7] = pline;
    } else {
        memsys_filter_add(&tc->filter, kind, va >> ACCESS_LINE_BITS,
                          out.l1_slot, out.l1_dirty);
    }
}

/*
 * Cache maintenance of vCPU @cs (patch 0033: x86 CLFLUSH, WBINVD, INVD):
 * the line at @pa, or with @all every line, leaves the model's caches
 * (memsys_cpu_flush), and what leaves the L1s leaves the filters
 * (timing_l1_evict), so that the next access to it reaches the model and
 * misses.
 */
static void timing_cpu_flush(CPUState *cs, hwaddr pa, bool all,
                             bool writeback)
{
    MemqosTimingState *s = timing;
    MemqosTimingCpu *tc = &s->cpu[cs->cpu_index];
    MemReq req = {
        .addr = pa >> ACCESS_LINE_BITS << ACCESS_LINE_BITS,
        .t_ps = icount_cpu_now_fs(cs) / 1000,
        .label = tc->label[0],
        .size = 1 << ACCESS_LINE_BITS,
        .src = cs->cpu_index,
        .kind = MEMREQ_WRITE,
    };

    trace_memqos_timing_flush(cs->cpu_index, pa, all, writeback);
    memsys_cpu_flush(s->memsys, tc->mc, &req, all, writeback);
}

static void timing_cpu_flush_line(CPUState *cs, hwaddr pa)
{
    timing_cpu_flush(cs, pa, false, true);
}

static void timing_cpu_flush_all(CPUState *cs, bool writeback)
{
    timing_cpu_flush(cs, 0, true, writeback);
}

uint64_t memqos_timing_now_ps(void)
{
    /* mid-TB (a helper's physical access) the virtual clock is not readable */
    if (current_cpu && !current_cpu->neg.can_do_io) {
        return icount_cpu_now_fs(current_cpu) / 1000;
    }
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) * 1000;
}

static void timing_dma_access(hwaddr pa, hwaddr len, bool is_write)
{
    MemqosTimingState *s = timing;
    MemReq req = {
        .t_ps = memqos_timing_now_ps(),
        .label = { s->dma_partid, s->dma_pmg },
        .src = MEMREQ_SRC_DMA,
        .kind = is_write ? MEMREQ_WRITE : MEMREQ_READ,
    };

    trace_memqos_timing_dma(pa, len, is_write);
    /* MemReq.size is 32 bits */
    while (len) {
        req.addr = pa;
        req.size = MIN(len, 1u << 30);
        memsys_dma_access(s->memsys, &req);
        pa += req.size;
        len -= req.size;
    }
}

static AccessHook timing_hook = {
    .cpu_access = timing_cpu_access,
    .dma_access = timing_dma_access,
    .cpu_flush_line = timing_cpu_flush_line,
    .cpu_flush_all = timing_cpu_flush_all,
};

/* ---- life cycle ----------------------------------------------------------- */

/* Machine reset: caches lose their contents, as on a cold boot. */
static void timing_reset(void *opaque)
{
    MemqosTimingState *s = opaque;

    for (unsigned i = 0; i < s->n_cpus; i++) {
        memsys_cpu_reset(s->cpu[i].mc);
        s->cpu[i].rem_fs = 0;
        filters_reset(qemu_get_cpu(i));
    }
}

static void timing_realize(DeviceState *dev, Error **errp)
{
    MemqosTimingState *s = MEMQOS_TIMING(dev);
    GError *gerr = NULL;
    CPUState *cs;

    if (timing) {
        error_setg(errp, "a machine has one %s", TYPE_MEMQOS_TIMING);
        return;
    }
    if (!s->label) {
        error_setg(errp, "%s: the platform did not connect it",
                   TYPE_MEMQOS_TIMING);
        return;
    }
    /* DMA's label must be one the MSCs (or RDT's counters) know */
    if (s->dma_partid > s->label_max.partid) {
        error_setg(errp, "timing-dma-partid=%u is beyond the platform's "
                   "labels (at most %u)", s->dma_partid, s->label_max.partid);
        return;
    }
    if (s->dma_pmg > s->label_max.pmg) {
        error_setg(errp, "timing-dma-pmg=%u is beyond the platform's labels "
                   "(at most %u)", s->dma_pmg, s->label_max.pmg);
        return;
    }
    /* memsys_new checks the timing figures and the topology */
    s->memsys = memsys_new(&s->topo, &s->cfg, &s->ports, &gerr);
    if (!s->memsys) {
        error_setg(errp, "%s", gerr->message);
        g_error_free(gerr);
        return;
    }
    s->unit_fs = memsys_unit_fs(&s->cfg);
    s->l1_stall_fs = memsys_level_fs(&s->cfg, MEMSYS_L1) - s->unit_fs;
    /*
     * Under the qtest accelerator no vCPU runs and QEMU_CLOCK_VIRTUAL is
     * the test's clock (clock_step): the device tests of the platform's
     * devices (tests/device/bwmon_fuzz.py) need no instruction clock.
     */
    if (!qtest_enabled() &&
        !icount_set_unit(s->unit_fs, s->cfg.quantum_ns, errp)) {
        error_prepend(errp, "timing=on ");
        g_clear_pointer(&s->memsys, memsys_free);
        return;
    }
    CPU_FOREACH(cs) {
        s->n_cpus = MAX(s->n_cpus, cs->cpu_index + 1);
    }
    s->cpu = g_new0(MemqosTimingCpu, s->n_cpus);
    s->mig_local = g_new0(int64_t, s->n_cpus);
    for (unsigned i = 0; i < s->n_cpus; i++) {
        MemqosTimingCpu *tc = &s->cpu[i];

        CPUState *vcpu = qemu_get_cpu(i);

        tc->mc = memsys_cpu_new(s->memsys, i);
        memsys_cpu_set_translate(tc->mc, timing_translate, vcpu);
        memsys_filter_init(&tc->filter, vcpu->neg.access_line,
                           &vcpu->neg.access_dtab[0][0], ACCESS_DTAB_LINES,
                           memqos_cache_sets(&s->topo.l1d) * s->topo.l1d.ways);
        memsys_cpu_set_l1_evict(tc->mc, timing_l1_evict, vcpu);
        tc->gen = vcpu->neg.access_gen - 1;     /* read the labels first */
        for (int a = 0; a < MEMSYS_CPU_STATE_ARRAYS; a++) {
            tc->state[a] = memsys_cpu_state(tc->mc, a, &tc->state_len[a]);
        }
        tc->stats = (uint64_t *)memsys_cpu_stats(tc->mc);
        tc->stats_len = sizeof(MemsysCpuStats) / sizeof(uint64_t);
        tc->stream = memsys_cpu_stream_state(tc->mc, &tc->stream_len);
    }
    timing_hook.load_l1_units = memsys_load_l1_units(&s->cfg);
    timing = s;
    access_hook_set(&timing_hook);
    qemu_register_reset(timing_reset, s);
    s->mig_config = memqos_mig_config_register(OBJECT(dev), TYPE_MEMQOS_TIMING,
                                               TYPE_MEMQOS_TIMING "-config",
                                               NULL, NULL);
}

/* ---- migration ---------------------------------------------------------- */

static int timing_pre_save(void *opaque)
{
    MemqosTimingState *s = opaque;
    CPUState *cs;

    CPU_FOREACH(cs) {
        s->mig_local[cs->cpu_index] = icount_cpu_local(cs);
        /*
         * The destination starts with empty filters (post_load).  An
         * access its empty filter lets through is an L1 hit the model
         * counts, where the source's filter would have passed it: a source
         * that runs on (a snapshot) empties its filters too, so that the
         * counters go on the same way on both sides.
         */
        filters_reset(cs);
    }
    return 0;
}

static int timing_post_load(void *opaque, int version_id)
{
    MemqosTimingState *s = opaque;
    CPUState *cs;

    CPU_FOREACH(cs) {
        MemqosTimingCpu *tc = &s->cpu[cs->cpu_index];
        GError *gerr = NULL;

        if (!memsys_cpu_post_load(tc->mc, &gerr)) {
            error_report("%s: cpu %d: %s", TYPE_MEMQOS_TIMING, cs->cpu_index,
                         gerr->message);
            g_error_free(gerr);
            return -EINVAL;
        }
        icount_cpu_set_local(cs, s->mig_local[cs->cpu_index]);
        /* the filters name lines of the source's caches: start afresh */
        filters_reset(cs);
    }
    return 0;
}

QEMU_BUILD_BUG_ON(MEMSYS_CPU_STATE_ARRAYS != 3);

static bool stream_needed(void *opaque)
{
    MemqosTimingCpu *tc = opaque;

    return tc->stream_len > 0;
}

/* Only with a streaming part (docs/memsys-model.md, "Streaming"). */
static const VMStateDescription vmstate_timing_cpu_stream = {
    .name = "memqos-timing-cpu/stream",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = stream_needed,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_EQUAL(stream_len, MemqosTimingCpu, NULL),
        VMSTATE_VARRAY_UINT32(stream, MemqosTimingCpu, stream_len, 0,
                              vmstate_info_uint64, uint64_t),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_timing_cpu = {
    .name = "memqos-timing-cpu",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64(rem_fs, MemqosTimingCpu),
        /* L1D, L1I, L2 (hw/memsys/hierarchy.h); sizes follow the options */
        VMSTATE_UINT32_EQUAL(state_len[0], MemqosTimingCpu, NULL),
        VMSTATE_VARRAY_UINT32(state[0], MemqosTimingCpu, state_len[0], 0,
                              vmstate_info_uint32, uint32_t),
        VMSTATE_UINT32_EQUAL(state_len[1], MemqosTimingCpu, NULL),
        VMSTATE_VARRAY_UINT32(state[1], MemqosTimingCpu, state_len[1], 0,
                              vmstate_info_uint32, uint32_t),
        VMSTATE_UINT32_EQUAL(state_len[2], MemqosTimingCpu, NULL),
        VMSTATE_VARRAY_UINT32(state[2], MemqosTimingCpu, state_len[2], 0,
                              vmstate_info_uint32, uint32_t),
        VMSTATE_VARRAY_UINT32(stats, MemqosTimingCpu, stats_len, 0,
                              vmstate_info_uint64, uint64_t),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_timing_cpu_stream,
        NULL
    }
};

/*
 * 3: the private caches' words in the recency-order layout (setassoc.h).
 * The version is this section's: a nested VMStateDescription's version_id
 * is not in the stream, so vmstate_timing_cpu's could not refuse a 2 (its
 * state_len checks would, the two layouts' lengths never being equal, but
 * only as two numbers).
 */
static const VMStateDescription vmstate_memqos_timing = {
    .name = TYPE_MEMQOS_TIMING,
    .version_id = 3,
    .minimum_version_id = 3,
    .pre_save = timing_pre_save,
    .post_load = timing_post_load,
    .fields = (const VMStateField[]) {
        /*
         * The timing figures were compared by name in the configuration's
         * section (memqos_mig_config_register), which loads first.
         */
        VMSTATE_UINT32_EQUAL(n_cpus, MemqosTimingState, NULL),
        VMSTATE_STRUCT_VARRAY_POINTER_UINT32(cpu, MemqosTimingState, n_cpus,
                                             vmstate_timing_cpu,
                                             MemqosTimingCpu),
        VMSTATE_VARRAY_UINT32(mig_local, MemqosTimingState, n_cpus, 0,
                              vmstate_info_int64, int64_t),
        VMSTATE_END_OF_LIST()
    }
};

/* ---- QMP ----------------------------------------------------------------- */

static double level_ns(const MemsysTiming *t, unsigned level)
{
    return memsys_level_fs(t, level) / 1e6;
}

MemqosTimingInfo *qmp_query_memqos_timing(Error **errp)
{
    MemqosTimingState *s = timing;
    MemqosTimingInfo *info;
    MemqosTimingCpuInfoList **tail;
    CPUState *cs;

    if (!s) {
        error_setg(errp, "no timing model: run with -M virt,mpam=on,"
                   "timing=on, or rdt= CPUs and -global memqos-rdt.timing=on");
        return NULL;
    }
    info = g_new0(MemqosTimingInfo, 1);
    info->mhz = s->cfg.mhz;
    info->cpi_milli = s->cfg.cpi_milli;
    info->unit_fs = s->unit_fs;
    info->quantum_ns = s->cfg.quantum_ns;
    info->latency_ns = g_new0(MemqosTimingLatency, 1);
    info->latency_ns->l1 = level_ns(&s->cfg, MEMSYS_L1);
    info->latency_ns->l2 = level_ns(&s->cfg, MEMSYS_L2);
    info->latency_ns->l3 = level_ns(&s->cfg, MEMSYS_L3);
    info->latency_ns->mem = level_ns(&s->cfg, MEMSYS_MEM);
    tail = &info->cpus;
    CPU_FOREACH(cs) {
        MemqosTimingCpu *tc = &s->cpu[cs->cpu_index];
        const MemsysCpuStats *st = memsys_cpu_stats(tc->mc);
        MemqosTimingCpuInfo *ci = g_new0(MemqosTimingCpuInfo, 1);

        ci->cpu_index = cs->cpu_index;
        ci->time_ns = icount_cpu_now_fs(cs) / 1000000;
        ci->stall_ns = st->stall_fs / 1000000;
        ci->reads = st->access[MEMREQ_READ];
        ci->writes = st->access[MEMREQ_WRITE];
        ci->fetches = st->access[MEMREQ_FETCH];
        ci->l1_hits = st->hit[0];
        ci->l2_hits = st->hit[1];
        ci->l3_hits = st->hit[2];
        ci->mem = st->hit[3];
        ci->checksum = memsys_cpu_checksum(tc->mc);
        QAPI_LIST_APPEND(tail, ci);
    }
    return info;
}

/* ---- properties --------------------------------------------------------- */

static const Property timing_props[] = {
    DEFINE_PROP_UINT32("timing-mhz", MemqosTimingState, cfg.mhz,
                       MEMSYS_TIMING_DEFAULT_MHZ),
    DEFINE_PROP_UINT32("timing-cpi-milli", MemqosTimingState, cfg.cpi_milli,
                       MEMSYS_TIMING_DEFAULT_CPI_MILLI),
    DEFINE_PROP_UINT32("timing-l1-cycles", MemqosTimingState, cfg.l1_cycles,
                       MEMSYS_TIMING_DEFAULT_L1_CYCLES),
    DEFINE_PROP_UINT32("timing-l2-cycles", MemqosTimingState, cfg.l2_cycles,
                       MEMSYS_TIMING_DEFAULT_L2_CYCLES),
    DEFINE_PROP_UINT32("timing-l3-cycles", MemqosTimingState, cfg.l3_cycles,
                       MEMSYS_TIMING_DEFAULT_L3_CYCLES),
    DEFINE_PROP_UINT32("timing-mem-ns", MemqosTimingState, cfg.mem_ns,
                       MEMSYS_TIMING_DEFAULT_MEM_NS),
    DEFINE_PROP_UINT64("timing-quantum-ns", MemqosTimingState, cfg.quantum_ns,
                       MEMSYS_TIMING_DEFAULT_QUANTUM_NS),
    DEFINE_PROP_UINT32("timing-prefetch-lines", MemqosTimingState,
                       cfg.prefetch_lines, 0),
    DEFINE_PROP_UINT32("timing-store-lines", MemqosTimingState,
                       cfg.store_lines, 0),
    DEFINE_PROP_UINT32("timing-prefetch-stride", MemqosTimingState,
                       cfg.prefetch_stride, 0),
    DEFINE_PROP_UINT32("timing-dma-partid", MemqosTimingState, dma_partid, 0),
    DEFINE_PROP_UINT32("timing-dma-pmg", MemqosTimingState, dma_pmg, 0),
};

static void timing_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->desc = "memqos modeled memory system (caches, memory, modeled time)";
    dc->realize = timing_realize;
    dc->vmsd = &vmstate_memqos_timing;
    /* a platform creates it: it needs the platform's ports and labels */
    dc->user_creatable = false;
    device_class_set_props(dc, timing_props);
}

static const TypeInfo timing_info = {
    .name = TYPE_MEMQOS_TIMING,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(MemqosTimingState),
    .class_init = timing_class_init,
};

static void timing_register_types(void)
{
    type_register_static(&timing_info);
}

type_init(timing_register_types)
