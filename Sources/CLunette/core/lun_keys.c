/*
 * lun_keys.c — the hot paths' field names, interned once per state.
 *
 * lua_getfield(L, t, "info") finds the string "info" anew on every call
 * (a cache lookup and a strcmp, then the hash); a run, a walk and a read
 * through self do dozens such lookups. Each name of LUN_KEYS (core.h) is
 * made once, kept in the registry, and pushed by its reference
 * (lun_getkey, lun_setkey): an integer lookup.
 */
#include "core/core.h"

static const char *const lun_key_names[] = {
#define LUN_KEY_NAME_(id, name) name,
  LUN_KEYS(LUN_KEY_NAME_)
#undef LUN_KEY_NAME_
};

/* Interns every name into S (at install, under protection: may raise "not enough memory"). [-0, +0] */
void lun_keys_open(lua_State *L, lun_State *S) {
  int i;
  for (i = 0; i < LUN_KEY_COUNT; i++) {
    S->keyNames[i] = lua_pushstring(L, lun_key_names[i]);   /* short, so interned: kept alive by its ref */
    S->keyRefs[i] = (int32_t)luaL_ref(L, LUA_REGISTRYINDEX);
  }
}

_Static_assert(LUN_KEY_COUNT <= (int)(sizeof(((lun_State *)0)->keyRefs) / sizeof(int32_t)),
               "lun_State.keyRefs holds every LUN_KEYS name");
_Static_assert(LUN_KEY_COUNT <= (int)(sizeof(((lun_State *)0)->keyNames) / sizeof(const char *)),
               "lun_State.keyNames holds every LUN_KEYS name");
