/*
 * lun_envlist.c — a view value's environment list (its field `env`): the
 * { key, value } entries :environment appends, the { key, fn, true, site }
 * ones :transformEnvironment appends, and the ones a presented screen gets
 * (ui._presented). Only the runtime makes them: each is kept with a copy
 * of its fields, made when it was checked, so an entry a script altered or
 * added with rawset (a built-in value that skipped its check, a read-only
 * isPresented) is refused by the walk, as other altered fields are.
 */
#include "core/core.h"
#include "view/view.h"

#define LUN_ENV_FIELDS 4

static const char lun_key_envmade = 0;   /* entry -> a copy of its fields (weak keys) */

/* Pushes the table of entries the runtime made. [-0, +1] */
static void lun_envlist_made(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_envmade) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lun_new_weak_table(L, "k");
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_envmade);
}

/* Appends the entry on top to the environment list of the view at v (made
 * if missing), keeping a copy of its fields. [-1, +0] */
void lun_envlist_add(lua_State *L, int v) {
  int i, entry = lua_gettop(L);
  v = lua_absindex(L, v);
  lun_envlist_made(L);
  lua_pushvalue(L, entry);
  lua_createtable(L, LUN_ENV_FIELDS, 0);
  for (i = 1; i <= LUN_ENV_FIELDS; i++) {
    lua_rawgeti(L, entry, i);
    lua_rawseti(L, -2, i);
  }
  lua_rawset(L, -3);
  lua_pop(L, 1);
  if (lun_rawfield(L, v, "env") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, v, "env");
  }
  lua_pushvalue(L, entry);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_settop(L, entry - 1);
}

/* 1 if the table at idx is an entry the runtime made, as it made it. [-0, +0] */
int lun_envlist_intact(lua_State *L, int idx) {
  int i, intact;
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx)) return 0;
  lun_envlist_made(L);
  lua_pushvalue(L, idx);
  intact = lua_rawget(L, -2) == LUA_TTABLE;
  for (i = 1; intact && i <= LUN_ENV_FIELDS; i++) {
    lua_rawgeti(L, -1, i);
    lua_rawgeti(L, idx, i);
    intact = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
  }
  lua_pop(L, 2);
  return intact;
}
