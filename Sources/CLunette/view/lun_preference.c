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
 * its subtree in tree order (scheduler.prefs_prepare, one buffer); C
 * reduces them from the key's default and calls the handler when the
 * result differs from the last one it saw (plain tables by contents). What
 * a handler last saw is kept in its view's record, so it goes with it.
 */
#include "core/core.h"
#include "model/model.h"
#include "view/view.h"

static const char lun_key_prefkeys = 0;

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

/* Pushes table `field` of record ref (what its view's handlers last heard,
 * or when their reduce last failed), made on first use; a record that is
 * gone gives a table of its own. The record keeps it: it goes with its
 * view. [-0, +1] */
static void lun_pref_record_table(lua_State *L, int ref, const char *field) {
  if (lua_rawgeti(L, LUA_REGISTRYINDEX, ref) != LUA_TTABLE) { lua_pop(L, 1); lua_newtable(L); return; }
  if (lun_rawfield(L, -1, field) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushstring(L, field);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_replace(L, -2);
}

/* Protected call of handler (at -2) with value (at -1) as a run of its own. [-2, +0] */
static int lun_pref_call_k(lua_State *L) {
  lua_call(L, 1, 0);
  return 0;
}

/* A handler's reduce raised (its error kept as the last error): said as
 * its view's error once a flush, however many rounds meet it again. The
 * handler's identity is at id. [-0, +0] */
static void lun_pref_reduce_failed(lua_State *L, lun_State *S, const lun_PrefItem *h, int id) {
  size_t len;
  const char *msg;
  lun_pref_record_table(L, h->recordRef, "prefsFailed");
  lua_pushvalue(L, id);
  if (lua_rawget(L, -2) != LUA_TNUMBER || (uint32_t)lua_tointeger(L, -1) != S->flushes) {
    msg = lun_last_error(L, &len);
    lunh(S->rt, inspect, event_failed, h->unit, msg, len);
    lua_pushvalue(L, id);
    lua_pushinteger(L, (lua_Integer)S->flushes);
    lua_rawset(L, -4);
  }
  lua_pop(L, 2);
}

/* Reduces and delivers one handler's preference: the handler h, its key
 * (at the top), the values of its subtree (n items from values). Returns
 * 1 if the handler ran. [-0, +0] */
static int lun_pref_deliver(lua_State *L, lun_State *S, const lun_PrefItem *h, const lun_PrefItem *values, int32_t n) {
  int key = lua_gettop(L), id, acc, ran = 0;
  int32_t i;
  lua_pushfstring(L, "%d|%s", (int)h->ordinal, lua_tostring(L, key));   /* its identity in its view */
  id = lua_gettop(L);
  lun_registry_table(L, &lun_key_prefkeys);
  lua_pushvalue(L, key);
  if (lua_rawget(L, -2) != LUA_TTABLE) {          /* undeclared: the values are taken as they are */
    lua_pop(L, 1);
    lua_newtable(L);
  }
  lua_getfield(L, -1, "default");
  acc = lua_gettop(L);
  for (i = 0; i < n; i++) {
    lun_pref_slot_value(L, values[i].recordRef, values[i].slot);
    if (lua_getfield(L, acc - 1, "reduce") == LUA_TFUNCTION) {
      lua_pushvalue(L, acc);
      lua_pushvalue(L, -3);
      if (lun_protect(L, 2, 1) != LUN_OK) {       /* a script's reduce, a run of its own: what it raises */
        lun_pref_reduce_failed(L, S, h, id);      /* is its handler's view's, nothing delivered */
        lua_settop(L, key);
        return 0;
      }
    } else {
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
    }
    lua_replace(L, acc);
    lua_pop(L, 1);
  }
  lun_pref_record_table(L, h->recordRef, "prefsHeard");
  lua_pushvalue(L, id);
  lua_rawget(L, -2);
  lua_pushvalue(L, acc);                          /* an __eq that raises: its handler's view's error, and */
  if (lua_isnil(L, -2) || !lun_values_equal_caught(L, h->unit, 0)) {   /* the value delivered (the latest) */
    lua_pop(L, 1);
    lua_pushvalue(L, id);
    lua_pushvalue(L, acc);
    lun_snapshot(L, -1, "a preference value");
    lua_rawset(L, -4);
    lua_pushcfunction(L, lun_pref_call_k);
    lun_pref_slot_value(L, h->recordRef, h->slot);
    lua_pushvalue(L, acc);
    lun_protect_event(L, 2, 0, h->unit);
    ran = 1;
  }
  lua_settop(L, key);
  return ran;
}

/* After a round: delivers every handler's reduced preference that changed,
 * from the host's list (one call). A handler's code may flush, but a
 * flush within a flush does nothing, so the list is not asked for again
 * while it is read. Returns how many handlers ran. */
LUN_HOT int lun_preferences_run(lua_State *L, lun_State *S) {
  const lun_PrefItem *items = NULL;
  const char *keys = NULL;
  size_t keysLen = 0;
  int32_t count = lunh(S->rt, scheduler, prefs_prepare, &items, &keys, &keysLen), i = 0;
  int ran = 0;
  while (i < count) {
    const lun_PrefItem *h = &items[i];
    int32_t next = i + 1;
    while (next < count && items[next].kind == LUN_PREF_VALUE) next++;
    if (h->kind == LUN_PREF_HANDLER && h->keyLen >= 0 && h->keyAt >= 0 && (uint64_t)h->keyAt <= keysLen
        && (size_t)h->keyLen <= keysLen - (size_t)h->keyAt) {
      lua_pushlstring(L, keys + h->keyAt, (size_t)h->keyLen);
      ran += lun_pref_deliver(L, S, h, items + i + 1, next - i - 1);
      lua_pop(L, 1);
    }
    i = next;
  }
  return ran;
}

void lun_open_preference(lua_State *L) {
  lua_pushcfunction(L, lun_ui_preference_key);
  lua_setfield(L, -2, "PreferenceKey");
}
