/*
 * core/core.h — the core room: what every other room stands on.
 *
 * The state's registry and its keys, sealed metatables and the checks a
 * script cannot forge, protected runs and the budget, memory, the run's
 * output as records (lun_out.c), the sandbox's libraries, the nesting
 * guard and the messages that name what went wrong. Nothing here calls a
 * higher room (model, life, view, drive). The graph has its own header
 * (include/lun_graph.h), shared with Swift.
 *
 * Naming: every function is lun_<area>_<what>. Functions registered with
 * Lua carry a one-line "[-in, +out]" summary of their stack effect.
 */
#ifndef LUN_CORE_H
#define LUN_CORE_H

#include "clunette.h"
#include "core/lun_host_calls.h"
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include <string.h>

/* The longest name of a view type or a model class (the host keeps each one). */
#define LUN_MAX_NAME 256

/* The rows a List realises unless ui.configure{ listWindow = n } says (P7). */
#define LUN_LIST_WINDOW 50

/* How deep a recursion over script-made values (copies, walks, keys) may go. */
#define LUN_MAX_NESTING 200

/* How many entries one copy, comparison or conversion of a script's value
 * may visit: a table shared along many paths is visited once per path (a
 * copy is a value: its paths are independent, as a Swift array's elements),
 * so a small value can stand for an exponential one — 22 levels of
 * t = {t, t} are 44 entries and 8 million paths. */
#define LUN_MAX_VISITED 1000000

/* How often (a power of two, in entries or nodes) a C walk over what a
 * script made looks at the budget (lun_budget_raise): its hook never fires
 * while C runs. */
#define LUN_BUDGET_CHECK_EVERY 4096

void lun_budget_raise(lua_State *L);
/* Looks at the budget (lun_budget_raise) when n, a C walk's count of what
 * it visited, is a multiple of LUN_BUDGET_CHECK_EVERY. [-0, +0] */
static inline void lun_budget_every(lua_State *L, unsigned long n) {
  if ((n & (LUN_BUDGET_CHECK_EVERY - 1)) == 0) lun_budget_raise(L);
}

/* The longest list a loop over a view value's raw lists (children,
 * modifiers, options) walks: a script may rawset a border far past what it
 * holds (t[2^52] = true), and a loop to it would never end. */
#define LUN_MAX_LIST 1000000

/* The raw length of the list at idx, raising past LUN_MAX_LIST. [-0, +0] */
static inline lua_Integer lun_rawlen_bounded(lua_State *L, int idx, const char *what) {
  lua_Unsigned n = lua_rawlen(L, idx);
  if (n > LUN_MAX_LIST) luaL_error(L, "%s has %I entries (at most %d)", what, (lua_Integer)(n > LUA_MAXINTEGER ? LUA_MAXINTEGER : n), LUN_MAX_LIST);
  return (lua_Integer)n;
}

/* lun_registry.c: registry keys (their addresses are the keys) and helpers */
extern const char lun_key_state;     /* the lun_State userdata */
extern const char lun_key_objects;   /* serial -> object (weak values) */
extern const char lun_key_proxies;   /* raw table -> proxy (weak keys) */
extern const char lun_key_hosts;     /* handle -> host userdata (weak values) */
extern const char lun_key_hosttypes; /* type index -> class table */
extern const char lun_key_envkeys;   /* key -> { default = f, value = v } */
extern const char lun_key_module;    /* the ui table */
extern const char lun_key_suspend;   /* the trampoline's error value */
void lun_registry_table(lua_State *L, const void *key);
void lun_registry_weak(lua_State *L, const void *key, const char *mode);
void lun_new_weak_table(lua_State *L, const char *mode);

/* Pushes t[k] without metamethods (view values have an __index), or nil
 * if the value at idx is no table (a script's value where one was
 * expected: lua_rawget would read it as one). Returns its type. */
static inline int lun_rawfield(lua_State *L, int idx, const char *k) {
  if (lua_type(L, idx) != LUA_TTABLE) { lua_pushnil(L); return LUA_TNIL; }
  idx = lua_absindex(L, idx);
  lua_pushstring(L, k);
  return lua_rawget(L, idx);
}

/* lun_keys.c: the field names the hot paths read (a run, a walk, self),
 * interned once per state, so reading one costs no string lookup; and
 * since Lua interns short strings, a key is one of them exactly when its
 * text is the same pointer (lun_State.keyNames). */
#define LUN_KEYS(X) X(INFO, "info") X(SELF, "self") X(BODY, "body") X(OUT, "out") \
  X(KIND, "kind") X(TEXT, "text") X(SLOTS, "slots") X(SECTIONS, "sections") X(INPUTS, "inputs") \
  X(UPDATES, "updates") X(OBJECTS, "objects") X(VALUE, "value") \
  X(ROW, "row") X(ELEM, "elem") X(INDEX, "index") X(FN, "fn") X(LIFE, "life") \
  X(IDENTITY, "identity") X(ENV, "env") X(MODS, "mods") X(TXFN, "txfn") X(ANIM, "anim") X(ATTRS, "attrs") \
  X(FOCUS, "focus") X(PREFS, "prefs") X(PREFWATCH, "prefWatch") X(SHEETSPEC, "sheetSpec") \
  X(ALERTSPEC, "alertSpec") X(EXTRAS, "extras") X(TYPE, "type") X(UNIT, "unit") X(ID, "id") X(SITE, "site")
#define LUN_KEY_ENUM_(id, name) LUN_K_##id,
enum { LUN_KEYS(LUN_KEY_ENUM_) LUN_KEY_COUNT };
#undef LUN_KEY_ENUM_
void lun_keys_open(lua_State *L, lun_State *S);

/* Pushes t[k] for the table at idx, without metamethods. Returns its type. [-0, +1] */
static inline int lun_getkey(lua_State *L, const lun_State *S, int idx, int k) {
  idx = lua_absindex(L, idx);
  lua_rawgeti(L, LUA_REGISTRYINDEX, S->keyRefs[k]);
  return lua_rawget(L, idx);
}

/* t[k] = the value on top, for the table at idx, without metamethods. [-1, +0] */
static inline void lun_setkey(lua_State *L, const lun_State *S, int idx, int k) {
  idx = lua_absindex(L, idx);
  lua_rawgeti(L, LUA_REGISTRYINDEX, S->keyRefs[k]);
  lua_insert(L, -2);
  lua_rawset(L, idx);
}

/* 1 if the value at idx is of Lua type `type` and has the metatable `meta`
 * (one the registry keeps alive: its identity cannot be forged, and no
 * name is looked up). [-0, +0] */
static inline int lun_has_meta(lua_State *L, int idx, int type, const void *meta) {
  int same;
  if (lua_type(L, idx) != type || !lua_getmetatable(L, idx)) return 0;
  same = lua_topointer(L, -1) == meta;
  lua_pop(L, 1);
  return same;
}

/* 1 if the value at idx is a view value. [-0, +0] */
static inline int lun_is_view(lua_State *L, int idx) {
  return lun_has_meta(L, idx, LUA_TTABLE, lun_state(L)->viewMeta);
}

/* lun_seal.c: metatables scripts cannot reach, and checks they cannot forge */
enum { LUN_SEAL_OBJECT = 1, LUN_SEAL_HOST, LUN_SEAL_CLASS };
extern const char lun_key_sealed;
int lun_newmetatable(lua_State *L, const char *name);
void lun_newmetatable_methods(lua_State *L, const char *name, const luaL_Reg *methods);
void lun_seal(lua_State *L, int idx, int kind, const char *name);
int lun_sealed_kind(lua_State *L, int idx);

/* The userdata at arg if its metatable is exactly the one at mtidx (a
 * metamethod's upvalue), as luaL_checkudata checks; raises naming `what`
 * otherwise. It is on the hot path of every tracked read, so it takes four
 * cheap API calls (two pointers compared: lua_rawequal costs three times
 * as much) and leaves the metatable pushed: only for metamethods that use
 * relative indices after it. [-0, +1] */
static inline void *lun_check_self_pushing(lua_State *L, int arg, int mtidx, const char *what) {
  void *p = lua_touserdata(L, arg);
  if (!p || !lua_getmetatable(L, arg) || lua_topointer(L, -1) != lua_topointer(L, mtidx))   /* tables: by identity */
    luaL_typeerror(L, arg, what);
  return p;
}

/* lun_check_self_pushing, leaving the stack as it was. [-0, +0] */
static inline void *lun_check_self(lua_State *L, int arg, int mtidx, const char *what) {
  void *p = lun_check_self_pushing(L, arg, mtidx, what);
  lua_pop(L, 1);
  return p;
}

/* lun_sources.c: the files the runtime loaded, their texts and numbers */
void lun_sources_wrap_searcher(lua_State *L);                                          /* [-0, +0] */
void lun_sources_wrap_file_loaders(lua_State *L);                                      /* [-0, +0] */
int32_t lun_sources_number(lua_State *L, lun_State *S, const char *source, size_t srclen);   /* may raise */

/* lun_scriptwork.c: the handle at idx, cancelled by `cancel(handle)` and
 * still running while `live(handle)` says true, is the running script's
 * work (lun_script_work), if a script runs — or, while an effect of a
 * script's runs runs (lun_State.runScript), that run's. Returns the number
 * of the run's list it joined (0: none). [-0, +0] */
int32_t lun_script_adopt(lua_State *L, int idx, lua_CFunction cancel, lua_CFunction live);

/* lun_handle.c: the kinds of handle to work that goes on. lun_handle_kind:
 * handles whose metatable is the registered `meta` are cancelled by
 * `cancel(handle)` (it runs no script code). lun_handle_cancel_of: 1, and
 * pushes its kind's cancel, if the value at idx is such a handle; else 0,
 * pushing nothing. [-0, +0] / [-0, +(0|1)] */
void lun_handle_kind(lua_State *L, const char *meta, lua_CFunction cancel);
int lun_handle_cancel_of(lua_State *L, int idx);

/* lun_protect.c: protected runs, their error kept as the last error message */
extern const char lun_key_lasterror, lun_key_fallback, lun_key_toodeep;
int lun_protect(lua_State *L, int nargs, int nresults);
int lun_protect_event(lua_State *L, int nargs, int nresults, int32_t unit);
int lun_protect_run(lua_State *L, int nargs, int nresults, int bounded);
void lun_capture_error(lua_State *L);

/* lun_budget.c: the budget of each entry (R26) */
int lun_budget_begin(lua_State *L, lun_State *S, int bounded);
int lun_budget_end(lua_State *L, lun_State *S);
void lun_budget_close(lun_Budget *b);
int lun_budget_lower(lun_State *S, double seconds);
uint64_t lun_budget_script_limit(lun_State *S);
void lun_budget_set_script_limit(lun_State *S, uint64_t ns);
int lun_budget_stopping(lun_State *S);
void lun_typename_claim(lua_State *L, const char *call, const char *noun, const char *name);   /* lun_typename.c */
void lun_budget_raise_at(lua_State *L, const char *where);

/* lun_pattern.c: string.find, match, gmatch and gsub under the budget */
void lun_open_patterns(lua_State *L);
uint64_t lun_budget_clock(void);
double lun_test_clock(void);
int lun_test_overdue(const lun_State *S);
int lun_budget_over(lun_State *S, uint64_t start);
/* An error value as a string, its __tostring run under the budget. */
int lun_error_string(lua_State *L, int idx);

/* lun_alloc.c: the state's allocator and its cap */
int lun_alloc_adopt(lua_State *L, lun_State *S);

/* lun_reach.c: what a script may reach (coroutines, debug) */
void lun_open_reach(lua_State *L);
int lun_died_by_error(lua_State *co);

/* lun_out.c: a run's output as records (LUN_OUT_* in clunette.h); each may
 * raise "not enough memory". The env, path and unit calls hand the records
 * written so far to the host first, then ask it. */
void lun_out_begin(lua_State *L, int kind, const char *text, size_t len);
void lun_out_position(lua_State *L, const char *slot, size_t len);
void lun_out_modifier(lua_State *L, const char *name, size_t nlen, const char *value, size_t vlen);
void lun_out_attr(lua_State *L, const char *name, size_t nlen, const char *value, size_t vlen);
void lun_out_slot(lua_State *L, int32_t role, int32_t slot);
void lun_out_end(lua_State *L);
void lun_out_site(lua_State *L, int32_t file, int32_t line);
void lun_out_record(lua_State *L, int32_t unit);
void lun_out_changed(lua_State *L, int32_t unit);
void lun_out_env_changed(lua_State *L);
void lun_out_animate(lua_State *L, const char *desc, size_t len);
int32_t lun_out_env(lua_State *L, const char *key, size_t klen, int32_t slot);
const char *lun_out_path(lua_State *L, size_t *len);
int lun_out_unit(lua_State *L, int32_t kind, int32_t typeId, const char *key, size_t klen, int32_t *unit);
void lun_out_flush(lua_State *L, lun_State *S);
void lun_out_free(lua_State *L, lun_State *S);
/* A plain run (lun_Ticket.plain): starts one, tells the host it began when
 * it must hear (before any question about the run), and ends it as an entry
 * of the batch's one units_done call when it may (1: ended; 0: the full path
 * is due); sends the entries held (before any other word about a unit).
 * Never raise. */
void lun_out_plain_start(lun_State *S, int32_t unit);
void lun_out_begun(lua_State *L, lun_State *S);
int lun_out_plain_done(lua_State *L, lun_State *S, int hold, int *ended);
int lun_out_done_send(lua_State *L, lun_State *S);
void lun_out_done_free(lua_State *L, lun_State *S);

/* lun_callback.c: a callback is a function, or a script's table whose __call
 * is one (a busted spy): checked and replaced in place by a function; is it
 * one; the function it runs (for its place in messages). */
void lun_check_callback(lua_State *L, int arg);
int lun_is_callable(lua_State *L, int idx);                                        /* [-0, +0] */
void lun_push_callee(lua_State *L, int idx);                                       /* [-0, +1] */

/* lun_util.c: nesting, errors that name their place, suggestions, copies */
void lun_nest(lua_State *L, int depth, const char *what);
void lun_push_suggestion(lua_State *L, const char *name, int arrayidx, const char *const *list);
int lun_names_one_of(lua_State *L, int idx, const char *const *list);               /* [-0, +0] */
void lun_check_sections(lua_State *L, int tidx, const char *const *known, const char *owner);
void lun_check_keys(lua_State *L, int tidx, const char *const *known, const char *owner, const char *noun);
void lun_no_extra(lua_State *L, const char *call, int most, int self);
int lun_usual_extra(lua_State *L, int i, int rows);
void lun_no_extra_view(lua_State *L, const char *name, int most);
void lun_push_place(lua_State *L, int fidx);
void lun_push_key_suggestion(lua_State *L, const char *name, int t1, int t2);
int lun_type_method(lua_State *L);
int lun_type_define_method(lua_State *L);
void lun_copy_shallow(lua_State *L, int idx);
void lun_sort_strings(lua_State *L, int idx, lua_Integer n);
int lun_error_here(lua_State *L, const char *fmt, ...);
void lun_where_lua(lua_State *L);
void lun_trace_write(lua_State *L, int32_t node);
void lun_check_name_text(lua_State *L, int arg, const char *what);

#endif
