/*
 * lun_protect.c — a protected run: a call on the budget chain whose error
 * becomes the runtime's last error message (converting it is a bounded run
 * too), never an error that unwinds further.
 */
#include "core/core.h"

const char lun_key_lasterror, lun_key_fallback, lun_key_toodeep;

/* Stores the error value on top of the stack as the last error message. */
static int lun_capture_k(lua_State *L) {
  if (lua_type(L, 1) == LUA_TLIGHTUSERDATA && lua_touserdata(L, 1) == &lun_key_suspend)
    lua_pushliteral(L, "internal: evaluation suspended outside a computed read");
  else if (lun_installed(L))
    lun_error_string(L, 1);                      /* its __tostring is bounded by the budget */
  else
    luaL_tolstring(L, 1, NULL);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_lasterror);
  return 0;
}

/* Pops the error value left by a failed lua_pcall and keeps its message. */
void lun_capture_error(lua_State *L) {
  lua_pushcfunction(L, lun_capture_k);
  lua_insert(L, -2);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    lua_pop(L, 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_fallback);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_lasterror);
  }
}

/* Runs the function below nargs pushed arguments as one run: a protected
 * call on the budget chain (lun_budget.c; bounded: the host's budget
 * applies to it), its error kept as the last error message (converting it
 * is a bounded run too). [-(nargs+1), +nresults on success] */
int lun_protect_run(lua_State *L, int nargs, int nresults, int bounded) {
  lun_State *S = lun_state(L);
  int status;
  if (!lun_budget_begin(L, S, bounded)) {
    lua_pop(L, nargs + 1);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_toodeep);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_lasterror);
    return LUN_ERROR;
  }
  status = lua_pcall(L, nargs, nresults, 0);
  lun_budget_end(L, S);
  if (status != LUA_OK) lun_capture_error(L);
  return status == LUA_OK ? LUN_OK : LUN_ERROR;
}

int lun_protect(lua_State *L, int nargs, int nresults) {
  return lun_protect_run(L, nargs, nresults, 1);
}

/* lun_protect for script code the runtime calls on a view's behalf (a
 * subscription's cancel, a reduce, an __eq, a preference's handler): what
 * it raises is told the host as unit's event's (inspect.event_failed),
 * and the caller goes on. */
int lun_protect_event(lua_State *L, int nargs, int nresults, int32_t unit) {
  size_t len;
  const char *msg;
  if (lun_protect(L, nargs, nresults) == LUN_OK) return LUN_OK;
  msg = lun_last_error(L, &len);
  lunh(lun_state(L)->rt, inspect, event_failed, unit, msg, len);
  return LUN_ERROR;
}

const char *lun_last_error(lua_State *L, size_t *len) {
  const char *s;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_lasterror);
  s = lua_tolstring(L, -1, len);
  lua_pop(L, 1);
  if (!s) { *len = 0; return ""; }
  return s;
}
