/*
 * lun_seal.c — Lunette's metatables, and checks a script cannot forge.
 *
 * Every metatable of the module is protected with __metatable: getmetatable
 * answers its name, setmetatable refuses to change it, and no script can
 * reach it to edit a field or set it on a value of its own. Whether a value
 * is one of Lunette's is decided only by its metatable's identity, looked up
 * in the registry (which scripts cannot reach):
 *   - named metatables (one per kind of userdata) as luaL_checkudata does;
 *   - per-class metatables (models, Swift types, class tables) in the sealed
 *     table, metatable -> kind.
 * No field a script could write ever decides a type.
 */
#include "core/core.h"

const char lun_key_sealed;   /* metatable -> LUN_SEAL_* (weak keys) */

/* Protects the metatable at idx: getmetatable answers `name`. [-0, +0] */
static void lun_protect_metatable(lua_State *L, int idx, const char *name) {
  idx = lua_absindex(L, idx);
  lua_pushstring(L, name);
  lua_setfield(L, idx, "__metatable");
}

/* luaL_newmetatable, protected. [-0, +1] */
int lun_newmetatable(lua_State *L, const char *name) {
  int fresh = luaL_newmetatable(L, name);
  if (fresh) lun_protect_metatable(L, -1, name);
  return fresh;
}

/* A protected metatable `name` whose __index is a table of `methods`
 * (app:find, timer:sink, subscription:cancel, ...). [-0, +0] */
void lun_newmetatable_methods(lua_State *L, const char *name, const luaL_Reg *methods) {
  lun_newmetatable(L, name);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}

/* Registers the metatable at idx as Lunette's, of kind `kind`, and protects it. [-0, +0] */
void lun_seal(lua_State *L, int idx, int kind, const char *name) {
  idx = lua_absindex(L, idx);
  lun_protect_metatable(L, idx, name);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_sealed) != LUA_TTABLE) {
    lua_pop(L, 1);
    lun_new_weak_table(L, "k");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_sealed);
  }
  lua_pushvalue(L, idx);
  lua_pushinteger(L, kind);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* The LUN_SEAL_* kind of the value at idx if its metatable is a sealed one,
 * else 0. Only userdata are asked for LUN_SEAL_OBJECT and LUN_SEAL_HOST. [-0, +0] */
int lun_sealed_kind(lua_State *L, int idx) {
  int kind;
  if (!lua_getmetatable(L, idx)) return 0;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_sealed) != LUA_TTABLE) { lua_pop(L, 2); return 0; }
  lua_insert(L, -2);                             /* sealed, mt */
  lua_rawget(L, -2);
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 2);
  return kind;
}
