/*
 * lun_reach.c — library functions wrapped so the time budget reaches the
 * script code they run.
 *
 * - coroutine.resume, coroutine.wrap and coroutine.close: a coroutine runs
 *   (and closes its to-be-closed variables) on a thread of its own, which
 *   the budget's hook must be able to stop; that thread is a level of the
 *   budget chain (lun_budget.c) while it runs.
 *   A coroutine that died by an error is not closed (lun_died_by_error).
 * - xpcall: Lua calls a message handler for an error raised from a hook
 *   with hooks off, so a handler that loops could never be stopped; while
 *   a stop holds (the budget's, or a test's limit passed), the handler is
 *   skipped and the error passes unchanged.
 * The library's own functions do the work; nothing else changes for scripts.
 */
#include "core/core.h"

/* 1 if co died by an error. Its to-be-closed variables are then never
 * closed: when the error came from the budget's hook, Lua leaves hooks off
 * on that thread, and its __close handlers could not be stopped. */
int lun_died_by_error(lua_State *co) {
  int status = lua_status(co);
  return status != LUA_OK && status != LUA_YIELD;
}

/* Calls the library's resume (at lua_upvalueindex(uv)) on co with the
 * values at 1..top, co on the budget chain meanwhile. Raises what the call
 * raised. Leaves resume's results. */
static int lun_co_call(lua_State *L, lua_State *co, int uv) {
  lun_State *S = lun_state(L);
  int status;
  if (!lun_budget_begin(co, S, 0)) return luaL_error(L, "coroutines nested too deep");
  lua_pushvalue(L, lua_upvalueindex(uv));
  lua_insert(L, 1);
  status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
  lun_budget_end(co, S);
  if (status != LUA_OK) return lua_error(L);
  return lua_gettop(L);
}

/* coroutine.resume(co, ...) -> ok, ... Upvalue 1: the library's resume. */
static int lun_co_resume(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co != NULL, 1, "coroutine");
  return lun_co_call(L, co, 1);
}

/* The function coroutine.wrap returns: (...) -> ... Upvalues: the coroutine,
 * the library's resume. An error inside is raised again here, as wrap does. */
static int lun_co_wrapped(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lun_co_call(L, co, 2);
  if (!lua_toboolean(L, 1)) {
    lua_settop(L, 2);
    if (lua_type(L, 2) == LUA_TSTRING) {
      luaL_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  lua_remove(L, 1);
  return lua_gettop(L);
}

/* coroutine.wrap(f) -> function. Upvalue 1: the library's resume. */
static int lun_co_wrap(lua_State *L) {
  lua_State *co;
  luaL_checktype(L, 1, LUA_TFUNCTION);
  co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, lun_co_wrapped, 2);
  return 1;
}

/* The message handler given to the library's xpcall: the script's handler
 * (upvalue 1), unless a stop holds — the budget's, or a test's time limit
 * passed (lunette_watch: its hook raises too). (err) -> err'. */
static int lun_msgh(lua_State *L) {
  lun_State *S = lun_state(L);
  if (lun_budget_stopping(S)) return 1;
  if (lun_test_overdue(S)) return 1;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

/* Continuation of lun_xpcall: its results are everything above ctx. */
static int lun_xpcall_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  return lua_gettop(L) - (int)ctx;
}

/* xpcall(f, msgh, ...) -> ok, ... Upvalue 1: the library's xpcall. */
static int lun_xpcall(lua_State *L) {
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, lun_msgh, 1);
  lua_replace(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, lun_xpcall_k);
  return lun_xpcall_k(L, LUA_OK, 0);
}

/* coroutine.close(co) -> ok, err: co's __close handlers run with co on the
 * budget chain. Upvalue 1: the library's close. */
static int lun_co_close(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co != NULL, 1, "coroutine");
  if (lun_died_by_error(co)) {
    lua_pushboolean(L, 0);
    lua_pushliteral(L, "the coroutine died by an error: its to-be-closed variables are not closed");
    return 2;
  }
  return lun_co_call(L, co, 1);
}

/* Wraps coroutine.resume, coroutine.wrap, coroutine.close and xpcall, where they are loaded. [-0, +0] */
void lun_open_reach(lua_State *L) {
  if (lua_getglobal(L, "xpcall") == LUA_TFUNCTION) {
    lua_pushcclosure(L, lun_xpcall, 1);
    lua_setglobal(L, "xpcall");
  } else lua_pop(L, 1);
  if (lua_getglobal(L, "coroutine") != LUA_TTABLE) { lua_pop(L, 1); return; }
  if (lua_getfield(L, -1, "close") == LUA_TFUNCTION) {
    lua_pushcclosure(L, lun_co_close, 1);
    lua_setfield(L, -2, "close");
  } else lua_pop(L, 1);
  if (lua_getfield(L, -1, "resume") == LUA_TFUNCTION) {
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, lun_co_resume, 1);
    lua_setfield(L, -3, "resume");
    lua_pushcclosure(L, lun_co_wrap, 1);
    lua_setfield(L, -2, "wrap");
  } else lua_pop(L, 1);
  lua_pop(L, 1);
}
