/*
 * lun_preference.c — preferences: values that flow from children up to an
 * ancestor after the update (T06), as SwiftUI's PreferenceKey.
 *
 *   ui.PreferenceKey("title", "", function(acc, next) return next end)
 *   child:preference("title", "Inbox")
 *   ancestor:onPreferenceChange("title", function(value) ... end)
 *
 * The walker keeps each value and each handler in its unit's `out` table
 * and names their slots in node attributes ("preference:title" = 3). After
 * each round of a flush the host lists, for every handler, the values in
 * its subtree in tree order (scheduler.prefs_item); C reduces them from the
 * key's default and calls the handler when the result differs from the
 * last one it saw (plain tables by contents).
 */
#include "core/core.h"
#include "model/model.h"
#include "view/view.h"

static const char lun_key_prefkeys = 0, lun_key_preflast = 0;

/* ui.PreferenceKey(name, default [, reduce]) -> name. reduce(acc, next) -> acc;
 * without one, the last value in tree order wins. */
static int lun_ui_preference_key(lua_State *L) {
  luaL_checkstring(L, 1);
  if (!lua_isnoneornil(L, 3)) luaL_checktype(L, 3, LUA_TFUNCTION);
  lua_settop(L, 3);
  lun_registry_table(L, &lun_key_prefkeys);
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, "default");
  lua_pushvalue(L, 3);
  lua_setfield(L, -2, "reduce");
  lua_setfield(L, -2, lua_tostring(L, 1));
  lua_settop(L, 1);
  return 1;
}

/* Raises, naming `call`, unless the value at idx is a preference key
 * ui.PreferenceKey declared (SwiftUI's preference(key:value:) takes a
 * PreferenceKey type: a misspelt name was a key of its own). [-0, +0] */
void lun_pref_check_declared(lua_State *L, int idx, const char *call) {
  int declared;
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TSTRING)
    lun_error_here(L, "%s: its key is a preference key's name (ui.PreferenceKey(\"name\", default)), got %s", call,
                   luaL_typename(L, idx));
  lun_registry_table(L, &lun_key_prefkeys);
  lua_pushvalue(L, idx);
  declared = lua_rawget(L, -2) == LUA_TTABLE;
  lua_pop(L, 1);
  if (!declared) {
    lun_push_key_suggestion(L, lua_tostring(L, idx), lua_gettop(L), 0);
    lun_error_here(L, "%s: preference key '%s' is not declared (ui.PreferenceKey(\"%s\", default [, reduce]))%s", call,
                   lua_tostring(L, idx), lua_tostring(L, idx), lua_tostring(L, -1));
  }
  lua_pop(L, 1);
}

/* Pushes record ref's out[slot]. [-0, +1] */
static void lun_pref_slot_value(lua_State *L, int ref, int32_t slot) {
  if (lua_rawgeti(L, LUA_REGISTRYINDEX, ref) != LUA_TTABLE) { lua_pop(L, 1); lua_pushnil(L); return; }
  lua_getfield(L, -1, "out");
  lua_rawgeti(L, -1, slot);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* Protected call of handler (at -2) with value (at -1) as a run of its own. [-2, +0] */
static int lun_pref_call_k(lua_State *L) {
  lua_call(L, 1, 0);
  return 0;
}

/* Reduces and delivers one handler's preference: the handler at ref/slot,
 * its key and identity strings, its unit; the values are the host's items
 * first .. last-1. Returns 1 if the handler ran. */
static int lun_pref_deliver(lua_State *L, lun_State *S, int ref, int32_t slot, const char *key, const char *id,
                            int32_t unit, int32_t first, int32_t last) {
  int acc, ran = 0, kind, vref;
  int32_t i, vslot;
  size_t len;
  lun_registry_table(L, &lun_key_prefkeys);
  if (lua_getfield(L, -1, key) != LUA_TTABLE) {     /* undeclared: the values are taken as they are */
    lua_pop(L, 1);
    lua_newtable(L);
  }
  lua_getfield(L, -1, "default");
  acc = lua_gettop(L);
  for (i = first; i < last; i++) {
    lunh(S->rt, scheduler, prefs_item, i, &kind, &vref, &vslot, &len);
    lun_pref_slot_value(L, vref, vslot);
    if (lua_getfield(L, acc - 1, "reduce") == LUA_TFUNCTION) {
      lua_pushvalue(L, acc);
      lua_pushvalue(L, -3);
      if (lun_protect_event(L, 2, 1, unit) != LUN_OK) {   /* a script's reduce, a run of its own: what it */
        lua_settop(L, acc - 3);                           /* raises is its handler's view's, nothing delivered */
        return 0;
      }
    } else {
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
    }
    lua_replace(L, acc);
    lua_pop(L, 1);
  }
  lun_registry_table(L, &lun_key_preflast);
  lua_getfield(L, -1, id);
  lua_pushvalue(L, acc);                          /* an __eq that raises: its handler's view's error, and */
  if (lua_isnil(L, -2) || !lun_values_equal_caught(L, unit, 0)) {   /* the value delivered (the latest) */
    lua_pop(L, 1);
    lua_pushvalue(L, acc);
    lun_snapshot(L, -1, "a preference value");
    lua_setfield(L, -3, id);
    lua_pushcfunction(L, lun_pref_call_k);
    lun_pref_slot_value(L, ref, slot);
    lua_pushvalue(L, acc);
    lun_protect_event(L, 2, 0, unit);
    ran = 1;
  }
  lua_settop(L, acc - 3);
  return ran;
}

/* After a round: delivers every handler's reduced preference that changed.
 * Returns how many handlers ran. */
LUN_HOT int lun_preferences_run(lua_State *L, lun_State *S) {
  int32_t count = lunh(S->rt, scheduler, prefs_prepare), i = 0, slot, dummy;
  int kind, ref, ran = 0, vkind, vref;
  size_t len, vlen;
  while (i < count) {
    const char *text = lunh(S->rt, scheduler, prefs_item, i, &kind, &ref, &slot, &len), *nl1, *nl2;
    int32_t next = i + 1;
    while (next < count && (lunh(S->rt, scheduler, prefs_item, next, &vkind, &vref, &dummy, &vlen), vkind == LUN_PREF_VALUE)) next++;
    text = lunh(S->rt, scheduler, prefs_item, i, &kind, &ref, &slot, &len);      /* (the item text lives until the next call) */
    nl1 = kind == LUN_PREF_HANDLER ? memchr(text, '\n', len) : NULL;
    nl2 = nl1 ? memchr(nl1 + 1, '\n', len - (size_t)(nl1 + 1 - text)) : NULL;
    if (nl1 && nl2) {                                 /* "key\nidentity\nunit" */
      lua_pushlstring(L, text, (size_t)(nl1 - text));
      lua_pushlstring(L, nl1 + 1, (size_t)(nl2 - nl1 - 1));
      lua_pushlstring(L, nl2 + 1, len - (size_t)(nl2 + 1 - text));
      ran += lun_pref_deliver(L, S, ref, slot, lua_tostring(L, -3), lua_tostring(L, -2),
                              (int32_t)lua_tointeger(L, -1), i + 1, next);
      lua_pop(L, 3);
    }
    i = next;
  }
  return ran;
}

void lun_open_preference(lua_State *L) {
  lua_pushcfunction(L, lun_ui_preference_key);
  lua_setfield(L, -2, "PreferenceKey");
}
