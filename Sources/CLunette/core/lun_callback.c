/*
 * lun_callback.c — what a script may hand where Lunette takes a callback:
 * a function, or a table whose __call is a function (a busted spy),
 * wrapped once so that everything that keeps and calls callbacks sees a
 * function; and, for messages, the function a callback runs.
 */
#include "core/core.h"

static int lun_callable_call(lua_State *L);

/* Pushes the function the callback at idx runs, for its place: a callable
 * table's __call (held bare, or by the wrapper lun_check_callback made),
 * else the value itself. [-0, +1] */
void lun_push_callee(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_tocfunction(L, idx) == lun_callable_call) lua_getupvalue(L, idx, 1);
  else lua_pushvalue(L, idx);
  if (lua_type(L, -1) == LUA_TTABLE && luaL_getmetafield(L, -1, "__call") != LUA_TNIL) lua_remove(L, -2);
  if (lua_type(L, -1) != LUA_TFUNCTION) {          /* what lua_getinfo may be handed */
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
    if (lua_type(L, -1) != LUA_TFUNCTION) { lua_pop(L, 1); lua_pushcfunction(L, lun_callable_call); }
  }
}

/* The wrapper of a callable value: calls upvalue 1 with its arguments and
 * returns what it returns; a yield inside goes through (lua_callk). */
static int lun_callable_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  return lua_gettop(L);
}
static int lun_callable_call(lua_State *L) {
  int call;
  lua_pushvalue(L, lua_upvalueindex(1));
  call = luaL_getmetafield(L, -1, "__call");      /* checked when it was given: it may have gone since */
  if (call != LUA_TFUNCTION)
    return lun_error_here(L, "a callable table given as a callback can no longer be called: its __call is %s now",
                          call == LUA_TNIL ? "nil" : luaL_typename(L, -1));
  lua_pop(L, 1);
  lua_insert(L, 1);
  lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, lun_callable_k);
  return lua_gettop(L);
}

/* Checks that argument arg is a callback: a function, or a script's table
 * whose __call is a function (a busted spy) — which is replaced by a
 * function calling it, so what keeps and calls the callback sees a
 * function. Lunette's own callable values (a view type, a model class:
 * sealed, or userdata) make a value when called, not an action: refused,
 * as a __call that is no function is. [-0, +0] */
void lun_check_callback(lua_State *L, int arg) {
  arg = lua_absindex(L, arg);
  if (lua_type(L, arg) == LUA_TFUNCTION) return;
  if (!lun_is_callable(L, arg)) luaL_typeerror(L, arg, "function");
  lua_pushvalue(L, arg);
  lua_pushcclosure(L, lun_callable_call, 1);
  lua_replace(L, arg);
}

/* 1 if the value at idx is a callback lun_check_callback takes: a function,
 * or a script's table whose __call is a function. [-0, +0] */
int lun_is_callable(lua_State *L, int idx) {
  int call;
  if (lua_type(L, idx) == LUA_TFUNCTION) return 1;
  if (lua_type(L, idx) != LUA_TTABLE || lun_sealed_kind(L, idx)) return 0;
  call = luaL_getmetafield(L, idx, "__call");
  if (call != LUA_TNIL) lua_pop(L, 1);
  return call == LUA_TFUNCTION;
}
