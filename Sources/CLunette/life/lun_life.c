/*
 * lun_life.c — what happens around renders: :onAppear, :onDisappear,
 * :task, :onReceive and :onChange, and the queue of events that runs after
 * each flush (never inside a body).
 *
 * Each render collects the life modifiers of its output into a table keyed
 * by node position and kind (lun_life_add). Comparing it with the previous
 * render's (lun_life_diff) tells what appeared, what stayed and what went:
 * appearing queues onAppear calls, task starts, subscriptions and initial
 * onChange calls; staying compares onChange values and keeps tasks and
 * subscriptions; going queues onDisappear calls and cancels the rest. A
 * disposed unit's entries all go (lun_life_release).
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include <stdlib.h>

/* The events a flush runs after its renders, in order. */
enum { LUN_EVENT_CALL = 1, LUN_EVENT_CHANGE, LUN_EVENT_SUBSCRIBE, LUN_EVENT_TASK, LUN_EVENT_CANCEL };

/* Fields of a queued event (a table). */
enum { LUN_EV_KIND = 1, LUN_EV_UNIT, LUN_EV_A, LUN_EV_B, LUN_EV_C, LUN_EV_GONE /* a gone view's name */ };

static const char lun_key_events = 0;
static const char lun_key_reloading = 0;
static const char lun_key_reloads = 0;     /* how many reloads began (lun_reload_count) */

/* Protected part of lun_reloading: the flag lives in the registry. */
static int lun_reloading_k(lua_State *L) {
  int on = (int)lua_tointeger(L, 1);
  lua_pushboolean(L, on);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_reloading);
  if (on) {
    lua_Integer n = lun_reload_count(L);
    lua_pushinteger(L, n < LUA_MAXINTEGER ? n + 1 : n);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_reloads);
    lun_storage_forget_types(L);                  /* the new text's declarations type its keys */
  }
  return 0;
}

/* How many reloads have begun in this state (0: none). [-0, +0] */
lua_Integer lun_reload_count(lua_State *L) {
  lua_Integer n = lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_reloads) == LUA_TNUMBER ? lua_tointeger(L, -1) : 0;
  lua_pop(L, 1);
  return n;
}

/* While a script runs again (a reload), the tasks of views that stay start anew. */
int lun_reloading(lua_State *L, int on) {
  if (!lua_checkstack(L, 3)) return LUN_ERROR;
  lua_pushcfunction(L, lun_reloading_k);
  lua_pushinteger(L, on);
  return lun_protect(L, 1, 0);
}

/* 1 while a reload runs. */
int lun_life_reloading(lua_State *L) {
  int on = lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_reloading) == LUA_TBOOLEAN && lua_toboolean(L, -1);
  lua_pop(L, 1);
  return on;
}

/* Appends an event { kind, unit, a, b, c } taking the top n (<= 3) values. [-n, +0] */
/* Pushes the name of unit, whose record is being released (the host still
 * names it while it is). [-0, +1] */
static void lun_life_push_gone_name(lua_State *L, int32_t unit) {
  size_t len;
  const char *name = lunh(lun_state(L)->rt, output, unit_name, unit, &len);
  lua_pushlstring(L, name ? name : "view", name ? len : 4);
}

static void lun_life_queue(lua_State *L, int kind, int32_t unit, int n) {
  int i;
  lua_createtable(L, 5, 0);
  lua_pushinteger(L, kind);
  lua_rawseti(L, -2, LUN_EV_KIND);
  lua_pushinteger(L, unit);
  lua_rawseti(L, -2, LUN_EV_UNIT);
  if (unit && unit == lun_state(L)->releasing) {  /* an event of a view going: its name, for its failure */
    lun_life_push_gone_name(L, unit);
    lua_rawseti(L, -2, LUN_EV_GONE);
  }
  for (i = n; i >= 1; i--) {
    lua_pushvalue(L, -1 - i);
    lua_rawseti(L, -2, LUN_EV_A + n - i);
  }
  lun_registry_table(L, &lun_key_events);
  lun_state(L)->flushWork |= LUN_WORK_EVENTS;
  lua_insert(L, -2);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_pop(L, 1 + n);
}

/* Queues the function on top to run after the updates of the flush's
 * current round (or of its first, outside a flush), as an event of unit
 * (0: none); errors are reported as an event's are. [-1, +0] */
void lun_life_after_update(lua_State *L, int32_t unit) {
  lun_life_queue(L, LUN_EVENT_CALL, unit, 1);
}

/* 1 if the key on top with copy number n ("base" for 1, "base+n" past it)
 * names an entry of the life table at lifeidx. [-0, +0] */
static int lun_life_taken(lua_State *L, int lifeidx, lua_Integer n) {
  int taken;
  lua_pushvalue(L, -1);
  if (n > 1) {                                    /* the whole base (it may hold a NUL), then "+n" */
    lua_pushfstring(L, "+%I", (LUAI_UACINT)n);
    lua_concat(L, 2);
  }
  taken = lua_rawget(L, lifeidx) != LUA_TNIL;
  lua_pop(L, 1);
  return taken;
}

/* Replaces the key on top (taken) by its first free copy, "base+n": a
 * second modifier of one kind on one node gets its own key. The copies of
 * a run are numbered without gaps, so the free one is found by doubling,
 * then halving — a few lookups, not one per copy before it. [-1, +1] */
static void lun_life_next_key(lua_State *L, int lifeidx) {
  lua_Integer lo = 1, hi = 2, mid;
  while (lun_life_taken(L, lifeidx, hi)) { lo = hi; hi *= 2; }
  while (hi - lo > 1) {
    mid = lo + (hi - lo) / 2;
    if (lun_life_taken(L, lifeidx, mid)) lo = mid; else hi = mid;
  }
  lua_pushfstring(L, "+%I", (LUAI_UACINT)hi);
  lua_concat(L, 2);
}

/* Records a life modifier { kind, fn, value, initial } of the open node in
 * the new life table at lifeidx (nil until the run's first entry makes it).
 * The modifier record is on top. [-0, +0] */
void lun_life_add(lua_State *L, int lifeidx) {
  size_t plen;
  const char *path;
  int kind;
  if (lua_isnil(L, lifeidx)) {                    /* the run's first entry: its list is made now */
    lua_newtable(L);
    lua_replace(L, lifeidx);
  }
  path = lun_out_path(L, &plen);
  lua_rawgeti(L, -1, LUN_LIFE_KIND);
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  lua_pushlstring(L, path, plen);                 /* the whole path: a row's id may hold a NUL */
  lua_pushfstring(L, "|%d", kind);
  lua_concat(L, 2);
  if (lun_life_taken(L, lifeidx, 1)) lun_life_next_key(L, lifeidx);
  lua_createtable(L, 9, 0);                       /* a fresh entry: records are shared by renders */
  lua_pushnil(L);
  while (lua_next(L, -4)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  lua_pushinteger(L, (lua_Integer)++lun_state(L)->lifeOrder);   /* its events run in the order it was made */
  lua_rawseti(L, -2, LUN_LIFE_ORDER);
  lua_rawset(L, lifeidx);
}

typedef struct lun_LifeSlot {
  lua_Integer order;
  int index;
} lun_LifeSlot;

static int lun_life_slot_cmp(const void *a, const void *b) {
  lua_Integer x = ((const lun_LifeSlot *)a)->order, y = ((const lun_LifeSlot *)b)->order;
  return x < y ? -1 : x > y;
}

/* Pushes the keys of the life table at t as a sequence, in the order their
 * entries were made (LUN_LIFE_ORDER): the walk's order, so sibling views'
 * onAppear, tasks and onDisappear run in it, not in the table's (which
 * Lua's hash seed shuffles from process to process). Returns how many. [-0, +1] */
static int lun_life_keys(lua_State *L, int t) {
  int n = 0, i, keys, sorted;
  lun_LifeSlot *slots;
  t = lua_absindex(L, t);
  lua_newtable(L);
  keys = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, keys, ++n);
  }
  if (n < 2) return n;
  slots = (lun_LifeSlot *)lua_newuserdatauv(L, sizeof(lun_LifeSlot) * (size_t)n, 0);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, keys, i + 1);
    lua_rawget(L, t);
    slots[i].order = lua_istable(L, -1) && lua_rawgeti(L, -1, LUN_LIFE_ORDER) == LUA_TNUMBER ? lua_tointeger(L, -1) : 0;
    slots[i].index = i + 1;
    lua_settop(L, keys + 1);
  }
  qsort(slots, (size_t)n, sizeof(lun_LifeSlot), lun_life_slot_cmp);
  lua_createtable(L, n, 0);
  sorted = lua_gettop(L);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, keys, slots[i].index);
    lua_rawseti(L, sorted, i + 1);
  }
  lua_replace(L, keys);
  lua_settop(L, keys);
  return n;
}

/* Calls :sink on the publisher of entry e (at eidx) with its box's forwarder; keeps the cancellable. */
static int lun_life_forward(lua_State *L) {
  lun_State *S = lun_state(L);
  int32_t saved = S->active;
  if (lua_getfield(L, lua_upvalueindex(1), "action") == LUA_TNIL) return 0;   /* its view went: nothing runs */
  lua_pushvalue(L, 1);
  S->active = 0;
  lua_call(L, 1, 0);
  S->active = saved;
  return 0;
}

/* What appears: queues what runs after the flush. */
static void lun_life_appear(lua_State *L, int eidx, int32_t unit) {
  int kind;
  lua_rawgeti(L, eidx, LUN_LIFE_KIND);
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  switch (kind) {
    case LUN_ON_APPEAR:
      lua_rawgeti(L, eidx, LUN_LIFE_FN);
      lun_life_queue(L, LUN_EVENT_CALL, unit, 1);
      break;
    case LUN_ON_TASK:
    case LUN_ON_RECEIVE:
      lua_pushvalue(L, eidx);
      lun_life_queue(L, kind == LUN_ON_TASK ? LUN_EVENT_TASK : LUN_EVENT_SUBSCRIBE, unit, 1);
      break;
    case LUN_ON_CHANGE:
      lua_rawgeti(L, eidx, LUN_LIFE_INITIAL);
      if (lua_toboolean(L, -1)) {
        lua_rawgeti(L, eidx, LUN_LIFE_FN);
        lua_rawgeti(L, eidx, LUN_LIFE_VALUE);
        lua_rawgeti(L, eidx, LUN_LIFE_VALUE);
        lun_life_queue(L, LUN_EVENT_CHANGE, unit, 3);
      }
      lua_pop(L, 1);
      break;
    default:
      break;
  }
}

/* Cancels the subscription of entry e (at eidx), if any, and marks e gone so a queued one never starts. */
static void lun_life_unsubscribe(lua_State *L, int eidx, int32_t unit) {
  eidx = lua_absindex(L, eidx);
  lua_pushboolean(L, 1);
  lua_rawseti(L, eidx, LUN_LIFE_GONE);
  if (lua_rawgeti(L, eidx, LUN_LIFE_BOX) == LUA_TTABLE) {   /* its forwarder calls nothing from now on, */
    lua_pushnil(L);                                         /* whatever the publisher's cancel does */
    lua_setfield(L, -2, "action");
  }
  lua_pop(L, 1);
  lua_rawgeti(L, eidx, LUN_LIFE_SUB);
  lun_life_cancel(L, unit);
}

/* Protected part of lun_life_cancel: (subscription) -> (). */
static int lun_life_cancel_k(lua_State *L) {
  if (luaL_getmetafield(L, 1, "__index") != LUA_TNIL) {
    lua_getfield(L, -1, "cancel");
    lua_pushvalue(L, 1);
    lua_call(L, 1, 0);
  }
  return 0;
}

/* Tells the host that an event of unit raised msg; a view that is going
 * (its name at gone, 0: none) is named in the message, as the host names
 * a mounted one: the host no longer knows it. [-0, +0] */
static void lun_life_failed(lua_State *L, int32_t unit, int gone, const char *msg, size_t len) {
  int top = lua_gettop(L);
  if (gone && lua_type(L, gone) == LUA_TSTRING && lua_checkstack(L, 3)) {
    lua_pushvalue(L, gone);
    lua_pushliteral(L, ": ");
    lua_pushlstring(L, msg, len);
    lua_concat(L, 3);
    msg = lua_tolstring(L, -1, &len);
    unit = 0;
  }
  lunh(lun_state(L)->rt, inspect, event_failed, unit, msg, len);
  lua_settop(L, top);
}

/* Cancels the subscription on top (nil: none), made by unit's onReceive or
 * a task's ui.await: a script's publisher may make its cancel, which runs
 * as a run of its own; what it raises is reported as the unit's event's,
 * and the rest of what goes goes on (its tasks stop). [-1, +0] */
void lun_life_cancel(lua_State *L, int32_t unit) {
  lun_State *S = lun_state(L);
  size_t len;
  const char *msg;
  int status;
  if (lua_isnil(L, -1) || !lua_checkstack(L, 4)) { lua_pop(L, 1); return; }
  lua_pushcfunction(L, lun_life_cancel_k);
  lua_insert(L, -2);
  S->cancelling++;                                /* it may not flush, mount or unmount (lun_app_check_idle): */
  status = lun_protect(L, 1, 0);                  /* views are going around it */
  S->cancelling--;
  if (status == LUN_OK) return;
  msg = lun_last_error(L, &len);
  if (unit && unit == S->releasing) {
    lun_life_push_gone_name(L, unit);
    lun_life_failed(L, unit, lua_gettop(L), msg, len);
    lua_pop(L, 1);
  } else
    lun_life_failed(L, unit, 0, msg, len);
}

/* What goes: onDisappear is queued; tasks and subscriptions stop now. */
static void lun_life_disappear(lua_State *L, int eidx, int32_t unit) {
  int kind;
  eidx = lua_absindex(L, eidx);
  lua_rawgeti(L, eidx, LUN_LIFE_KIND);
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  if (kind == LUN_ON_DISAPPEAR) {
    lua_rawgeti(L, eidx, LUN_LIFE_FN);
    lun_life_queue(L, LUN_EVENT_CALL, unit, 1);
  } else if (kind == LUN_ON_TASK) {
    if (lua_rawgeti(L, eidx, LUN_LIFE_TASK) == LUA_TNUMBER && lun_task_cancel(L, (int32_t)lua_tointeger(L, -1)))
      lun_life_queue(L, LUN_EVENT_CANCEL, unit, 1);   /* it sees its cancellation after the update */
    else
      lua_pop(L, 1);
    lua_pushboolean(L, 1);
    lua_rawseti(L, eidx, LUN_LIFE_GONE);         /* a task queued but not started yet never starts */
  } else if (kind == LUN_ON_RECEIVE) {
    lun_life_unsubscribe(L, eidx, unit);
  }
}

/* Old entry (at oidx) not started yet (field unset): new entry (at eidx) is queued in its place; stack unchanged. */
static int lun_life_pending(lua_State *L, int oidx, int eidx, int field, int event, int32_t unit) {
  int pending = lua_rawgeti(L, oidx, field) == LUA_TNIL;
  lua_pop(L, 1);
  if (!pending) return 0;
  lua_pushboolean(L, 1);
  lua_rawseti(L, oidx, LUN_LIFE_GONE);
  lua_pushvalue(L, eidx);
  lun_life_queue(L, event, unit, 1);
  return 1;
}

/* 1 if the task entry at eidx has an id (:task(fn, { id = v })) that differs from the old one's. */
static int lun_life_task_id_changed(lua_State *L, int oidx, int eidx, int32_t unit) {
  int changed = 0;
  lua_rawgeti(L, eidx, LUN_LIFE_INITIAL);
  if (lua_toboolean(L, -1)) {
    lua_rawgeti(L, oidx, LUN_LIFE_VALUE);
    lua_rawgeti(L, eidx, LUN_LIFE_VALUE);
    changed = !lun_values_equal_caught(L, unit, 1);   /* by contents, as Swift's Equatable ids (F10); an
                                                         __eq that raises: its view's error, the task kept */
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
  return changed;
}

/* What stays (old at oidx, new at eidx): keeps tasks and subscriptions, compares onChange values. */
static void lun_life_stay(lua_State *L, int oidx, int eidx, int32_t unit) {
  int kind;
  lua_rawgeti(L, eidx, LUN_LIFE_KIND);
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  switch (kind) {
    case LUN_ON_TASK:
      if (lun_life_pending(L, oidx, eidx, LUN_LIFE_TASK, LUN_EVENT_TASK, unit)) break;
      /* :task(fn, { id = v }) with a new v: start anew (F06); so on a reload (its models are new) */
      if (lun_life_task_id_changed(L, oidx, eidx, unit) || lun_life_reloading(L)) {
        lun_life_disappear(L, oidx, unit);
        lua_pushvalue(L, eidx);
        lun_life_queue(L, LUN_EVENT_TASK, unit, 1);
        break;
      }
      lua_rawgeti(L, oidx, LUN_LIFE_TASK);
      lua_rawseti(L, eidx, LUN_LIFE_TASK);
      break;
    case LUN_ON_RECEIVE:
      if (lun_life_pending(L, oidx, eidx, LUN_LIFE_BOX, LUN_EVENT_SUBSCRIBE, unit)) break;
      lua_rawgeti(L, oidx, LUN_LIFE_VALUE);
      lua_rawgeti(L, eidx, LUN_LIFE_VALUE);
      if (!lua_rawequal(L, -1, -2)) {             /* another publisher: subscribe anew */
        lun_life_unsubscribe(L, oidx, unit);
        lua_pushvalue(L, eidx);
        lun_life_queue(L, LUN_EVENT_SUBSCRIBE, unit, 1);
      } else {
        lua_rawgeti(L, oidx, LUN_LIFE_SUB);
        lua_rawseti(L, eidx, LUN_LIFE_SUB);
        lua_rawgeti(L, oidx, LUN_LIFE_BOX);
        lua_rawgeti(L, eidx, LUN_LIFE_FN);
        lua_setfield(L, -2, "action");
        lua_rawseti(L, eidx, LUN_LIFE_BOX);
      }
      lua_pop(L, 2);
      break;
    case LUN_ON_DISAPPEAR:                        /* a sheet's onDismiss keyed by its item (lun_walk_sheet):
                                                     another item replaces the sheet, so the old one goes */
      lua_rawgeti(L, oidx, LUN_LIFE_VALUE);
      lua_rawgeti(L, eidx, LUN_LIFE_VALUE);
      if (!lua_rawequal(L, -1, -2)) {             /* keys (strings) or nil: equal keys, equal items */
        lua_pop(L, 2);
        lun_life_disappear(L, oidx, unit);
      } else lua_pop(L, 2);
      break;
    case LUN_ON_CHANGE:
      lua_rawgeti(L, oidx, LUN_LIFE_VALUE);
      lua_rawgeti(L, eidx, LUN_LIFE_VALUE);
      if (!lun_values_equal_caught(L, unit, 1)) { /* snapshots by contents (F10), the rest by ==; an __eq */
                                                  /* that raises: its view's error, no change told */
        lua_rawgeti(L, eidx, LUN_LIFE_FN);
        lua_insert(L, -3);
        lun_life_queue(L, LUN_EVENT_CHANGE, unit, 3);
      } else lua_pop(L, 2);
      break;
    default:
      break;
  }
}

/* Compares the new life table (at lifeidx; nil when the run had none) with
 * the record's (at recidx) and keeps the new one. [-0, +0] */
/* The entries of the life table at t go, in the order they were made. [-0, +0] */
static void lun_life_disappear_all(lua_State *L, int t, int32_t unit) {
  int n, i, keys;
  t = lua_absindex(L, t);
  n = lun_life_keys(L, t);
  keys = lua_gettop(L);
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, keys, i);
    if (lua_rawget(L, t) == LUA_TTABLE) lun_life_disappear(L, -1, unit);
    lua_settop(L, keys);
  }
  lua_pop(L, 1);
}

void lun_life_diff(lua_State *L, int recidx, int lifeidx, int32_t unit) {
  const lun_State *S = lun_state(L);
  int old, keys, n, i, fresh = lua_istable(L, lifeidx);
  recidx = lua_absindex(L, recidx);
  if (lun_getkey(L, S, recidx, LUN_K_LIFE) == LUA_TNIL) {
    lua_pop(L, 1);
    if (!fresh) return;                           /* nothing before, nothing now: the common case */
    lua_newtable(L);
  }
  old = lua_gettop(L);
  n = fresh ? lun_life_keys(L, lifeidx) : (lua_newtable(L), 0);
  keys = lua_gettop(L);
  for (i = 1; i <= n; i++) {                      /* in the walk's order */
    lua_rawgeti(L, keys, i);                      /* keys+1: the key */
    lua_pushvalue(L, -1);
    lua_rawget(L, lifeidx);                       /* keys+2: the entry */
    lua_pushvalue(L, keys + 1);
    if (lua_rawget(L, old) == LUA_TNIL) {
      lun_life_appear(L, keys + 2, unit);
    } else {
      lun_life_stay(L, keys + 3, keys + 2, unit);
      lua_pushvalue(L, keys + 1);
      lua_pushnil(L);
      lua_rawset(L, old);
    }
    lua_settop(L, keys);
  }
  lua_pop(L, 1);
  lun_life_disappear_all(L, old, unit);
  lua_pop(L, 1);
  lua_pushvalue(L, lifeidx);
  lun_setkey(L, S, recidx, LUN_K_LIFE);
}

/* Cancels the handles the state holder (upvalue 1) holds in its own
 * properties, not inside tables there: () -> (). */
static int lun_life_state_end_k(lua_State *L) {
  lun_Object *o = lun_object_test(L, lua_upvalueindex(1));
  int prop;
  for (prop = 1; o && prop <= o->cls->nprops; prop++) {
    lua_getiuservalue(L, lua_upvalueindex(1), prop);
    if (lun_handle_cancel_of(L, -1)) {
      lua_insert(L, -2);
      lua_call(L, 1, 0);
    } else lua_pop(L, 1);
  }
  return 0;
}

/* 1 if the state holder at idx holds a handle in one of its properties. */
static int lun_life_holds_handle(lua_State *L, int idx) {
  lun_Object *o = lun_object_test(L, idx);
  int prop, found = 0;
  for (prop = 1; o && !found && prop <= o->cls->nprops; prop++) {
    lua_getiuservalue(L, idx, prop);
    if ((found = lun_handle_cancel_of(L, -1))) lua_pop(L, 1);
    lua_pop(L, 1);
  }
  return found;
}

void lun_life_state_ends(lua_State *L, int recidx, int32_t unit) {
  if (lua_getfield(L, recidx, "state") == LUA_TUSERDATA && lun_life_holds_handle(L, -1)) {
    lua_pushcclosure(L, lun_life_state_end_k, 1);
    lun_life_queue(L, LUN_EVENT_CALL, unit, 1);   /* after its onDisappear, which may still use them */
  } else lua_pop(L, 1);
}

/* A unit's record is released: everything it had goes. */
void lun_life_release(lua_State *L, int recidx, int32_t unit) {
  int refreshing, life;
  recidx = lua_absindex(L, recidx);
  if (lun_refresh_reaches(L, recidx)) {           /* a refresh action holding the record sees the unit is gone */
    lua_pushboolean(L, 1);                        /* (only then: a new field in a full record rehashes it) */
    lua_setfield(L, recidx, "gone");
  }
  refreshing = lua_getfield(L, recidx, "refreshing") == LUA_TTABLE;
  life = lua_getfield(L, recidx, "life") == LUA_TTABLE;
  if (refreshing || life) lun_state(L)->releasing = unit;   /* until 0 again, what its code raises names it */
  if (refreshing) lun_life_disappear(L, -2, unit);   /* node:refresh()'s task (issue 19) */
  if (life) {
    lun_life_disappear_all(L, -1, unit);
    lua_pushnil(L);
    lua_setfield(L, recidx, "life");
  }
  lua_pop(L, 2);
  lun_life_state_ends(L, recidx, unit);
  lun_state(L)->releasing = 0;
}

/* While tracing, tells the host an event of unit ran (an event of no view,
 * unit 0 — the runtime's own check after a focus claim — is not a view's:
 * it was traced as "a view that is gone"). */
void lun_trace_event(lua_State *L, int32_t unit, const char *what) {
  lun_State *S = lun_state(L);
  if (S->tracing && unit) lunh(S->rt, trace, event_ran, unit, what, strlen(what));
}

/* Runs one queued event (at 1) in protection: () -> (). */
static int lun_event_k(lua_State *L) {
  lun_State *S = lun_state(L);
  int kind;
  lua_rawgeti(L, 1, LUN_EV_KIND);
  kind = (int)lua_tointeger(L, -1);
  S->active = 0;
  lua_rawgeti(L, 1, LUN_EV_UNIT);
  lun_trace_event(L, (int32_t)lua_tointeger(L, -1),
                  kind == LUN_EVENT_CALL ? "onAppear/onDisappear" : kind == LUN_EVENT_CHANGE ? "onChange"
                  : kind == LUN_EVENT_SUBSCRIBE ? "onReceive subscribed" : kind == LUN_EVENT_TASK ? "task created"
                  : "task cancelled");
  lua_pop(L, 1);
  switch (kind) {
    case LUN_EVENT_CALL:
      lua_rawgeti(L, 1, LUN_EV_A);
      lua_call(L, 0, 0);
      break;
    case LUN_EVENT_CHANGE:
      lua_rawgeti(L, 1, LUN_EV_A);
      lua_rawgeti(L, 1, LUN_EV_B);
      lua_rawgeti(L, 1, LUN_EV_C);
      lua_call(L, 2, 0);
      break;
    case LUN_EVENT_SUBSCRIBE: {
      int eidx;
      lua_rawgeti(L, 1, LUN_EV_A);
      eidx = lua_gettop(L);
      if (lua_rawgeti(L, eidx, LUN_LIFE_GONE) != LUA_TNIL) break;   /* went before it subscribed */
      lua_pop(L, 1);
      lua_createtable(L, 0, 1);                   /* the box: the forwarder calls its latest action */
      lua_rawgeti(L, eidx, LUN_LIFE_FN);
      lua_setfield(L, -2, "action");
      lua_pushvalue(L, -1);
      lua_rawseti(L, eidx, LUN_LIFE_BOX);
      lua_rawgeti(L, eidx, LUN_LIFE_VALUE);       /* publisher:sink(forwarder) */
      lua_getfield(L, -1, "sink");
      lua_insert(L, -2);
      lua_pushvalue(L, -3);
      lua_pushcclosure(L, lun_life_forward, 1);
      lua_call(L, 2, 1);
      lua_rawseti(L, eidx, LUN_LIFE_SUB);
      break;
    }
    case LUN_EVENT_CANCEL:
      lua_rawgeti(L, 1, LUN_EV_A);
      lun_task_deliver_cancel(L, (int32_t)lua_tointeger(L, -1));
      break;
    case LUN_EVENT_TASK:
      lua_rawgeti(L, 1, LUN_EV_A);
      lua_rawgeti(L, 1, LUN_EV_UNIT);
      lun_task_start(L, lua_gettop(L) - 1, (int32_t)lua_tointeger(L, -1));
      break;
    default:
      break;
  }
  return 0;
}

/* Runs the events queued so far, each in protection as a run of its own;
 * returns how many ran. [-0, +0] */
LUN_HOT int lun_life_run_events(lua_State *L, lun_State *S) {
  lua_Integer i, n;
  int ran = 0;
  if (!(S->flushWork & LUN_WORK_EVENTS)) return 0;
  lun_registry_table(L, &lun_key_events);
  n = (lua_Integer)lua_rawlen(L, -1);
  if (n == 0) { lua_pop(L, 1); S->flushWork &= ~(uint32_t)LUN_WORK_EVENTS; return 0; }
  lua_newtable(L);                                /* events queued while these run wait for the next round */
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_events);
  S->flushWork &= ~(uint32_t)LUN_WORK_EVENTS;     /* only once they are taken (a table made can fail); */
                                                  /* events queued while these run set it again */
  for (i = 1; i <= n; i++) {
    int status;
    lua_pushcfunction(L, lun_event_k);
    lua_rawgeti(L, -2, i);
    if (!lun_budget_begin(L, S, 1)) luaL_error(L, "runs nested too deep");
    status = lua_pcall(L, 1, 0, 0);
    lun_budget_end(L, S);
    if (status != LUA_OK) {
      size_t len;
      const char *msg;
      lua_rawgeti(L, -2, i);
      lua_rawgeti(L, -1, LUN_EV_UNIT);
      lua_rawgeti(L, -2, LUN_EV_GONE);
      lun_error_string(L, -4);
      msg = lua_tolstring(L, -1, &len);
      lun_life_failed(L, (int32_t)lua_tointeger(L, -3), lua_gettop(L) - 1, msg, len);
      lua_pop(L, 5);
    }
    ran++;
  }
  lua_pop(L, 1);
  return ran;
}
