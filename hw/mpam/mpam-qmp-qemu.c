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
#include "msc-qemu.h"

/*
 * One register row as it reads: lowercase hex without "0x", most
 * significant word first (a bitmap: the whole bitmap).
 */
static MpamReg *reg_info(const MpamRegInfo *reg, const uint32_t *w,
                         unsigned n)
{
    MpamReg *r = g_new0(MpamReg, 1);
    GString *str = g_string_new("");
    int i = n - 1;

    while (i > 0 && !w[i]) {
        i--;                    /* no leading zero words */
    }
    g_string_append_printf(str, "%x", w[i]);
    while (--i >= 0) {
        g_string_append_printf(str, "%08x", w[i]);
    }
    r->name = g_strdup(reg->name);
    r->offset = reg->offset;
    r->size = n * 4;
    r->value = g_string_free(str, false);
    return r;
}

/*
 * Every row of the model's register table of @kind (all kinds if @kind < 0)
 * that is implemented: in the frame (@ris < 0, current selectors), or on
 * RIS @ris for request PARTID @partid.
 */
static MpamRegList *reg_list(MpamMsc *msc, int kind, int ris, unsigned partid)
{
    g_autofree uint32_t *w = g_new(uint32_t, MPAM_REG_MAX_WORDS);
    MpamRegList *list = NULL, **tail = &list;

    for (unsigned k = 0; k < mpam_msc_n_regs; k++) {
        const MpamRegInfo *reg = &mpam_msc_regs[k];
        unsigned n;

        if (kind >= 0 && reg->kind != kind) {
            continue;
        }
        n = mpam_msc_reg_peek(msc, reg, ris, partid, w);
        if (n) {
            QAPI_LIST_APPEND(tail, reg_info(reg, w, n));
        }
    }
    return list;
}

static MpamPartidConfig *partid_info(MpamMsc *msc, unsigned ris,
                                     unsigned partid, const MpamPartidCfg *c)
{
    MpamPartidConfig *p = g_new0(MpamPartidConfig, 1);

    p->partid = partid;
    p->intpartid = c->intpartid;
    p->controls = reg_list(msc, MPAM_REG_CTRL, ris, partid);
    p->policy = c->ctl->pri_policy_set;
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
    info->registers = reg_list(s->msc, -1, -1, 0);

    for (unsigned r = 0; r < s->cfg.nr_ris; r++) {
        const MpamRisConfig *rc = &s->cfg.ris[r];
        MpamRisInfo *ri = g_new0(MpamRisInfo, 1);
        MpamPartidConfigList **p_tail = &ri->partids;
        MpamMonitorInfoList **m_tail = &ri->monitors;

        ri->ris = r;
        ri->kind = g_strdup(rc->kind == MPAM_RIS_CACHE ? "cache" : "memory");
        ri->partid_max = rc->partid_max;
        ri->pmg_max = rc->pmg_max;
        ri->id_regs = reg_list(s->msc, MPAM_REG_ID, r, 0);
        ri->cpbm_wd = rc->cpbm_wd;
        ri->cmax_wd = rc->cmax_wd;
        ri->bwa_wd = rc->bwa_wd;
        ri->intpri_wd = rc->has_intpri ? rc->intpri_wd : 0;
        ri->dspri_wd = rc->has_dspri ? rc->dspri_wd : 0;
        ri->csu_monitors = rc->csu_num_mon;
        ri->mbwu_monitors = rc->mbwu_num_mon;
        for (unsigned p = 0; p <= rc->partid_max; p++) {
            MpamPartidCfg c;

            if (mpam_msc_get_partid_cfg(s->msc, r, p, &c) &&
                (all || !mpam_msc_partid_is_reset(s->msc, r, p))) {
                QAPI_LIST_APPEND(p_tail, partid_info(s->msc, r, p, &c));
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
        memqos_mpam_msc_lock(l->data);
        QAPI_LIST_APPEND(tail, msc_info(l->data, has_all && all));
        memqos_mpam_msc_unlock(l->data);
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

    if (!s) {
        return;
    }
    if (!(has_clear && clear) && !has_dspri) {
        error_setg(errp, "'dspri' is required unless 'clear' is true");
        return;
    }
    memqos_mpam_msc_lock(s);
    if (has_clear && clear) {
        if (!mpam_msc_clear_pri_policy(s->msc, has_ris ? ris : 0, partid)) {
            error_setg(errp, "MSC '%s' has no RIS %u with PARTID %u", msc,
                       has_ris ? ris : 0, partid);
        }
    } else {
        memqos_mpam_msc_set_priority(s, has_ris ? ris : 0, partid, dspri,
                                     has_intpri, intpri, errp);
    }
    memqos_mpam_msc_unlock(s);
}

/* "NAME=value NAME=value ..." of a register list. */
static void hmp_print_regs(Monitor *mon, const char *indent, MpamRegList *l)
{
    monitor_printf(mon, "%s", indent);
    for (; l; l = l->next) {
        monitor_printf(mon, " %s=0x%s", l->value->name, l->value->value);
    }
    monitor_printf(mon, "\n");
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
        hmp_print_regs(mon, "  registers:", msc->registers);
        for (MpamRisInfoList *r = msc->ris; r; r = r->next) {
            MpamRisInfo *ris = r->value;

            monitor_printf(mon, "  RIS %u %s: PARTID_MAX %u PMG_MAX %u\n",
                           ris->ris, ris->kind, ris->partid_max,
                           ris->pmg_max);
            hmp_print_regs(mon, "    ID:", ris->id_regs);
            if (!ris->partids) {
                monitor_printf(mon, "    all PARTIDs at reset values%s\n",
                               all ? "" : " (-a lists them)");
            }
            for (MpamPartidConfigList *p = ris->partids; p; p = p->next) {
                MpamPartidConfig *c = p->value;

                monitor_printf(mon, "    PARTID %u (int %u): effective "
                               "intpri %u dspri %u%s", c->partid,
                               c->intpartid, c->effective_intpri,
                               c->effective_dspri,
                               c->policy ? " [policy]" : "");
                if (!strcmp(ris->kind, "cache")) {
                    monitor_printf(mon, " CSU %" PRIu64 " bytes",
                                   c->csu_bytes);
                }
                hmp_print_regs(mon, "\n     ", c->controls);
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
