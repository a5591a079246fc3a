/*
 * lun_registry.c — the module's places in the Lua registry: the keys (their
 * addresses), tables made on first use, weak tables.
 */
#include "core/core.h"

const char lun_key_objects, lun_key_proxies, lun_key_hosts, lun_key_hosttypes,
           lun_key_envkeys, lun_key_module, lun_key_suspend, lun_key_state;

/* 1 if a runtime is installed in L. */
int lun_installed(lua_State *L) {
  int installed = lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_state) == LUA_TUSERDATA;
  lua_pop(L, 1);
  return installed;
}

/* Pushes registry[key], creating an empty table there first if needed:
 * one whose keys or values are weak if mode says ("k", "v"; NULL: none). */
void lun_registry_weak(lua_State *L, const void *key, const char *mode) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) != LUA_TTABLE) {
    lua_pop(L, 1);
    if (mode) lun_new_weak_table(L, mode);
    else lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
  }
}

/* Pushes registry[key], creating an empty table there first if needed. */
void lun_registry_table(lua_State *L, const void *key) {
  lun_registry_weak(L, key, NULL);
}

/* Pushes a new table whose keys or values ("k", "v") are weak. */
void lun_new_weak_table(lua_State *L, const char *mode) {
  lua_newtable(L);
  lua_newtable(L);
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
}
