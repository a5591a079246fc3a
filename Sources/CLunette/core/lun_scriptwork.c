/*
 * lun_scriptwork.c — a script's work: the timer subscriptions and effects a
 * script's run starts at its top level (not its views' bodies or events)
 * belong to the script. A reload of it ends what its last run started once
 * the new run succeeded (a failed reload ends what it started itself and
 * keeps the old); unloading it ends them all. Each is kept with the C
 * functions that cancel it and tell whether it ended, so this room names no
 * higher one.
 *
 * What an effect of the script's starts when it runs again — in a later
 * flush, long after the script's run — is the script's work too (a timer
 * an effect starts ended with the effect on a reload, and kept firing):
 * each run's list has a number, an effect keeps the number of the list it
 * is on (lun_Effect.script), and while it runs lun_State.runScript names
 * that list.
 *
 * Registry: lun_key_script, the running script's name (absent: none);
 * lun_key_works and lun_key_aside, name -> { handle, cancel, live, …,
 * index = n } (cancel(handle) ends it, live(handle) says whether it has not
 * ended: the ended ones are dropped as the list grows, so it holds about
 * what still runs); lun_key_lists, n -> the list, for the lists not yet
 * ended (a number is used again once its list ends).
 */
#include "core/core.h"

static const char lun_key_script = 0, lun_key_works = 0, lun_key_aside = 0, lun_key_lists = 0;

/* How many entries (three each) a script's list holds before the ended
 * ones are dropped; after each compaction, twice what was kept. */
#define LUN_WORK_FIRST_LIMIT (64 * 3)

/* Drops from the list on top the handles that ended (their `live` says 0),
 * and sets the list's next limit. [-0, +0] */
static void lun_script_compact(lua_State *L) {
  int list = lua_gettop(L);
  lua_Integer i, n = (lua_Integer)lua_rawlen(L, list), kept = 0;
  for (i = 1; i + 2 <= n; i += 3) {
    int live;
    lua_rawgeti(L, list, i + 2);
    lua_rawgeti(L, list, i);
    lua_call(L, 1, 1);
    live = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (!live) continue;
    if (kept != i - 1) {
      int k;
      for (k = 0; k < 3; k++) { lua_rawgeti(L, list, i + k); lua_rawseti(L, list, kept + 1 + k); }
    }
    kept += 3;
  }
  for (i = n; i > kept; i--) { lua_pushnil(L); lua_rawseti(L, list, i); }
  lua_pushinteger(L, kept * 2 > LUN_WORK_FIRST_LIMIT ? kept * 2 : LUN_WORK_FIRST_LIMIT);
  lua_setfield(L, list, "limit");
}

/* Pushes the list of the script named on top (made, and numbered, if it
 * has none), replacing the name. [-1, +1] */
static void lun_script_list(lua_State *L) {
  lun_registry_table(L, &lun_key_works);          /* name works */
  lua_pushvalue(L, -2);
  if (lua_rawget(L, -2) != LUA_TTABLE) {          /* name works list */
    lua_Integer n;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -3);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
    lun_registry_table(L, &lun_key_lists);
    n = (lua_Integer)lua_rawlen(L, -1) + 1;       /* past a border: a free number */
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, n);
    lua_pop(L, 1);
    lua_pushinteger(L, n);
    lua_setfield(L, -2, "index");
  }
  lua_replace(L, -3);
  lua_pop(L, 1);
}

int32_t lun_script_adopt(lua_State *L, int idx, lua_CFunction cancel, lua_CFunction live) {
  lun_State *S = lun_state(L);
  lua_Integer n, index;
  idx = lua_absindex(L, idx);
  if (S->runScript) {                             /* an effect of a script's runs: that run's work */
    lun_registry_table(L, &lun_key_lists);
    if (lua_rawgeti(L, -1, S->runScript) != LUA_TTABLE) { lua_pop(L, 2); return 0; }
    lua_remove(L, -2);
  } else {
    if (S->inBody || lunh(S->rt, scheduler, flushing)) return 0;   /* a view's or an event's: not the script's */
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_script) != LUA_TSTRING) { lua_pop(L, 1); return 0; }
    lun_script_list(L);
  }
  n = (lua_Integer)lua_rawlen(L, -1);             /* list */
  if (n >= (lua_getfield(L, -1, "limit") == LUA_TNUMBER ? lua_tointeger(L, -1) : LUN_WORK_FIRST_LIMIT)) {
    lua_pop(L, 1);
    lun_script_compact(L);                        /* what was cancelled since goes: the list stays near what lives */
    n = (lua_Integer)lua_rawlen(L, -1);
  } else lua_pop(L, 1);
  lua_pushvalue(L, idx);
  lua_rawseti(L, -2, n + 1);
  lua_pushcfunction(L, cancel);
  lua_rawseti(L, -2, n + 2);
  lua_pushcfunction(L, live);
  lua_rawseti(L, -2, n + 3);
  lua_getfield(L, -1, "index");
  index = lua_tointeger(L, -1);
  lua_pop(L, 2);
  return index > 0 && index <= INT32_MAX ? (int32_t)index : 0;
}

/* Cancels every handle of the list on top and pops it; its number is free. [-1, +0] */
static void lun_script_cancel(lua_State *L) {
  lua_Integer i, n = (lua_Integer)lua_rawlen(L, -1);
  lua_Integer index = lua_getfield(L, -1, "index") == LUA_TNUMBER ? lua_tointeger(L, -1) : 0;
  lua_pop(L, 1);
  if (index > 0) {
    lun_registry_table(L, &lun_key_lists);
    lua_pushnil(L);
    lua_rawseti(L, -2, index);
    lua_pop(L, 1);
  }
  for (i = 1; i + 2 <= n; i += 3) {
    lua_rawgeti(L, -1, i + 1);
    lua_rawgeti(L, -2, i);
    lua_call(L, 1, 0);
  }
  lua_pop(L, 1);
}

/* Pushes and removes the list of name (the string at 1) in the table of key (nil if none). [-0, +1] */
static void lun_script_take(lua_State *L, const void *key) {
  lun_registry_table(L, key);
  lua_pushvalue(L, 1);
  lua_rawget(L, -2);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  lua_rawset(L, -4);
  lua_remove(L, -2);
}

/* Protected part of lun_work: (name's bytes or nil, their length, op) -> (). */
static int lun_script_work_k(lua_State *L) {
  int op = (int)lua_tointeger(L, 3);
  const char *name = (const char *)lua_touserdata(L, 1);
  if (name) lua_pushlstring(L, name, (size_t)lua_tointeger(L, 2)); else lua_pushnil(L);
  lua_replace(L, 1);
  if (op == LUN_SCRIPT_RUNNING) {
    lua_settop(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_script);   /* nil: none runs */
    return 0;
  }
  lua_settop(L, 1);
  if (op == LUN_SCRIPT_ASIDE) {                     /* a reload begins: the last run's work waits */
    lun_script_take(L, &lun_key_works);
    lun_registry_table(L, &lun_key_aside);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    return 0;
  }
  lun_script_take(L, op == LUN_SCRIPT_KEEP_OLD ? &lun_key_works : &lun_key_aside);
  if (lua_istable(L, -1)) lun_script_cancel(L); else lua_pop(L, 1);
  if (op == LUN_SCRIPT_KEEP_OLD) {                  /* the reload failed: the last run's work goes on */
    lun_script_take(L, &lun_key_aside);
    lun_registry_table(L, &lun_key_works);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
  } else if (op == LUN_SCRIPT_END) {                /* unloaded: all of it */
    lun_script_take(L, &lun_key_works);
    if (lua_istable(L, -1)) lun_script_cancel(L); else lua_pop(L, 1);
  }
  return 0;
}

int lun_script_work(lua_State *L, int op, const char *name, size_t len) {
  if (!lua_checkstack(L, 5)) return LUN_ERROR;
  lua_pushcfunction(L, lun_script_work_k);
  lua_pushlightuserdata(L, (void *)name);          /* made a string inside: that may raise */
  lua_pushinteger(L, (lua_Integer)len);
  lua_pushinteger(L, op);
  return lun_protect(L, 3, 0);
}
