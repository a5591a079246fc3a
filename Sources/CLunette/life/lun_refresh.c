/*
 * lun_refresh.c — RefreshAction (issue 19, session 9): what
 * view:refreshable(fn) puts in the environment as `refresh`.
 *
 * "Apply this modifier to a view to set the refresh value in the view's
 * environment to a RefreshAction instance that uses the specified action
 * as its handler" (https://developer.apple.com/documentation/swiftui/view/refreshable(action:)).
 * The walk makes one action per :refreshable of a body, kept in the
 * unit's record so that it is the same value from render to render (its
 * readers do not render again for a new closure); each render hands it
 * the body's newest fn. Calling it starts the refresh: fn runs as a task
 * (it may ui.sleep or ui.await), the view with :refreshable shows
 * refreshing=true until it ends, and a call while one runs does nothing;
 * the task is cancelled if the view goes. node:refresh() calls it, on the
 * view with :refreshable or on a List inside it; such a List shows
 * refreshing=true too (each List that offered it is rendered again when a
 * refresh starts and ends: lun_refresh_offered).
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"

#define LUN_MT_REFRESH "lunette.RefreshAction"

/* uservalues of an action: 1 the record of the unit whose body has the
 * :refreshable, 2 fn, 3 the units of the Lists that offered it (unit ->
 * its record, weak: a unit gone is forgotten); the userdata holds the unit. */
typedef struct lun_Refresh {
  int32_t unit;
} lun_Refresh;

/* 1 if the record at idx is of a unit still mounted (lun_life_release marks
 * a gone one: its unit id may be another unit's by now). [-0, +0] */
static int lun_refresh_live(lua_State *L, int idx) {
  int live;
  if (!lua_istable(L, idx)) return 0;
  live = lua_getfield(L, idx, "gone") == LUA_TNIL;
  lua_pop(L, 1);
  return live;
}

/* The unit whose body has the :refreshable (its record at ridx), and each
 * List that offered the action still mounted (the table at oidx), render
 * again: refreshing=true comes or goes. [-0, +0] */
static void lun_refresh_render(lua_State *L, int32_t unit, int ridx, int oidx) {
  const lun_Host *rt = lun_state(L)->rt;
  ridx = lua_absindex(L, ridx);
  oidx = lua_absindex(L, oidx);
  lun_out_done_send(L, lun_state(L));             /* runs that ended first, so they run again */
  if (unit && lun_refresh_live(L, ridx)) lunh(rt, scheduler, unit_invalidate, unit);
  if (!lua_istable(L, oidx)) return;
  lua_pushnil(L);
  while (lua_next(L, oidx)) {
    if (lua_isinteger(L, -2) && lua_tointeger(L, -2) != unit && lun_refresh_live(L, -1))
      lunh(rt, scheduler, unit_invalidate, (int32_t)lua_tointeger(L, -2));
    lua_pop(L, 1);
  }
}

/* Continuation of a refresh task: the refresh ended (status: how); clears
 * its record's `refreshing` (upvalue 1: the record, 3: this entry) and has
 * its unit (upvalue 2) render again; raises an error the action raised. */
static int lun_refresh_done(lua_State *L, int status, lua_KContext ctx) {
  (void)ctx;
  lua_getfield(L, lua_upvalueindex(1), "refreshing");
  if (lua_rawequal(L, -1, lua_upvalueindex(3))) {
    lua_pushnil(L);
    lua_setfield(L, lua_upvalueindex(1), "refreshing");
    lun_refresh_render(L, (int32_t)lua_tointeger(L, lua_upvalueindex(2)), lua_upvalueindex(1), lua_upvalueindex(5));
  }
  lua_pop(L, 1);
  if (status != LUA_OK && status != LUA_YIELD) return lua_error(L);   /* the action's error, on top */
  return 0;
}

/* A refresh task's function (upvalues: record, unit, its entry, the
 * action's fn, the Lists that offered it): runs fn, protected so the
 * refresh ends however it does. */
static int lun_refresh_task(lua_State *L) {
  lua_settop(L, 0);
  lua_pushvalue(L, lua_upvalueindex(4));
  return lun_refresh_done(L, lua_pcallk(L, 0, 0, 0, 0, lun_refresh_done), 0);
}

/* __call of an action: () -> (): starts the refresh as a task, unless one
 * runs; the unit renders again (its view shows refreshing=true). */
static int lun_refresh_call(lua_State *L) {
  lun_Refresh *r = (lun_Refresh *)luaL_checkudata(L, 1, LUN_MT_REFRESH);
  int entry;
  lua_settop(L, 1);
  lua_getiuservalue(L, 1, 1);                     /* 2: the record */
  if (!lun_refresh_live(L, 2) || lua_getfield(L, 2, "refreshing") != LUA_TNIL) return 0;   /* gone, or refreshing */
  lua_pop(L, 1);
  lua_createtable(L, 3, 0);                       /* 3: a task's life entry */
  entry = lua_gettop(L);
  lua_pushinteger(L, LUN_ON_TASK);
  lua_rawseti(L, entry, LUN_LIFE_KIND);
  lua_pushvalue(L, 2);
  lua_pushinteger(L, r->unit);
  lua_pushvalue(L, entry);
  lua_getiuservalue(L, 1, 2);
  lua_getiuservalue(L, 1, 3);
  lua_pushcclosure(L, lun_refresh_task, 5);
  lua_rawseti(L, entry, LUN_LIFE_FN);
  lua_pushvalue(L, entry);
  lua_setfield(L, 2, "refreshing");               /* the record's: lun_life_release cancels it */
  lun_task_start(L, entry, r->unit);
  lua_getiuservalue(L, 1, 3);
  lun_refresh_render(L, r->unit, 2, -1);
  return 0;
}

/* __tostring of actions. */
static int lun_refresh_tostring(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_REFRESH);
  lua_pushliteral(L, "RefreshAction");
  return 1;
}

/* 1 if the value at idx is a RefreshAction. */
int lun_refresh_test(lua_State *L, int idx) {
  return luaL_testudata(L, idx, LUN_MT_REFRESH) != NULL;
}

/* Pushes the action the n-th :refreshable of the body whose record is at
 * recidx (of unit, 0 for a root) stands for, made on its first render and
 * kept in the record (record.refreshActions[n]); it takes fn (at fnidx),
 * the body's newest. [-0, +1] */
void lun_refresh_push(lua_State *L, int recidx, int32_t unit, int n, int fnidx) {
  lun_Refresh *r;
  recidx = lua_absindex(L, recidx);
  fnidx = lua_absindex(L, fnidx);
  if (lua_getfield(L, recidx, "refreshActions") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, recidx, "refreshActions");
  }
  if (lua_rawgeti(L, -1, n) != LUA_TUSERDATA) {
    lua_pop(L, 1);
    r = (lun_Refresh *)lua_newuserdatauv(L, sizeof(lun_Refresh), 3);
    r->unit = unit;
    luaL_setmetatable(L, LUN_MT_REFRESH);
    lua_pushvalue(L, recidx);
    lua_setiuservalue(L, -2, 1);
    lun_new_weak_table(L, "v");
    lua_setiuservalue(L, -2, 3);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, n);
  }
  lua_pushvalue(L, fnidx);
  lua_setiuservalue(L, -2, 2);
  lua_remove(L, -2);
}

/* A List whose unit's record is at recidx (of unit, 0 for a root) offered
 * the action at aidx: it renders again when a refresh starts or ends.
 * Returns 1 if a refresh runs (the List shows refreshing=true). [-0, +0] */
int lun_refresh_offered(lua_State *L, int aidx, int recidx, int32_t unit) {
  int running, top = lua_gettop(L);
  aidx = lua_absindex(L, aidx);
  recidx = lua_absindex(L, recidx);
  if (lua_getiuservalue(L, aidx, 3) == LUA_TTABLE && unit) {
    lua_pushvalue(L, recidx);
    lua_rawseti(L, -2, unit);
    lua_pushboolean(L, 1);                        /* an action can reach it now (lun_refresh_reaches) */
    lua_setfield(L, recidx, "offered");
  }
  lua_getiuservalue(L, aidx, 1);
  running = lua_istable(L, -1) && lua_getfield(L, -1, "refreshing") != LUA_TNIL;
  lua_settop(L, top);
  return running;
}

/* 1 if a refresh action may hold the record at recidx — its body has a
 * :refreshable, or a List in it was offered one — so its release must
 * mark it gone (lun_refresh_live). [-0, +0] */
int lun_refresh_reaches(lua_State *L, int recidx) {
  int top = lua_gettop(L), reaches;
  recidx = lua_absindex(L, recidx);
  reaches = lua_getfield(L, recidx, "refreshActions") != LUA_TNIL || lua_getfield(L, recidx, "offered") != LUA_TNIL;
  lua_settop(L, top);
  return reaches;
}

void lun_open_refresh(lua_State *L) {
  lun_newmetatable(L, LUN_MT_REFRESH);
  lua_pushcfunction(L, lun_refresh_call);
  lua_setfield(L, -2, "__call");
  lua_pushcfunction(L, lun_refresh_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}
