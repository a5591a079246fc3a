/*
 * lunette.c — lun_open_module: the `ui` table of require("lunette").
 * (The runtime preloads it; the loadable module's luaopen_lunette opens it
 * after starting a runtime in a state the stock interpreter made.)
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#include "drive/drive.h"

/* require("lunette") -> ui. [-0, +1] */
int lun_open_module(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_module) == LUA_TTABLE) return 1;
  lua_pop(L, 1);
  if (!lun_installed(L)) return luaL_error(L, "lunette: this Lua state has no Lunette runtime");
  lua_newtable(L);
  lun_open_object(L);
  lun_open_proxy(L);
  lun_open_view(L);
  lun_open_modifier(L);
  lun_open_self(L);
  lun_open_env(L);
  lun_open_enabled(L);
  lun_open_envbuiltin(L);
  lun_open_binding(L);
  lun_open_refresh(L);
  lun_open_app(L);
  lun_open_node(L);
  lun_open_host(L);
  lun_open_publisher(L);
  lun_open_task(L);
  lua_getfield(L, -1, "clock");                   /* ui.clock.advance runs the due work: the drive's */
  lua_pushcfunction(L, lun_ui_clock_advance);
  lua_setfield(L, -2, "advance");
  lua_pop(L, 1);
  lun_open_animation(L);
  lun_open_dynamic(L);
  lun_open_preference(L);
  lun_open_storage(L);
  lun_open_transaction(L);
  lua_pushliteral(L, "0.1.0");
  lua_setfield(L, -2, "version");
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_module);
  return 1;
}
