/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QMP query-mpam / mpam-set-priority and HMP "info mpam": a read-out of the
 * MSC models through their introspection API (msc.h), for people and for
 * host-side tests that check what a guest's resctrl write did.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-memqos.h"
#include "monitor/monitor.h"
#include "monitor/hmp.h"
#include "qobject/qdict.h"
#include "hw/core/cpu.h"
#include "trace/trace-hw_memqos_mpam.h"
#include "msc-qemu.h"

/* A bitmap of n 32-bit words as one hex number, most significant first. */
static char *bitmap_hex(const uint32_t *w, uint32_t n)
{
    GString *str = g_string_new("0x");

    for (int i = n - 1; i >= 0; i--) {
        g_string_append_printf(str, i == n - 1 ? "%x" : "%08x", w[i]);
    }
    return g_string_free(str, false);
}

/* memcmp() must not see the NULL of an absent (zero-word) bitmap. */
static bool words_equal(const uint32_t *a, const uint32_t *b, unsigned n)
{
    return !n || !memcmp(a, b, n * sizeof(uint32_t));
}

static bool partid_cfg_is_reset(const MpamPartidCfg *c, const MpamPartidCfg *r)
{
    return !c->pri_policy_set &&
           c->cmax == r->cmax && c->cmin == r->cmin &&
           c->cassoc == r->cassoc && c->mbw_min == r->mbw_min &&
           c->mbw_max == r->mbw_max && c->mbw_winwd == r->mbw_winwd &&
           c->mbw_prop == r->mbw_prop && c->pri == r->pri &&
           words_equal(c->cpbm, r->cpbm, c->n_cpbm_words) &&
           words_equal(c->mbw_pbm, r->mbw_pbm, c->n_mbw_pbm_words);
}

static MpamPartidConfig *partid_info(unsigned partid, const MpamPartidCfg *c)
{
    MpamPartidConfig *p = g_new0(MpamPartidConfig, 1);

    p->partid = partid;
    p->intpartid = c->intpartid;
    if (c->n_cpbm_words) {
        p->cpbm = bitmap_hex(c->cpbm, c->n_cpbm_words);
    }
    p->cmax = c->cmax;
    p->cmin = c->cmin;
    p->cassoc = c->cassoc;
    p->mbw_min = c->mbw_min;
    p->mbw_max = c->mbw_max;
    if (c->n_mbw_pbm_words) {
        p->mbw_pbm = bitmap_hex(c->mbw_pbm, c->n_mbw_pbm_words);
    }
    p->mbw_prop = c->mbw_prop;
    p->pri = c->pri;
    p->intpri = c->pri & 0xffff;       /* MPAMCFG_PRI.INTPRI [15:0] */
    p->dspri = c->pri >> 16;           /* MPAMCFG_PRI.DSPRI [31:16] */
    p->policy = c->pri_policy_set;
    p->effective_intpri = c->effective_intpri;
    p->effective_dspri = c->effective_dspri;
    p->csu_bytes = c->csu_bytes;
    return p;
}

static void add_monitors(MpamMsc *msc, unsigned ris, MpamMonType type,
                         unsigned n, MpamMonitorInfoList ***tail)
{
    for (unsigned m = 0; m < n; m++) {
        MpamMonInfo mi;
        MpamMonitorInfo *info;

        if (!mpam_msc_get_mon(msc, ris, type, m, &mi)) {
            continue;
        }
        info = g_new0(MpamMonitorInfo, 1);
        info->type = g_strdup(type == MPAM_MON_CSU ? "csu" : "mbwu");
        info->index = m;
        info->ctl = mi.ctl;
        info->flt = mi.flt;
        info->value = mi.value;
        info->nrdy = mi.nrdy;
        QAPI_LIST_APPEND(*tail, info);
    }
}

static MpamMscInfo *msc_info(MemqosMpamMscState *s, bool all)
{
    MpamMscInfo *info = g_new0(MpamMscInfo, 1);
    MpamRisInfoList **ris_tail = &info->ris;
    MpamErrInfo err;

    info->id = s->id;
    info->name = g_strdup(s->name);
    info->base = s->mmio.addr;
    info->size = memory_region_size(&s->mmio);
    mpam_msc_get_errors(s->msc, &err);
    info->ecr = err.ecr;
    info->esr = err.esr;
    info->errcode = err.errcode;
    info->error_irq = err.irq_level;

    for (unsigned r = 0; r < s->cfg.nr_ris; r++) {
        const MpamRisConfig *rc = &s->cfg.ris[r];
        MpamRisInfo *ri = g_new0(MpamRisInfo, 1);
        MpamPartidConfigList **p_tail = &ri->partids;
        MpamMonitorInfoList **m_tail = &ri->monitors;

        ri->ris = r;
        ri->kind = g_strdup(rc->kind == MPAM_RIS_CACHE ? "cache" : "memory");
        ri->partid_max = rc->partid_max;
        ri->pmg_max = rc->pmg_max;
        for (unsigned p = 0; p <= rc->partid_max; p++) {
            MpamPartidCfg c;

            if (!mpam_msc_get_partid_cfg(s->msc, r, p, &c)) {
                continue;
            }
            /* reset_cfg describes RIS 0; other RIS are always listed */
            if (all || r != 0 || !partid_cfg_is_reset(&c, &s->reset_cfg)) {
                QAPI_LIST_APPEND(p_tail, partid_info(p, &c));
            }
        }
        add_monitors(s->msc, r, MPAM_MON_CSU, rc->csu_num_mon, &m_tail);
        add_monitors(s->msc, r, MPAM_MON_MBWU, rc->mbwu_num_mon, &m_tail);
        QAPI_LIST_APPEND(ris_tail, ri);
    }
    return info;
}

static MemqosMpamCpuLabelFn cpu_label_fn;

void memqos_mpam_register_cpu_label(MemqosMpamCpuLabelFn fn)
{
    cpu_label_fn = fn;
}

MpamInfo *qmp_query_mpam(bool has_all, bool all, Error **errp)
{
    MpamInfo *info = g_new0(MpamInfo, 1);
    MpamMscInfoList **tail = &info->msc;
    MpamCpuInfoList **cpu_tail = &info->cpus;
    GSList *list = memqos_mpam_msc_list();
    CPUState *cs;

    for (GSList *l = list; l; l = l->next) {
        QAPI_LIST_APPEND(tail, msc_info(l->data, has_all && all));
    }
    g_slist_free(list);

    if (!cpu_label_fn) {
        return info;
    }
    CPU_FOREACH(cs) {
        MpamCpuInfo *ci = g_new0(MpamCpuInfo, 1);
        uint16_t partid;
        uint8_t pmg;

        ci->cpu_index = cs->cpu_index;
        ci->ns = cpu_label_fn(cs, false, &partid, &pmg);
        ci->data_partid = partid;
        ci->data_pmg = pmg;
        cpu_label_fn(cs, true, &partid, &pmg);
        ci->instr_partid = partid;
        ci->instr_pmg = pmg;
        QAPI_LIST_APPEND(cpu_tail, ci);
    }
    return info;
}

static MemqosMpamMscState *msc_by_name(const char *name, Error **errp)
{
    GSList *list = memqos_mpam_msc_list();
    MemqosMpamMscState *found = NULL;

    for (GSList *l = list; l; l = l->next) {
        MemqosMpamMscState *s = l->data;

        if (!strcmp(s->name, name)) {
            found = s;
        }
    }
    g_slist_free(list);
    if (!found) {
        error_setg(errp, "no MPAM MSC named '%s'", name);
    }
    return found;
}

void qmp_mpam_set_priority(const char *msc, bool has_ris, uint32_t ris,
                           uint32_t partid, bool has_dspri, uint32_t dspri,
                           bool has_intpri, uint32_t intpri,
                           bool has_clear, bool clear, Error **errp)
{
    MemqosMpamMscState *s = msc_by_name(msc, errp);
    const MpamRisConfig *rc;

    if (!s) {
        return;
    }
    if (!has_ris) {
        ris = 0;
    }
    if (ris >= s->cfg.nr_ris) {
        error_setg(errp, "MSC '%s' has no RIS %u", msc, ris);
        return;
    }
    rc = &s->cfg.ris[ris];
    if (partid > rc->partid_max) {
        error_setg(errp, "PARTID %u is above PARTID_MAX %u of MSC '%s'",
                   partid, rc->partid_max, msc);
        return;
    }
    if (has_clear && clear) {
        mpam_msc_clear_pri_policy(s->msc, ris, partid);
        return;
    }
    if (!has_dspri) {
        error_setg(errp, "'dspri' is required unless 'clear' is true");
        return;
    }
    if (!rc->has_dspri || dspri >= (1u << rc->dspri_wd)) {
        error_setg(errp, "dspri %u does not fit DSPRI_WD=%u of MSC '%s'",
                   dspri, rc->has_dspri ? rc->dspri_wd : 0, msc);
        return;
    }
    if (!has_intpri) {
        /* what Linux programs for every PARTID: the highest priority */
        intpri = rc->intpri_0_is_low ? (1u << rc->intpri_wd) - 1 : 0;
    } else if (!rc->has_intpri || intpri >= (1u << rc->intpri_wd)) {
        error_setg(errp, "intpri %u does not fit INTPRI_WD=%u of MSC '%s'",
                   intpri, rc->has_intpri ? rc->intpri_wd : 0, msc);
        return;
    }
    mpam_msc_set_pri_policy(s->msc, ris, partid, intpri, dspri);
    trace_memqos_mpam_msc_pri_policy(s->name, ris, partid, intpri, dspri);
}

void hmp_info_mpam(Monitor *mon, const QDict *qdict)
{
    bool all = qdict_get_try_bool(qdict, "all", false);
    MpamInfo *info = qmp_query_mpam(true, all, NULL);

    if (!info->msc) {
        monitor_printf(mon, "No MPAM MSCs (use -M virt,mpam=on)\n");
    }
    for (MpamMscInfoList *m = info->msc; m; m = m->next) {
        MpamMscInfo *msc = m->value;

        monitor_printf(mon, "MSC %u '%s' @ 0x%" PRIx64 " size 0x%" PRIx64
                       ": ECR 0x%x ESR 0x%" PRIx64 " (errcode %u)%s\n",
                       msc->id, msc->name, msc->base, msc->size, msc->ecr,
                       msc->esr, msc->errcode,
                       msc->error_irq ? " error IRQ asserted" : "");
        for (MpamRisInfoList *r = msc->ris; r; r = r->next) {
            MpamRisInfo *ris = r->value;

            monitor_printf(mon, "  RIS %u %s: PARTID_MAX %u PMG_MAX %u\n",
                           ris->ris, ris->kind, ris->partid_max,
                           ris->pmg_max);
            if (!ris->partids) {
                monitor_printf(mon, "    all PARTIDs at reset values%s\n",
                               all ? "" : " (-a lists them)");
            }
            for (MpamPartidConfigList *p = ris->partids; p; p = p->next) {
                MpamPartidConfig *c = p->value;

                monitor_printf(mon, "    PARTID %u (int %u):", c->partid,
                               c->intpartid);
                if (c->cpbm) {
                    monitor_printf(mon, " CPBM %s CMAX 0x%x", c->cpbm, c->cmax);
                }
                if (c->mbw_pbm) {
                    monitor_printf(mon, " MBW_PBM %s", c->mbw_pbm);
                }
                if (ris->kind[0] == 'm') {
                    monitor_printf(mon, " MBW_MIN 0x%x MBW_MAX 0x%x "
                                   "MBW_PROP 0x%x", c->mbw_min, c->mbw_max,
                                   c->mbw_prop);
                }
                monitor_printf(mon, " PRI 0x%x (intpri %u dspri %u) "
                               "effective intpri %u dspri %u%s",
                               c->pri, c->intpri, c->dspri,
                               c->effective_intpri, c->effective_dspri,
                               c->policy ? " [policy]" : "");
                if (c->cpbm) {
                    monitor_printf(mon, " CSU %" PRIu64 " bytes",
                                   c->csu_bytes);
                }
                monitor_printf(mon, "\n");
            }
            for (MpamMonitorInfoList *l = ris->monitors; l; l = l->next) {
                MpamMonitorInfo *mi = l->value;

                monitor_printf(mon, "    %s mon %u: CTL 0x%08x FLT 0x%08x "
                               "value %" PRIu64 "%s\n", mi->type, mi->index,
                               mi->ctl, mi->flt, mi->value,
                               mi->nrdy ? " NRDY" : "");
            }
        }
    }
    for (MpamCpuInfoList *c = info->cpus; c; c = c->next) {
        MpamCpuInfo *ci = c->value;

        monitor_printf(mon, "CPU %" PRId64 ": data PARTID %u PMG %u, "
                       "instr PARTID %u PMG %u (%s)\n", ci->cpu_index,
                       ci->data_partid, ci->data_pmg, ci->instr_partid,
                       ci->instr_pmg, ci->ns ? "Non-secure" : "Secure");
    }
    qapi_free_MpamInfo(info);
}
