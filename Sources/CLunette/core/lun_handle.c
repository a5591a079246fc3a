/*
 * lun_handle.c — the kinds of handle a script holds to work that goes on
 * (a timer's subscription, an effect, a subject's subscription): each
 * kind's metatable names the C function that cancels one. What holds a
 * handle and ends cancels it through here, naming no room above: a view's
 * state, as Combine's AnyCancellable ends when the @State holding it goes
 * (life/lun_life.c).
 *
 * Registry: lun_key_handles, metatable -> its kind's cancel function.
 */
#include "core/core.h"

static const char lun_key_handles = 0;

void lun_handle_kind(lua_State *L, const char *meta, lua_CFunction cancel) {
  lun_registry_table(L, &lun_key_handles);
  luaL_getmetatable(L, meta);
  lua_pushcfunction(L, cancel);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

int lun_handle_cancel_of(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return 0;
  lun_registry_table(L, &lun_key_handles);        /* meta handles */
  lua_insert(L, -2);
  if (lua_rawget(L, -2) == LUA_TFUNCTION) {       /* handles cancel */
    lua_remove(L, -2);
    return 1;
  }
  lua_pop(L, 2);
  return 0;
}
