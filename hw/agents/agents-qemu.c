/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memqos-agent object and query-memqos-agents (agents-qemu.h).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qapi/qapi-commands-memqos.h"
#include "qapi/qapi-types-qom.h"
#include "qom/object_interfaces.h"
#include "hw/qdev-core.h"
#include "migration/blocker.h"
#include "agents-qemu.h"

OBJECT_DECLARE_SIMPLE_TYPE(MemqosAgent, MEMQOS_AGENT)

/* The QAPI enum is the model's, value for value. */
QEMU_BUILD_BUG_ON((int)MEMQOS_AGENT_PATTERN_SEQUENTIAL != (int)AGENT_SEQUENTIAL ||
                  (int)MEMQOS_AGENT_PATTERN_RANDOM != (int)AGENT_RANDOM);

struct MemqosAgent {
    Object parent_obj;
    AgentConfig cfg;            /* name: the object's id, from complete */
    bool running;
    int index;                  /* in the set, -1 until it joins */
};

/* The machine's side, after memqos_agents_connect. */
static struct {
    GPtrArray *all;             /* every MemqosAgent, in order of creation */
    AgentSet *set;
    Memsys *memsys;
    MemqosDdrState *ddr;
    MemLabel label_max;
    Error *blocker;
} agents;

static MemqosAgent *agent_at(unsigned i)
{
    return g_ptr_array_index(agents.all, i);
}

static bool error_from(char *msg, Error **errp)
{
    if (msg) {
        error_setg(errp, "%s", msg);
        g_free(msg);
        return false;
    }
    return true;
}

static bool gerror_to(GError *gerr, Error **errp)
{
    if (gerr) {
        error_setg(errp, "%s", gerr->message);
        g_error_free(gerr);
        return false;
    }
    return true;
}

/*
 * A label the platform's MSCs know: the range is the platform's, which the
 * agents' model does not know (an MSC would record every request of a
 * PARTID beyond its PARTID_MAX as an error).
 */
static bool label_ok(const AgentConfig *cfg, Error **errp)
{
    if (cfg->label.partid > agents.label_max.partid) {
        error_setg(errp, "agent %s: partid=%u is beyond the platform's "
                   "PARTIDs (at most %u)", cfg->name, cfg->label.partid,
                   agents.label_max.partid);
        return false;
    }
    if (cfg->label.pmg > agents.label_max.pmg) {
        error_setg(errp, "agent %s: pmg=%u is beyond the platform's PMGs (at "
                   "most %u)", cfg->name, cfg->label.pmg, agents.label_max.pmg);
        return false;
    }
    return true;
}

static bool join(MemqosAgent *a, Error **errp)
{
    GError *gerr = NULL;

    if (!label_ok(&a->cfg, errp)) {
        return false;
    }
    a->index = agents_add(agents.set, &a->cfg, &gerr);
    if (a->index >= 0 && !a->running) {
        agents_set_running(agents.set, a->index, false);
    }
    return gerror_to(gerr, errp);
}

bool memqos_agents_wanted(void)
{
    return agents.all && agents.all->len;
}

bool memqos_agents_connect(AgentSet *set, Memsys *memsys, MemqosDdrState *ddr,
                           MemLabel label_max, Error **errp)
{
    agents.set = set;
    agents.memsys = memsys;
    agents.ddr = ddr;
    agents.label_max = label_max;
    for (unsigned i = 0; agents.all && i < agents.all->len; i++) {
        if (!join(agent_at(i), errp)) {
            return false;
        }
    }
    error_setg(&agents.blocker, "memqos-agent: the background agents' "
               "state (slots in flight, pacing) is not migrated");
    return !memqos_agents_wanted() ||
           migrate_add_blocker(&agents.blocker, errp) == 0;
}

/*
 * A property change: before the machine takes the agent, only stored (the
 * whole configuration is checked at complete); afterwards applied to the
 * running set at once, or refused with the agent unchanged.
 */
static bool apply(MemqosAgent *a, const AgentConfig *cfg, Error **errp)
{
    GError *gerr = NULL;
    bool ok;

    if (a->index < 0) {
        a->cfg = *cfg;
        return true;
    }
    if (!label_ok(cfg, errp)) {
        return false;
    }
    memsys_lock(agents.memsys);
    ok = agents_reconfigure(agents.set, a->index, cfg, &gerr);
    memsys_unlock(agents.memsys);
    if (ok) {
        a->cfg = *cfg;
    }
    return gerror_to(gerr, errp);
}

/* ---- properties ---------------------------------------------------------- */

/*
 * The numeric properties, by their place in AgentConfig.  Setting
 * bandwidth or outstanding of a running agent switches it to that loop.
 */
typedef struct NumProp {
    const char *name, *type, *desc;
    size_t offset;              /* of an int64_t or uint64_t in AgentConfig */
    bool s64;                   /* an int64_t: at most INT64_MAX */
    size_t has;                 /* of its has_ flag, or 0 */
    size_t other;               /* of the other loop's has_ flag */
} NumProp;

#define CFG(f) offsetof(AgentConfig, f)

static const NumProp num_props[] = {
    { "bandwidth", "size", "open loop: bytes per second (at most the DDR "
      "peak)", CFG(bandwidth), true, CFG(has_bandwidth), CFG(has_outstanding) },
    { "outstanding", "uint64", "closed loop: requests in flight",
      CFG(outstanding), true, CFG(has_outstanding), CFG(has_bandwidth) },
    { "write-permille", "uint32", "writes in every 1000 requests (default "
      "0)", CFG(write_permille), true },
    { "footprint", "size", "bytes touched, a multiple of 64 (default 1G)",
      CFG(footprint), true },
    { "base", "uint64", "first byte, 64-byte aligned (default 4G)",
      CFG(base) },
    { "seed", "uint64", "seed of the random pattern (default 0)", CFG(seed) },
};

static void get_num(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    const NumProp *p = opaque;
    uint64_t value = *(uint64_t *)((char *)&MEMQOS_AGENT(obj)->cfg +
                                   p->offset);

    visit_type_uint64(v, name, &value, errp);
}

static void set_num(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    const NumProp *p = opaque;
    MemqosAgent *a = MEMQOS_AGENT(obj);
    AgentConfig cfg = a->cfg;
    uint64_t value;

    if (!visit_type_uint64(v, name, &value, errp)) {
        return;
    }
    if (p->s64 && value > INT64_MAX) {
        /* refused as typed: clamped, the model's message would echo 2^63-1 */
        error_setg(errp, "%s=%" PRIu64 " is more than %" PRId64, name,
                   value, INT64_MAX);
        return;
    }
    *(uint64_t *)((char *)&cfg + p->offset) = value;
    if (p->has) {
        *(bool *)((char *)&cfg + p->has) = true;
        if (a->index >= 0) {
            *(bool *)((char *)&cfg + p->other) = false;
        }
    }
    apply(a, &cfg, errp);
}

/* partid, pmg: the MemLabel fields */
static void get_label(Object *obj, Visitor *v, const char *name, void *opaque,
                      Error **errp)
{
    uint32_t *f = (uint32_t *)((char *)&MEMQOS_AGENT(obj)->cfg.label +
                               (uintptr_t)opaque);

    visit_type_uint32(v, name, f, errp);
}

static void set_label(Object *obj, Visitor *v, const char *name, void *opaque,
                      Error **errp)
{
    MemqosAgent *a = MEMQOS_AGENT(obj);
    AgentConfig cfg = a->cfg;

    if (visit_type_uint32(v, name, (uint32_t *)((char *)&cfg.label +
                                                (uintptr_t)opaque), errp)) {
        apply(a, &cfg, errp);
    }
}

static int get_pattern(Object *obj, Error **errp)
{
    return MEMQOS_AGENT(obj)->cfg.pattern;
}

static bool get_direct(Object *obj, Error **errp)
{
    return MEMQOS_AGENT(obj)->cfg.direct;
}

/* pattern, direct: a copy of the configuration with the one field changed */
static void set_pattern(Object *obj, int value, Error **errp)
{
    MemqosAgent *a = MEMQOS_AGENT(obj);
    AgentConfig cfg = a->cfg;

    cfg.pattern = value;
    apply(a, &cfg, errp);
}

static void set_direct(Object *obj, bool value, Error **errp)
{
    MemqosAgent *a = MEMQOS_AGENT(obj);
    AgentConfig cfg = a->cfg;

    cfg.direct = value;
    apply(a, &cfg, errp);
}

static bool get_running(Object *obj, Error **errp)
{
    return MEMQOS_AGENT(obj)->running;
}

static void set_running(Object *obj, bool value, Error **errp)
{
    MemqosAgent *a = MEMQOS_AGENT(obj);

    a->running = value;
    if (a->index >= 0) {
        memsys_lock(agents.memsys);
        agents_set_running(agents.set, a->index, value);
        memsys_unlock(agents.memsys);
    }
}

/* ---- life cycle ---------------------------------------------------------- */

static void agent_init(Object *obj)
{
    MemqosAgent *a = MEMQOS_AGENT(obj);

    a->cfg = (AgentConfig){
        .footprint = 1 << 30,
        .base = 1ull << 32,
        .pattern = AGENT_SEQUENTIAL,
    };
    a->running = true;
    a->index = -1;
}

/*
 * Every check but the peak's now (the DDR model comes with the machine),
 * so a bad -object stops QEMU with the model's message before it boots.
 */
static void agent_complete(UserCreatable *uc, Error **errp)
{
    MemqosAgent *a = MEMQOS_AGENT(uc);

    a->cfg.name = g_strdup(object_get_canonical_path_component(OBJECT(uc)));
    if (!error_from(agent_config_check(&a->cfg, UINT64_MAX), errp)) {
        return;
    }
    if (!agents.set && phase_check(PHASE_MACHINE_READY)) {
        error_setg(errp, "%s needs -M virt,mpam=on,timing=on,ddr=on",
                   TYPE_MEMQOS_AGENT);
        return;
    }
    if (agents.set) {
        bool ok;

        memsys_lock(agents.memsys);
        ok = join(a, errp);
        memsys_unlock(agents.memsys);
        if (!ok) {
            return;
        }
    }
    if (!agents.all) {
        agents.all = g_ptr_array_new();
    }
    g_ptr_array_add(agents.all, a);
}

/* The set keeps its agents: one that has joined cannot be deleted. */
static bool agent_can_be_deleted(UserCreatable *uc)
{
    return MEMQOS_AGENT(uc)->index < 0;
}

static void agent_finalize(Object *obj)
{
    MemqosAgent *a = MEMQOS_AGENT(obj);

    if (agents.all) {
        g_ptr_array_remove(agents.all, a);
    }
    g_free((char *)a->cfg.name);
}

/* ---- QMP ----------------------------------------------------------------- */

static double ns(uint64_t ps)
{
    return ps / 1000.0;
}

MemqosAgentsInfo *qmp_query_memqos_agents(bool has_restart_window,
                                          bool restart_window, Error **errp)
{
    MemqosAgentsInfo *info;
    MemqosAgentInfoList **tail;
    uint64_t now;

    if (!agents.set) {
        error_setg(errp, "no background agents: run with -M virt,mpam=on,"
                   "timing=on,ddr=on");
        return NULL;
    }
    info = g_new0(MemqosAgentsInfo, 1);
    tail = &info->agents;
    memsys_lock(agents.memsys);
    now = agents_now(agents.set);
    info->now_ns = ns(now);
    for (unsigned i = 0; i < agents_count(agents.set); i++) {
        const AgentConfig *c = agents_config(agents.set, i);
        const AgentStats *st = agents_stats(agents.set, i);
        MemqosAgentInfo *ai = g_new0(MemqosAgentInfo, 1);
        MemqosDdrState *d = agents.ddr;
        MemReq r = { .kind = MEMREQ_READ,
                     .dspri = d->dspri(d->dspri_opaque, c->label.partid) };

        ai->id = g_strdup(c->name);
        ai->running = agents_running(agents.set, i);
        ai->has_bandwidth = c->has_bandwidth;
        ai->bandwidth = c->bandwidth;
        ai->has_outstanding = c->has_outstanding;
        ai->outstanding = c->outstanding;
        ai->partid = c->label.partid;
        ai->pmg = c->label.pmg;
        ai->dspri = r.dspri;
        ai->read_class = g_strdup(ddr_class_name(ddr_qos_class(&d->cfg, &r)));
        ai->requests = st->requests;
        ai->writes = st->writes;
        ai->bytes = st->bytes;
        ai->completed = st->completed;
        ai->latency_mean_ns = st->completed ?
                              ns(st->lat_sum_ps) / st->completed : 0;
        ai->latency_max_ns = ns(st->lat_max_ps);
        ai->window_ns = ns(now - st->win_start_ps);
        ai->window_bytes_per_s = agents_window_bw(agents.set, i, now);
        if (has_restart_window && restart_window) {
            agents_window_restart(agents.set, i, now);
        }
        QAPI_LIST_APPEND(tail, ai);
    }
    memsys_unlock(agents.memsys);
    return info;
}

/* ---- type ---------------------------------------------------------------- */

static void agent_class_init(ObjectClass *oc, void *data)
{
    UserCreatableClass *ucc = USER_CREATABLE_CLASS(oc);

    ucc->complete = agent_complete;
    ucc->can_be_deleted = agent_can_be_deleted;
    for (unsigned i = 0; i < G_N_ELEMENTS(num_props); i++) {
        const NumProp *p = &num_props[i];

        object_class_property_add(oc, p->name, p->type, get_num, set_num,
                                  NULL, (void *)p);
        object_class_property_set_description(oc, p->name, p->desc);
    }
    object_class_property_add(oc, "partid", "uint32", get_label, set_label,
                              NULL, (void *)offsetof(MemLabel, partid));
    object_class_property_set_description(oc, "partid",
                                          "PARTID of every request");
    object_class_property_add(oc, "pmg", "uint32", get_label, set_label,
                              NULL, (void *)offsetof(MemLabel, pmg));
    object_class_property_set_description(oc, "pmg", "PMG of every request");
    object_class_property_add_enum(oc, "pattern", "MemqosAgentPattern",
                                   &MemqosAgentPattern_lookup, get_pattern,
                                   set_pattern);
    object_class_property_set_description(oc, "pattern",
                                          "sequential (default) or random");
    object_class_property_add_bool(oc, "direct", get_direct, set_direct);
    object_class_property_set_description(oc, "direct",
        "straight to memory instead of through the L3 (default off)");
    object_class_property_add_bool(oc, "running", get_running, set_running);
    object_class_property_set_description(oc, "running",
                                          "issues requests (default on)");
}

static const TypeInfo agent_info = {
    .name = TYPE_MEMQOS_AGENT,
    .parent = TYPE_OBJECT,
    .instance_size = sizeof(MemqosAgent),
    .instance_init = agent_init,
    .instance_finalize = agent_finalize,
    .class_init = agent_class_init,
    .interfaces = (InterfaceInfo[]) {
        { TYPE_USER_CREATABLE },
        { }
    },
};

static void agent_register_types(void)
{
    type_register_static(&agent_info);
}

type_init(agent_register_types)
