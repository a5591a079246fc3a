/*
 * life/life.h — the life room: what happens over time, around renders.
 *
 * Appear, disappear, tasks, onChange and onReceive (run after a flush),
 * the clock's tasks, animations and transactions, withAnimation's
 * completions, app and scene storage, environment keys and their reads,
 * and bindings (which carry animations). Calls the core and the model.
 */
#ifndef LUN_LIFE_H
#define LUN_LIFE_H

#include "core/core.h"

/* lun_life.c: modifiers that act around renders, and the events run after a flush */
enum { LUN_ON_APPEAR = 1, LUN_ON_DISAPPEAR, LUN_ON_TASK, LUN_ON_RECEIVE, LUN_ON_CHANGE };
/* Fields of a life entry (a table), as the modifiers record them. */
enum { LUN_LIFE_KIND = 1, LUN_LIFE_FN, LUN_LIFE_VALUE, LUN_LIFE_INITIAL, LUN_LIFE_BOX, LUN_LIFE_SUB, LUN_LIFE_TASK, LUN_LIFE_GONE, LUN_LIFE_ORDER };
void lun_life_add(lua_State *L, int lifeidx);
void lun_life_diff(lua_State *L, int recidx, int lifeidx, int32_t unit);
void lun_life_release(lua_State *L, int recidx, int32_t unit);
/* The state of the record at recidx ends (its view went, or is made anew):
 * the handles its properties hold (lun_handle.c) are cancelled once the
 * events queued so far ran, as a Combine AnyCancellable ends with the
 * @State holding it. [-0, +0] */
void lun_life_state_ends(lua_State *L, int recidx, int32_t unit);
void lun_life_cancel(lua_State *L, int32_t unit);                                   /* [-1, +0] */
int lun_life_run_events(lua_State *L, lun_State *S);
void lun_life_after_update(lua_State *L, int32_t unit);
void lun_trace_event(lua_State *L, int32_t unit, const char *what);

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

/* lun_transaction.c */
void lun_open_transaction(lua_State *L);
void lun_transaction_run(lua_State *L, int tidx, int fidx, int nargs);
int lun_transaction_try(lua_State *L, int tidx, int fidx, int nargs);
int32_t lun_animation_transaction(lua_State *L, int aidx);
int32_t lun_animation_run(lua_State *L, int aidx, int fidx, int nargs);
void lun_transaction_forget(lua_State *L, lun_State *S);
void lun_transaction_new(lua_State *L, int fromidx);
void lun_transaction_copy_of(lua_State *L, lua_Integer id);
const char *lun_transaction_animation(lua_State *L, int tidx, size_t *len);
int lun_transaction_disables(lua_State *L, int tidx);

/* lun_completion.c: withAnimation's completion criteria (D05) */
void lun_completion_forget(lua_State *L);
void lun_completion_wrap(lua_State *L, int fidx, int ridx);
void lun_completion_schedule(lua_State *L, int ridx, int cidx, double duration, int removed, int32_t txid);
void lun_completion_animated(lua_State *L, int32_t txid, int animated);
void lun_completion_settle(lua_State *L, lun_State *S);

/* lun_storage.c: app storage and scene storage */
void lun_open_storage(lua_State *L);
void lun_storage_cell(lua_State *L, int keyidx);
void lun_storage_check(lua_State *L, int vidx, const char *view, const char *name);
void lun_storage_sync(lua_State *L, lun_State *S);
void lun_storage_forget_types(lua_State *L);
void lun_storage_forget(lua_State *L);
void lun_storage_section_cell(lua_State *L, int secidx, int nidx, int scene);
void lun_storage_section_read(lua_State *L, int32_t unit, int secidx, int nidx, int scene);
void lun_storage_check_section(lua_State *L, int defidx, const char *section, const char *view);

/* lun_env.c: environment keys and reads */
enum { LUN_ENV_REQUIRED = 1, LUN_ENV_OPTIONAL, LUN_ENV_KEYED, LUN_ENV_OBJECT /* an environmentObject: required */ };
enum { LUN_ENV_OBSERVABLE = 1, LUN_ENV_OBSERVABLE_OBJECT };
int lun_env_declared(lua_State *L, int keyidx);
int lun_env_type_kind(lua_State *L, int idx);
int lun_env_reserved(const char *key);
void lun_open_env(lua_State *L);
int lun_env_read(lua_State *L, int32_t unit, int keyidx, int mode, int nameidx);
void lun_env_type_key(lua_State *L, int idx);
int lun_envbuiltin_is(const char *key);
int lun_env_system_key(const char *key);
void lun_env_system_write(lua_State *L, int keyidx, int vidx);   /* issue 19: a built-in value's name (colorScheme, …) */

/* lun_refresh.c: RefreshAction, the environment's `refresh` (issue 19) */
void lun_open_refresh(lua_State *L);
int lun_refresh_test(lua_State *L, int idx);
void lun_refresh_push(lua_State *L, int recidx, int32_t unit, int n, int fnidx);   /* [-0, +1] */
int lun_refresh_offered(lua_State *L, int aidx, int recidx, int32_t unit);          /* [-0, +0] */
int lun_refresh_reaches(lua_State *L, int recidx);                                 /* [-0, +0] */

/* lun_binding.c */
void lun_open_binding(lua_State *L);
int lun_binding_test(lua_State *L, int idx);
void lun_binding_get(lua_State *L, int idx);
void lun_binding_set(lua_State *L, int idx, int vidx);
/* A person's toggling through a Toggle's binding at idx: flips a boolean;
 * raises for another value, naming its type (never the value: it may be
 * secret). verb names the act. [-0, +0] */
void lun_binding_toggle(lua_State *L, int idx, const char *verb);
/* Typing the text at tidx into a field whose binding is at idx: the text,
 * or — a TextField (not secure) whose binding holds a number — the number
 * it reads as (finite; raises for text that is none, never quoting it). [-0, +0] */
void lun_binding_type(lua_State *L, int idx, int tidx, int secure, const char *verb);
/* The value lun_binding_type would write, checked: pushed, not written. [-0, +1] */
void lun_binding_typed(lua_State *L, int idx, int tidx, int secure, const char *verb);
/* 1 if the binding at idx is a ui.Binding(get, set) (or scoped from one):
 * reading it runs the script's get. [-0, +0] */
int lun_binding_is_functions(lua_State *L, int idx);
void lun_binding_push_prop(lua_State *L, int objidx, int keyidx);
void lun_binding_target(lua_State *L, int idx);
void lun_binding_get_secret(lua_State *L, int idx);           /* issue 19: a SecureField's text, hidden (lun_secret.c) */
int lun_binding_get_secrecy(lua_State *L, int idx);
void lun_bindable_push(lua_State *L, int objidx);
void lun_bindable_check(lua_State *L, int idx);
void lun_dismiss_push(lua_State *L, int bidx, int toNil);

/* lun_life.c: how many reloads have begun (a view's code may have changed since). [-0, +0] */
lua_Integer lun_reload_count(lua_State *L);
/* 1 while a reload runs (lun_reloading). */
int lun_life_reloading(lua_State *L);

#endif
