/*
 * lun_state.c — the per-state data, installation into a lua_State, and the
 * protected entry points the Swift runtime uses to run Lua code (the
 * drive's face; the registry's helpers are lun_registry.c).
 */
#include "core/core.h"
#include "drive/drive.h"
#include <stdlib.h>

static const char lun_key_results;


/* __gc of the state userdata: the state is closing. Its budget's chain lets
 * go of its threads (the host's watchdog may go on looking at the budget);
 * frees the trampoline's work list and the output buffer. [-0, +0] */
static int lun_state_gc(lua_State *L) {
  lun_State *S = (lun_State *)lua_touserdata(L, 1);
  if (S->budget) lun_budget_close(S->budget);
  free(S->work);
  S->work = NULL;
  lun_out_free(L, S);
  lun_out_done_free(L, S);
  lun_effects_free(S);
  return 0;
}

/* Protected part of lun_install: (host, graph, budget) -> (). */
static int lun_install_k(lua_State *L) {
  lun_State *S = (lun_State *)lua_newuserdatauv(L, sizeof(lun_State), 0);
  memset(S, 0, sizeof(*S));
  S->rt = (const lun_Host *)lua_touserdata(L, 1);
  S->graph = (lun_Graph *)lua_touserdata(L, 2);
  S->budget = (lun_Budget *)lua_touserdata(L, 3);
  S->listWindow = S->baseListWindow = LUN_LIST_WINDOW;
  S->runLimit = 100;                              /* the host sets its renderLoopLimit */
  lua_newtable(L);
  lua_pushcfunction(L, lun_state_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_state);
  if (!lun_alloc_adopt(L, S)) luaL_error(L, "not enough memory");
  lun_keys_open(L, S);

  lun_new_weak_table(L, "v");
  lua_pushvalue(L, -1);
  S->objectsRef = (int32_t)luaL_ref(L, LUA_REGISTRYINDEX);   /* the hot path's way to it (a computed's recompute) */
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_objects);
  lun_new_weak_table(L, "k");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_proxies);
  lun_new_weak_table(L, "v");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_hosts);
  lua_pushlightuserdata(L, (void *)&lun_key_suspend);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_suspend);
  lua_pushliteral(L, "an error that could not be described (out of memory?)");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_fallback);   /* made now: no allocation when needed */
  lua_pushliteral(L, "runs nested too deep");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_toodeep);
  lua_pushliteral(L, "");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_lasterror);

  lun_open_reach(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, lun_open_module);
  lua_setfield(L, -2, "lunette");
  luaL_requiref(L, "lunette", lun_open_module, 0);
  return 0;
}


/* 1 if every group of the host's table has its context and every callback
 * set. The table is pointers only (contexts and callbacks), so it is read
 * as words. */
static int lun_host_complete(const lun_Host *host) {
  const unsigned char *bytes = (const unsigned char *)host;
  size_t i, n = sizeof(lun_Host) / sizeof(void *);
  for (i = 0; i < n; i++) {
    void *word;
    memcpy(&word, bytes + i * sizeof(void *), sizeof word);
    if (!word) return 0;
  }
  return 1;
}

int lun_install(lua_State *L, const lun_Host *host, lun_Graph *graph, lun_Budget *budget) {
  if (!lua_checkstack(L, 5)) return LUN_ERROR;
  if (!host || !lun_host_complete(host)) {
    lua_pushliteral(L, "lun_install: the host's table of callbacks is incomplete");
    lun_capture_error(L);
    return LUN_ERROR;
  }
  lua_pushcfunction(L, lun_install_k);
  lua_pushlightuserdata(L, (void *)host);
  lua_pushlightuserdata(L, graph);
  lua_pushlightuserdata(L, budget);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) {            /* no runtime yet: no budget chain */
    lun_capture_error(L);
    return LUN_ERROR;
  }
  return LUN_OK;
}


/* Protected part of lun_run_chunk: (chunk) -> (ref of its first result). */
static int lun_run_k(lua_State *L) {
  lua_call(L, 0, 1);
  if (lua_isnil(L, -1)) lua_pushinteger(L, LUA_NOREF);
  else lua_pushinteger(L, luaL_ref(L, LUA_REGISTRYINDEX));
  return 1;
}

/* Loads a text chunk and runs it through k (which gets the chunk, returns
 * one integer) in protection; *answer is that integer. */
static int lun_load_and_run(lua_State *L, lua_CFunction k, const char *source, size_t len,
                            const char *chunkname, int bounded, int *answer) {
  if (!lua_checkstack(L, 4)) return LUN_ERROR;
  lua_pushcfunction(L, k);
  if (luaL_loadbufferx(L, source, len, chunkname, "t") != LUA_OK) {
    lua_remove(L, -2);
    lun_capture_error(L);
    return LUN_SYNTAX;
  }
  if (lun_protect_run(L, 1, 1, bounded) != LUN_OK) return LUN_ERROR;
  *answer = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return LUN_OK;
}

int lun_check_chunk(lua_State *L, const char *source, size_t len, const char *chunkname) {
  if (!lua_checkstack(L, 2)) return LUN_ERROR;
  if (luaL_loadbufferx(L, source, len, chunkname, "t") != LUA_OK) {
    lun_capture_error(L);
    return LUN_SYNTAX;
  }
  lua_pop(L, 1);
  return LUN_OK;
}

int lun_run_chunk(lua_State *L, const char *source, size_t len, const char *chunkname, int *resultRef) {
  *resultRef = LUA_NOREF;
  return lun_load_and_run(L, lun_run_k, source, len, chunkname, 1, resultRef);
}

int lun_release_ref(lua_State *L, int ref) {
  if (ref > 0) luaL_unref(L, LUA_REGISTRYINDEX, ref);
  return LUN_OK;
}

/* Protected part of lun_call_slot: (record ref, slot, text?) -> (). */
static int lun_call_slot_k(lua_State *L) {
  lun_State *S = lun_state(L);
  int32_t saved = S->active;
  lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)lua_tointeger(L, 1));
  lua_getfield(L, -1, "out");
  lua_rawgeti(L, -1, lua_tointeger(L, 2));
  if (lua_isnil(L, 3)) {
    S->active = 0;
    lua_call(L, 0, 0);
  } else {
    lua_pushlstring(L, (const char *)lua_touserdata(L, 3), (size_t)lua_tointeger(L, 4));
    S->active = 0;
    lua_call(L, 1, 0);
  }
  S->active = saved;
  return 0;
}

int lun_call_slot(lua_State *L, int recordRef, int slot, const char *text, size_t len, int hasText) {
  if (!lua_checkstack(L, 6)) return LUN_ERROR;
  lua_pushcfunction(L, lun_call_slot_k);
  lua_pushinteger(L, recordRef);
  lua_pushinteger(L, slot);
  if (hasText) lua_pushlightuserdata(L, (void *)text); else lua_pushnil(L);
  lua_pushinteger(L, (lua_Integer)len);
  return lun_protect(L, 4, 0);
}

/* Protected part of lun_eval: (chunk) -> (); keeps tostring of every result. */
static int lun_eval_k(lua_State *L) {
  int i, n;
  lua_call(L, 0, LUA_MULTRET);
  n = lua_gettop(L);
  lua_createtable(L, n, 0);
  for (i = 1; i <= n; i++) {
    luaL_tolstring(L, i, NULL);
    lua_rawseti(L, -2, i);
  }
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_results);
  lua_pushinteger(L, n);
  return 1;
}

int lun_eval(lua_State *L, const char *source, size_t len, const char *chunkname, int bounded, int *count) {
  *count = 0;
  return lun_load_and_run(L, lun_eval_k, source, len, chunkname, bounded, count);
}

const char *lun_eval_result(lua_State *L, int i, size_t *len) {
  const char *s = "";
  *len = 0;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_results) == LUA_TTABLE) {
    if (lua_rawgeti(L, -1, i) == LUA_TSTRING) s = lua_tolstring(L, -1, len);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return s;
}
