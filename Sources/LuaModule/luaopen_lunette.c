/*
 * luaopen_lunette.c — require("lunette") from the stock lua5.4 interpreter
 * (and so from busted): the loadable module's entry point.
 *
 * The interpreter made the Lua state; the first require starts a Lunette
 * runtime that adopts it (lunette_module_adopt, in LuaModuleHost), puts
 * Lunette's pattern matching (under the budget) in the string library,
 * then opens `ui`.
 */
#include <clunette.h>
#include <lua5.4/lauxlib.h>

/* Implemented in Swift (LuaModuleHost): starts a runtime for L. 1 on success. */
int lunette_module_adopt(lua_State *L);

/* The state's main thread: a require may run inside a coroutine, whose
 * lua_State dies with it; the runtime keeps the one that lives as long as
 * the state. */
static lua_State *lun_main_thread(lua_State *L) {
  lua_State *main;
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  main = lua_tothread(L, -1);
  lua_pop(L, 1);
  return main;
}

/* require("lunette") -> ui. */
int luaopen_lunette(lua_State *L) {
  if (!lun_installed(L)) {
    if (!lunette_module_adopt(lun_main_thread(L))) return luaL_error(L, "lunette: could not start the runtime");
    lun_use_budgeted_patterns(L);                 /* as a runtime's own state has them (R26: one budget) */
  }
  return lun_open_module(L);
}
