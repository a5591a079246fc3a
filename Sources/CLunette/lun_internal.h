/*
 * lun_internal.h — what the C module's files share.
 *
 * Naming: every function is lun_<area>_<what>. Functions registered with Lua
 * carry a one-line comment "[-in, +out]" style summary of their stack effect.
 */
#ifndef LUN_INTERNAL_H
#define LUN_INTERNAL_H

#include "clunette.h"
#include "lun_host_calls.h"
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include <string.h>

/* How many computed evaluations may nest on the C stack before the
 * trampoline unwinds (Lua allows ~200 nested C calls; each level uses ~3). */
#define LUN_MAX_COMPUTE_DEPTH 32

/* Metatable names (lun_newmetatable). Model instances and Swift objects get
 * one metatable per class instead, sealed (lun_seal.c). */
#define LUN_MT_VIEW      "lunette.View"
#define LUN_MT_VIEWTYPE  "lunette.ViewType"
#define LUN_MT_PROXY     "lunette.Tracked"
#define LUN_MT_SELF      "lunette.Self"
#define LUN_MT_APP       "lunette.App"
#define LUN_MT_NODE      "lunette.Node"
#define LUN_MT_BINDING   "lunette.Binding"
#define LUN_MT_HOSTARRAY "lunette.HostArray"
#define LUN_MT_MARKER    "lunette.Marker"
#define LUN_MT_CLASS     "lunette.Class"
#define LUN_MT_EFFECT    "lunette.Effect"

/* Registry keys (their addresses are the keys). */
extern const char lun_key_objects;   /* serial -> object (weak values) */
extern const char lun_key_proxies;   /* raw table -> proxy (weak keys) */
extern const char lun_key_hosts;     /* handle -> host userdata (weak values) */
extern const char lun_key_hosttypes; /* type index -> class table */
extern const char lun_key_envkeys;   /* key -> { default = f, value = v } */
extern const char lun_key_module;    /* the ui table */
extern const char lun_key_suspend;   /* the trampoline's error value */

/* An instance metatable keeps its class's computed functions at this integer key. */
#define LUN_META_COMPUTEDS 1
#define LUN_META_NAME 2       /* the class name */
#define LUN_META_NAMES 3      /* property names by index */

/* Property kinds of a model class. */
enum {
  LUN_PROP_PLAIN = 1,     /* tracked per property */
  LUN_PROP_COMPUTED,      /* ui.computed: memoised, tracked through what it reads */
  LUN_PROP_IGNORED,       /* ui.ignored: stored, not tracked */
  LUN_PROP_PUBLISHED,     /* ObservableObject ui.Published: a change invalidates the whole object */
  LUN_PROP_UNPUBLISHED    /* ObservableObject plain property: changes notify nobody */
};

/* Section kinds of a view type's properties. */
enum {
  LUN_SECTION_STATE = 1, LUN_SECTION_ENV, LUN_SECTION_BINDING, LUN_SECTION_BINDABLE,
  LUN_SECTION_OBSERVED, LUN_SECTION_STATEOBJECT, LUN_SECTION_ENVOBJECT, LUN_SECTION_PROPERTY,
  LUN_SECTION_STORAGE, LUN_SECTION_SCENE, LUN_SECTION_FOCUS
};

/* A section of a view definition, declared once (lun_self.c, lun_sections):
 * its key in ui.View's definition, its kind (0: a key self never resolves,
 * such as body), whether ui.View registers the names it lists (1) or the
 * section registers itself (0: properties, focusState), whether the view
 * holds objects through it (subscribed before each body), and how self
 * reads, writes and projects ("$name") a name it declares — NULL where the
 * section does not allow it. read and project: [-0, +1]; write: [-0, +0]. */
typedef struct lun_Section {
  const char *name;
  int kind;
  int registers, holds;
  int (*read)(lua_State *L, int recidx, int kidx, int kind);
  void (*write)(lua_State *L, int recidx, int kidx, int vidx);
  int (*project)(lua_State *L, int recidx, int kidx, int kind);
  int input;        /* names the caller passes (required inputs), so no DynamicProperty holds one */
} lun_Section;
extern const lun_Section lun_sections[];         /* ends with a NULL name */
const lun_Section *lun_section_of(int kind);     /* NULL for 0 or an unknown kind */

/* Environment read modes. */
enum { LUN_ENV_REQUIRED = 1, LUN_ENV_OPTIONAL, LUN_ENV_KEYED };

/* Marker kinds (ui.computed, ui.ignored, ui.optional). */
enum { LUN_MARK_COMPUTED = 1, LUN_MARK_IGNORED, LUN_MARK_OPTIONAL, LUN_MARK_PUBLISHED, LUN_MARK_NONE, LUN_MARK_STORAGE };
int lun_marker_new(lua_State *L, int mark, int vidx);
int lun_is_none(lua_State *L, int idx);

/* What a class's owner wants to hear of its instances' writes (app storage
 * cells: lun_storage.c), so the model calls what its class holds, never a
 * higher room. Each may raise. [-0, +0] */
typedef struct lun_ClassHooks {
  void (*check)(lua_State *L, int objidx, int vidx);   /* before a write: refuse a value */
  void (*changed)(lua_State *L, int objidx);           /* before readers are told */
} lun_ClassHooks;

typedef struct lun_Class {
  int32_t nprops;
  int32_t count;            /* instances made so far, for Book#3 */
  int32_t isObject;         /* an ObservableObject class (whole-object invalidation) */
  const lun_ClassHooks *hooks;  /* NULL for a script's classes */
  uint8_t kinds[1];         /* kinds[1..nprops] (flexible) */
} lun_Class;

typedef struct lun_Object {
  lun_Class *cls;
  int32_t serial;           /* runtime-wide id: how the graph names it */
  int32_t ordinal;          /* per-class number: Book#3 */
  int32_t nodes[1];         /* nodes[1..nprops]: graph node per property, 0 until tracked;
                               nodes[0]: the whole object (ObservableObject) */
} lun_Object;

typedef struct lun_Proxy {
  lun_Object *owner;        /* whose property this table is */
  int32_t prop;
} lun_Proxy;

/* Pushes t[k] without metamethods (view values have an __index). Returns its type. */
static inline int lun_rawfield(lua_State *L, int idx, const char *k) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, k);
  return lua_rawget(L, idx);
}

/* lun_seal.c: metatables scripts cannot reach, and checks they cannot forge */
enum { LUN_SEAL_OBJECT = 1, LUN_SEAL_HOST, LUN_SEAL_CLASS };
extern const char lun_key_sealed;
int lun_newmetatable(lua_State *L, const char *name);
void lun_seal(lua_State *L, int idx, int kind, const char *name);
int lun_sealed_kind(lua_State *L, int idx);

/* The userdata at arg if its metatable is exactly the one at mtidx (a
 * metamethod's upvalue), as luaL_checkudata checks; raises naming `what`
 * otherwise. It is on the hot path of every tracked read, so it takes three
 * API calls and leaves the metatable pushed: only for metamethods that use
 * relative indices after it. [-0, +1] */
static inline void *lun_check_self_pushing(lua_State *L, int arg, int mtidx, const char *what) {
  void *p = lua_touserdata(L, arg);
  if (!p || !lua_getmetatable(L, arg) || !lua_rawequal(L, -1, mtidx)) luaL_typeerror(L, arg, what);
  return p;
}

/* lun_check_self_pushing, leaving the stack as it was. [-0, +0] */
static inline void *lun_check_self(lua_State *L, int arg, int mtidx, const char *what) {
  void *p = lun_check_self_pushing(L, arg, mtidx, what);
  lua_pop(L, 1);
  return p;
}

/* lun_registry.c */
extern const char lun_key_state;     /* the lun_State userdata */
void lun_registry_table(lua_State *L, const void *key);
void lun_new_weak_table(lua_State *L, const char *mode);

/* lun_protect.c: protected runs, their error kept as the last error message */
extern const char lun_key_lasterror, lun_key_fallback, lun_key_toodeep;
int lun_protect(lua_State *L, int nargs, int nresults);
int lun_protect_run(lua_State *L, int nargs, int nresults, int bounded);
void lun_capture_error(lua_State *L);

/* lun_object.c */
void lun_open_object(lua_State *L);
lun_Object *lun_object_test(lua_State *L, int idx);
int lun_object_read(lua_State *L, int idx, int prop);
void lun_object_write(lua_State *L, int idx, int prop, int vidx);
int lun_object_prop(lua_State *L, int idx, int keyidx);
void lun_changed(lua_State *L, int32_t node);
int32_t lun_object_node(lua_State *L, lun_Object *o, int prop, int kind);
const char *lun_object_classname(lua_State *L, int idx);
void lun_object_suggest(lua_State *L, int objidx, const char *name);
int lun_object_push_serial(lua_State *L, int32_t serial);
void lun_object_push_id(lua_State *L, int idx);
int lun_object_new_of(lua_State *L, int clsidx, int initidx);
void lun_object_metatable(lua_State *L, int clsidx, int propsidx, int methodsidx, int infoidx, const char *name);
void lun_object_notify(lua_State *L, int idx, lun_Object *o, int prop);
void lun_object_track_whole(lua_State *L, int idx);
int lun_object_is_observable_object(lua_State *L, int idx);

/* lun_class.c */
enum { LUN_CLASS_OBSERVABLE, LUN_CLASS_OBJECT };
int lun_class_define(lua_State *L, const char *name, int specidx, int kind, const lun_ClassHooks *hooks);

/* lun_transaction.c */
void lun_open_transaction(lua_State *L);
void lun_transaction_run(lua_State *L, int tidx, int fidx, int nargs);
void lun_animation_run(lua_State *L, int aidx, int fidx, int nargs);
void lun_transaction_forget(lua_State *L);
void lun_transaction_new(lua_State *L, int fromidx);
void lun_transaction_copy_of(lua_State *L, lua_Integer id);
const char *lun_transaction_animation(lua_State *L, int tidx, size_t *len);

/* lun_storage.c */
void lun_open_storage(lua_State *L);
void lun_storage_cell(lua_State *L, int keyidx);
void lun_storage_check(lua_State *L, int vidx, const char *view, const char *name);
void lun_storage_sync(lua_State *L);
void lun_storage_forget(lua_State *L);
void lun_storage_section_cell(lua_State *L, int secidx, int nidx, int scene);
void lun_storage_section_read(lua_State *L, int secidx, int nidx, int scene);
void lun_storage_check_section(lua_State *L, int defidx, const char *section, const char *view);

/* lun_computed.c */
int lun_computed_read(lua_State *L, lun_State *S, lun_Object *o, int idx, int prop);
int lun_refresh(lua_State *L, lun_State *S, int32_t node);
int lun_refresh_walk(lua_State *L, lun_State *S, int32_t node, int isEffect);
int lun_settle(lua_State *L, lun_State *S, int32_t node);

/* lun_proxy.c */
void lun_open_proxy(lua_State *L);
void lun_proxy_push(lua_State *L, int owneridx, int prop, int rawidx);
void lun_proxy_unwrap(lua_State *L, int idx);
int lun_proxy_test(lua_State *L, int idx);
void lun_store_value(lua_State *L, int objidx, int prop);
void lun_snapshot(lua_State *L, int idx, const char *what);
int lun_values_equal(lua_State *L, int a, int b, int depth);

/* lun_walk.c: what a unit's run reports to the host builder */
typedef struct lun_Walk {
  int record;       /* stack index of the unit's record */
  int out;          /* stack index of the new out table */
  int32_t slots;    /* slots used in it */
  int life;         /* stack index of the new life table (0: the unit keeps none) */
  int depth;        /* views nested in the walk so far */
  int enabled;      /* lun_enabled.c: 0 not read yet, 1 enabled, 2 disabled */
  int marked;       /* lun_enabled.c: the open node is marked disabled */
  int32_t tx;       /* lun_transaction.c: the out slot of the transaction in effect (0: not made yet) */
  int32_t txcell;   /* lun_transaction.c: the out slot of the :transaction modifiers in effect (0: not read yet) */
  int open;         /* nodes the walk has open */
  int envsaves;     /* lun_envtransform.c: views open that set environment values in this body */
  const lun_Host *rt;
} lun_Walk;
void lun_walk_value(lua_State *L, lun_Walk *W, int v);
int lun_walk_unit(lua_State *L, lun_Walk *W, int32_t kind, int32_t typeId, const char *key, size_t klen,
                  int32_t *child);

/* lun_out.c: a run's output as records (LUN_OUT_* in clunette.h); each may
 * raise "not enough memory". The env, path and unit calls hand the records
 * written so far to the host first, then ask it. */
void lun_out_begin(lua_State *L, int kind, const char *text, size_t len);
void lun_out_position(lua_State *L, const char *slot, size_t len);
void lun_out_modifier(lua_State *L, const char *name, size_t nlen, const char *value, size_t vlen);
void lun_out_attr(lua_State *L, const char *name, size_t nlen, const char *value, size_t vlen);
void lun_out_slot(lua_State *L, int32_t role, int32_t slot);
void lun_out_end(lua_State *L);
void lun_out_site(lua_State *L, int32_t line);
void lun_out_record(lua_State *L, int32_t unit);
void lun_out_changed(lua_State *L, int32_t unit);
void lun_out_env_changed(lua_State *L);
void lun_out_animate(lua_State *L, const char *desc, size_t len);
int32_t lun_out_env(lua_State *L, const char *key, size_t klen, int32_t slot);
const char *lun_out_path(lua_State *L, size_t *len);
int lun_out_unit(lua_State *L, int32_t kind, int32_t typeId, const char *key, size_t klen, int32_t *unit);
void lun_out_flush(lua_State *L, lun_State *S);
void lun_out_free(lua_State *L, lun_State *S);

/* lun_completion.c: withAnimation's completion criteria (D05) */
void lun_completion_effect(lua_State *L, int32_t unit, int on);
void lun_completion_forget(lua_State *L);
void lun_completion_wrap(lua_State *L, int fidx, int ridx);
void lun_completion_schedule(lua_State *L, int ridx, int cidx, double duration, int removed);

/* lun_envtransform.c: view:transformEnvironment and the values a body sets, for the views inside */
int lun_modifier_transform_environment(lua_State *L);
void lun_envwalk_value(lua_State *L, lun_Walk *W, int list, lua_Integer i, int v, int kidx);
void lun_envwalk_set(lua_State *L, lun_Walk *W, int kidx, int vidx);
void lun_envwalk_leave(lua_State *L, lun_Walk *W);

/* lun_value.c: values described for people, and the keys identities are matched by */
void lun_describe(lua_State *L, int idx, int depth);
void lun_identity_key(lua_State *L, int idx);
void lun_explicit_key(lua_State *L, int idx);

/* lun_walktx.c: the walker's part of transactions (D06) */
void lun_walk_transaction(lua_State *L, lun_Walk *W, int v);
void lun_walk_inherited(lua_State *L, lun_Walk *W);
int lun_walk_disables(lua_State *L, lun_Walk *W);

/* lun_enabled.c: :disabled and isEnabled (D09) */
void lun_open_enabled(lua_State *L);
int lun_enabled_now(lua_State *L, lun_Walk *W);
void lun_enabled_enter(lua_State *L, lun_Walk *W, int v, int envSet, int hasMods);
void lun_enabled_env(lua_State *L, lun_Walk *W);
void lun_enabled_slot(lua_State *L, lun_Walk *W, int role, int32_t slot);
int lun_enabled_refuse(lua_State *L, const char *verb, const char *what);
void lun_enabled_check_arg(lua_State *L);

/* lun_focus.c: focus, one per scene (T05, D01) */
void lun_focus_claim(lua_State *L, int tidx, int kidx, int vidx);
void lun_focus_write(lua_State *L, int bidx, int vidx);
void lun_focus_walk(lua_State *L, lun_Walk *W, int fidx);

/* lun_life.c: modifiers that act around renders, and the events run after a flush */
enum { LUN_ON_APPEAR = 1, LUN_ON_DISAPPEAR, LUN_ON_TASK, LUN_ON_RECEIVE, LUN_ON_CHANGE };
/* Fields of a life entry (a table), as the modifiers record them. */
enum { LUN_LIFE_KIND = 1, LUN_LIFE_FN, LUN_LIFE_VALUE, LUN_LIFE_INITIAL, LUN_LIFE_BOX, LUN_LIFE_SUB, LUN_LIFE_TASK, LUN_LIFE_GONE };
enum { LUN_EVENT_CALL = 1, LUN_EVENT_CHANGE, LUN_EVENT_SUBSCRIBE, LUN_EVENT_TASK, LUN_EVENT_CANCEL };
void lun_life_add(lua_State *L, int lifeidx);
void lun_life_diff(lua_State *L, int recidx, int lifeidx, int32_t unit);
void lun_life_release(lua_State *L, int recidx, int32_t unit);
void lun_trace_event(lua_State *L, int32_t unit, const char *what);

/* lun_preference.c */
void lun_open_preference(lua_State *L);
int lun_preferences_run(lua_State *L);

/* lun_dynamic.c: ui.DynamicProperty */
void lun_open_dynamic(lua_State *L);
void lun_dynamic_expand(lua_State *L, int defidx, const char *view);
void lun_dynamic_sections(lua_State *L, int defidx, int infoidx);
void lun_dynamic_handle(lua_State *L, int recidx, int kidx);
void lun_dynamic_update(lua_State *L, int recidx);

/* lun_task.c */
void lun_open_task(lua_State *L);
void lun_task_start(lua_State *L, int entryidx, int32_t unit);
int lun_task_cancel(lua_State *L, int32_t task);
void lun_clock_once(lua_State *L, int fidx, double after);
void lun_task_deliver_cancel(lua_State *L, int32_t task);

/* lun_animation.c */
void lun_open_animation(lua_State *L);
int lun_animation_test(lua_State *L, int idx);
void lun_animation_check(lua_State *L, int arg);
void lun_animation_default(lua_State *L);

/* lun_publisher.c */
void lun_open_publisher(lua_State *L);
void lun_subject_push_new(lua_State *L);
void lun_subject_send(lua_State *L, int subjectidx, int vidx);

/* lun_host.c */
void lun_open_host(lua_State *L);
int lun_host_test(lua_State *L, int idx, int32_t *handle);
int lun_host_to_value(lua_State *L, int idx, lun_HostValue *v);
void lun_host_push_value(lua_State *L, const lun_HostValue *v);
const char *lun_host_typename(lua_State *L, int idx);
int lun_host_is_object(lua_State *L, int idx);
void lun_host_track_whole(lua_State *L, int idx);

/* lun_view.c */
void lun_open_view(lua_State *L);
int lun_view_test(lua_State *L, int idx);
int lun_view_new(lua_State *L, int kind);
void lun_view_name(lua_State *L, int idx);
int lun_viewtype_test(lua_State *L, int idx);
void lun_viewname_claim(lua_State *L, const char *name);   /* lun_viewname.c */

/* lun_modifier.c */
void lun_open_modifier(lua_State *L);

/* lun_alert.c */
int lun_modifier_alert(lua_State *L);
int lun_modifier_confirmation_dialog(lua_State *L);
void lun_walk_alert(lua_State *L, lun_Walk *W, int v);

/* lun_self.c */
void lun_open_self(lua_State *L);
void lun_self_create(lua_State *L, int recidx, int32_t unit);
void lun_self_init_state(lua_State *L, int recidx);
void lun_self_init(lua_State *L, int recidx);
void lun_self_subscribe(lua_State *L, int recidx);


/* lun_reach.c */
void lun_open_reach(lua_State *L);
int lun_died_by_error(lua_State *co);

/* lun_budget.c */
int lun_budget_begin(lua_State *L, lun_State *S, int bounded);
int lun_budget_end(lua_State *L, lun_State *S);
int lun_budget_lower(lun_State *S, double seconds);
int lun_budget_stopping(lun_State *S);
uint64_t lun_budget_clock(void);
int lun_budget_over(lun_State *S, uint64_t start);
/* An error value as a string, its __tostring run under the budget. */
int lun_error_string(lua_State *L, int idx);

/* lun_alloc.c */
int lun_alloc_adopt(lua_State *L, lun_State *S);

/* lun_update.c, lun_flush.c */
void lun_update(lua_State *L, lun_State *S, const lun_Ticket *ticket);
void lun_flush_now(lua_State *L);
int lun_run_due_now(lua_State *L, double upTo);
int lun_life_run_events(lua_State *L);
void lun_release_refs(lua_State *L, lun_State *S);

/* lun_env.c */
void lun_open_env(lua_State *L);
int lun_env_read(lua_State *L, int32_t unit, int keyidx, int mode, int nameidx);
void lun_env_type_key(lua_State *L, int idx);

/* lun_app.c */
/* An app, a node or an effect as Lua holds it: the host's id. */
typedef struct lun_Handle {
  int32_t id;
} lun_Handle;
void lun_open_app(lua_State *L);
int lun_ui_clock_advance(lua_State *L);   /* ui.clock.advance: moves the virtual clock, running what falls due */
void lun_app_check_idle(lua_State *L, const char *what);
void lun_handle_push(lua_State *L, int32_t id, const char *mt);

/* lun_node.c */
void lun_open_node(lua_State *L);
void lun_last_miss(lua_State *L);

/* lun_binding.c */
void lun_open_binding(lua_State *L);
int lun_binding_test(lua_State *L, int idx);
void lun_binding_get(lua_State *L, int idx);
void lun_binding_set(lua_State *L, int idx, int vidx);
void lun_binding_push_prop(lua_State *L, int objidx, int keyidx);
void lun_binding_target(lua_State *L, int idx);
void lun_bindable_push(lua_State *L, int objidx);
void lun_dismiss_push(lua_State *L, int bidx, int toNil);

/* lun_util.c */
/* How deep a recursion over script-made values (copies, walks, keys) may go. */
#define LUN_MAX_NESTING 200
/* The longest name of a view type (the host keeps each one). */
#define LUN_MAX_NAME 256
void lun_nest(lua_State *L, int depth, const char *what);
void lun_push_suggestion(lua_State *L, const char *name, int arrayidx, const char *const *list);
void lun_check_sections(lua_State *L, int tidx, const char *const *known, const char *owner);
void lun_check_keys(lua_State *L, int tidx, const char *const *known, const char *owner, const char *noun);
void lun_push_key_suggestion(lua_State *L, const char *name, int t1, int t2);
int lun_type_method(lua_State *L);
void lun_copy_shallow(lua_State *L, int idx);
int lun_type_define_method(lua_State *L);
int lun_error_here(lua_State *L, const char *fmt, ...);
void lun_where_lua(lua_State *L);
void lun_trace_write(lua_State *L, int32_t node);

#endif
