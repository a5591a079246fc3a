/*
 * luaopen_lunette.c — require("lunette") from the stock lua5.4 interpreter
 * (and so from busted): the loadable module's entry point.
 *
 * The interpreter made the Lua state; the first require starts a Lunette
 * runtime that adopts it (lunh_adopt, in LuaModuleHost), then opens `ui`.
 */
#include <clunette.h>
#include <lua5.4/lauxlib.h>

/* Implemented in Swift (LuaModuleHost): starts a runtime for L. 1 on success. */
int lunh_adopt(lua_State *L);

/* require("lunette") -> ui. */
int luaopen_lunette(lua_State *L) {
  if (!lun_installed(L)) {
    lun_adopting();
    if (!lunh_adopt(L)) return luaL_error(L, "lunette: could not start the runtime");
  }
  return lun_open_module(L);
}
