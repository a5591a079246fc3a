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

/* ---- the prelude's functions, entered through C ----
 * Parts of `ui` are written in Lua (Sources/Lunette/Lua/prelude.lua). A body
 * that ends `return ui.ForEach(…)` tail-calls it, and Lua drops the body's
 * frame: an error could not name the script's line. Entered through this C
 * function instead, the script's frame stays below it, so an error raised
 * with no position, or with the prelude's own, is given the script's. */

/* 1 if the string error at idx starts with a position that is not the
 * prelude's own: as luassert reads one, the shortest start ending in
 * ":<digits>: " (a chunk's name may hold colons: [string "t:get()"]:1: ),
 * before any line break. [-0, +0] */
static int lun_prelude_positioned(lua_State *L, int idx) {
  size_t len, i, j;
  const char *s = lua_tolstring(L, idx, &len);
  static const char prelude[] = "(lunette prelude):";
  if (len >= sizeof prelude - 1 && memcmp(s, prelude, sizeof prelude - 1) == 0) return 0;
  for (i = 1; i < len && s[i] != '\n'; i++) {
    if (s[i] != ':') continue;
    for (j = i + 1; j < len && s[j] >= '0' && s[j] <= '9'; j++) {}
    if (j > i + 1 && j + 1 < len && s[j] == ':' && s[j + 1] == ' ') return 1;
  }
  return 0;
}

/* Continuation of lun_prelude_entry: (status) -> what the function returned,
 * or its error, placed at the script's line. */
static int lun_prelude_entry_k(lua_State *L, int status, lua_KContext ctx) {
  (void)ctx;
  if (status == LUA_OK || status == LUA_YIELD) return lua_gettop(L);
  if (status == LUA_ERRMEM) return lua_error(L);  /* "not enough memory": nothing to add (or to allocate) */
  if (lua_type(L, -1) == LUA_TSTRING && !lun_prelude_positioned(L, -1)) {
    const char *s = lua_tostring(L, -1);
    if (strncmp(s, "(lunette prelude):", 18) == 0) {   /* its own position: the script's instead */
      s = strchr(s + 18, ':');
      s = s ? s + (s[1] == ' ' ? 2 : 1) : lua_tostring(L, -1);
    }
    luaL_where(L, 1);                               /* the script's frame, below this one */
    lua_pushstring(L, s);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

/* A prelude function, entered: (...) -> (...). Upvalue 1: the function. */
static int lun_prelude_entry(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  return lun_prelude_entry_k(L, lua_pcallk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, 0, lun_prelude_entry_k), 0);
}

/* Protected part of lun_enter_prelude: each Lua function of `ui` (the
 * prelude's) is replaced by lun_prelude_entry holding it. [-0, +0] */
static int lun_enter_prelude_k(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_module) != LUA_TTABLE) return 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TFUNCTION && !lua_iscfunction(L, -1)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_pushcclosure(L, lun_prelude_entry, 1);
      lua_rawset(L, 1);                             /* an existing key: the walk goes on */
    } else lua_pop(L, 1);
  }
  return 0;
}

int lun_enter_prelude(lua_State *L) {
  if (!lua_checkstack(L, 8)) return LUN_ERROR;
  lua_pushcfunction(L, lun_enter_prelude_k);
  return lun_protect(L, 0, 0);
}
