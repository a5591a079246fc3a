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
 * each round of a flush the host lists every handler, with the range of
 * its subtree's values of its key in tree order (scheduler.prefs_prepare,
 * one buffer: each value listed once); C reduces them from the key's
 * default and calls the handler when the result differs from the last one
 * it saw there (plain tables by contents), which its view's runs carry.
 */
#include "core/core.h"
#include "model/model.h"
#include "view/view.h"

static const char lun_key_prefkeys = 0;

/* 1 if the len bytes at s are well-formed UTF-8 (The Unicode Standard,
 * table 3-7: no overlong form, no surrogate, nothing past U+10FFFF). */
static int lun_pref_utf8(const unsigned char *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    unsigned c = s[i], lo = 0x80, hi = 0xBF, n;
    if (c < 0x80) { i++; continue; }
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c >= 0xE0 && c <= 0xEF) { n = 2; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 3; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
    else return 0;
    if (len - i <= n || s[i + 1] < lo || s[i + 1] > hi) return 0;
    for (c = 2; c <= n; c++)
      if (s[i + c] < 0x80 || s[i + c] > 0xBF) return 0;
    i += n + 1;
  }
  return 1;
}

/* ui.PreferenceKey(name, default [, reduce]) -> name. reduce(acc, next) -> acc;
 * without one, the last value in tree order wins. A name is UTF-8 text with
 * no NUL: the host lists values by their keys' bytes. */
static int lun_ui_preference_key(lua_State *L) {
  size_t len;
  const char *name;
  if (lua_type(L, 1) != LUA_TSTRING) luaL_typeerror(L, 1, "string");   /* a number is no key's name */
  lun_no_extra(L, "ui.PreferenceKey", 3, 0);
  name = lua_tolstring(L, 1, &len);
  if (strlen(name) != len) luaL_argerror(L, 1, "a preference key's name holds no NUL byte");
  if (!lun_pref_utf8((const unsigned char *)name, len)) luaL_argerror(L, 1, "a preference key's name is UTF-8 text");
  if (!lua_isnoneornil(L, 3)) luaL_checktype(L, 3, LUA_TFUNCTION);
  lua_settop(L, 3);
  lun_registry_table(L, &lun_key_prefkeys);
  lua_pushvalue(L, 1);
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, "default");
  lua_pushvalue(L, 3);
  lua_setfield(L, -2, "reduce");
  lua_rawset(L, -3);
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

/* The walk met a view's onPreferenceChange handlers (the list of { key, fn }
 * at lidx): each is kept in a slot as { fn, identity }, named by an
 * attribute "onPreferenceChange:<key>". Its identity is where it is: the
 * open node's position, its key, and its place among that node's handlers
 * of that key. What it last heard there (and when its reduce last failed)
 * is carried from the last run to this one's out table: a handler that
 * went is forgotten with the run that had it, and one that comes back is
 * told its value as a new one is. [-0, +0] */
void lun_pref_walk_handlers(lua_State *L, lun_Walk *W, int lidx) {
  static const char *const field = "prefWatch";
  lua_Integer i, n;
  size_t plen, klen;
  const char *path;
  int top = lua_gettop(L), counts;
  lidx = lua_absindex(L, lidx);
  if (!lua_istable(L, lidx)) luaL_error(L, "a view value was altered: its field '%s' holds what Lunette did not put there", field);
  n = lun_rawlen_bounded(L, lidx, "a view's preference list");
  path = lun_out_path(L, &plen);
  lua_pushlstring(L, path, plen);                 /* top + 1: the node's position */
  lua_newtable(L);                                /* top + 2: handlers of each key so far on this node */
  counts = top + 2;
  for (i = 1; i <= n; i++) {
    luaL_Buffer b;
    lua_Integer copy;
    const char *key;
    int32_t slot;
    if (lua_rawgeti(L, lidx, i) != LUA_TTABLE || lua_rawgeti(L, -1, 1) != LUA_TSTRING)
      luaL_error(L, "a view value was altered: its field '%s' holds what Lunette did not put there", field);
    key = lua_tolstring(L, -1, &klen);            /* top + 3: the entry, top + 4: its key */
    lua_pushvalue(L, -1);
    copy = lua_rawget(L, counts) == LUA_TNUMBER ? lua_tointeger(L, -1) + 1 : 1;
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushinteger(L, copy);
    lua_rawset(L, counts);
    luaL_buffinit(L, &b);                         /* top + 5: its identity */
    luaL_addlstring(&b, lua_tostring(L, top + 1), plen);
    lua_rawgeti(L, top + 3, 3);                   /* where it is written (lun_site_here): an if's branches differ */
    lua_pushfstring(L, "|%I|%I:", (LUAI_UACINT)lua_tointeger(L, -1), (LUAI_UACINT)klen);   /* the key's length */
    lua_remove(L, -2);                            /* first: "a#2" is no copy of "a" */
    luaL_addvalue(&b);
    luaL_addlstring(&b, key, klen);
    lua_pushfstring(L, "#%I", (LUAI_UACINT)copy);
    luaL_addvalue(&b);
    luaL_pushresult(&b);
    lun_walk_kept(L, W, "prefsHeard", top + 5);
    if (!lua_isnil(L, -1)) lun_walk_keep(L, W, "prefsHeard", top + 5); else lua_pop(L, 1);
    lun_walk_kept(L, W, "prefsFailed", top + 5);
    if (!lua_isnil(L, -1)) lun_walk_keep(L, W, "prefsFailed", top + 5); else lua_pop(L, 1);
    lua_createtable(L, 2, 0);                     /* { fn, identity } */
    lua_rawgeti(L, top + 3, 2);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, top + 5);
    lua_rawseti(L, -2, 2);
    slot = lun_walk_store(L, W, -1);
    lua_pushliteral(L, "onPreferenceChange:");
    lua_pushvalue(L, top + 4);
    lua_concat(L, 2);
    lua_pushfstring(L, "%d", (int)slot);
    key = lua_tolstring(L, -2, &klen);
    lun_out_attr(L, key, klen, lua_tostring(L, -1), lua_rawlen(L, -1));
    lua_settop(L, top + 2);
  }
  lua_settop(L, top);
}

/* Pushes table `field` of the out table of record ref (what its view's
 * handlers last heard, or when their reduce last failed: kept by each run
 * for the handlers it has, lun_pref_walk_handlers), made on first use; a
 * record that is gone gives a table of its own. [-0, +1] */
static void lun_pref_kept(lua_State *L, int ref, const char *field) {
  int top = lua_gettop(L);
  if (lua_rawgeti(L, LUA_REGISTRYINDEX, ref) == LUA_TTABLE && lua_getfield(L, -1, "out") == LUA_TTABLE) {
    if (lua_getfield(L, -1, field) != LUA_TTABLE) {   /* the run's own out: it holds the handler */
      lua_pop(L, 1);
      lua_newtable(L);
      lua_pushvalue(L, -1);
      lua_setfield(L, -3, field);
    }
  } else lua_newtable(L);
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

/* Protected call of handler (at -2) with value (at -1) as a run of its own. [-2, +0] */
static int lun_pref_call_k(lua_State *L) {
  lua_call(L, 1, 0);
  return 0;
}

/* Protected part of a value's copy: (value) -> copy. */
static int lun_pref_snapshot_k(lua_State *L) {
  lun_snapshot(L, 1, "a preference value");
  return 1;
}

/* A handler's reduce raised (its error kept as the last error): said as
 * its view's error once a flush, however many rounds meet it again. The
 * handler's identity is at id. [-0, +0] */
static void lun_pref_reduce_failed(lua_State *L, lun_State *S, const lun_PrefItem *h, int id) {
  size_t len;
  const char *msg;
  lun_pref_kept(L, h->recordRef, "prefsFailed");
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

/* Reduces and delivers one handler's preference: the handler h (its key at
 * the top), the values of its subtree (n items from values); the pass
 * began at start (lun_budget_clock). Returns 1 if the handler ran, -1 if
 * the pass ran past the time budget (said as the handler's view's error:
 * handlers times values are what a script made). [-0, +0] */
static int lun_pref_deliver(lua_State *L, lun_State *S, const lun_PrefItem *h, const lun_PrefItem *values, int32_t n,
                            uint64_t start, uint32_t *steps) {
  int key = lua_gettop(L), handler, id, acc, ran = 0;
  int32_t i;
  lun_pref_slot_value(L, h->recordRef, h->slot);  /* { fn, identity } */
  handler = lua_gettop(L);
  if (!lua_istable(L, handler) || lua_rawgeti(L, handler, 2) != LUA_TSTRING) { lua_settop(L, key); return 0; }
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
    if ((++*steps & 1023) == 0 && lun_budget_over(S, start)) { lua_settop(L, key); return -1; }
    lun_pref_slot_value(L, values[i].recordRef, values[i].slot);
    if (lua_getfield(L, acc - 1, "reduce") == LUA_TFUNCTION) {
      lua_pushvalue(L, acc);
      lua_pushvalue(L, -3);
      if (lun_protect(L, 2, 1) != LUN_OK) {       /* a script's reduce, a run of its own: what it raises */
        lun_pref_reduce_failed(L, S, h, id);      /* is its handler's view's, nothing delivered */
        lua_settop(L, key);
        return 0;
      }
      if (lun_budget_over(S, start)) { lua_settop(L, key); return -1; }   /* each call may take its own budget */
    } else {
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
    }
    lua_replace(L, acc);
    lua_pop(L, 1);
  }
  lun_pref_kept(L, h->recordRef, "prefsHeard");
  lua_pushvalue(L, id);
  lua_rawget(L, -2);
  lua_pushvalue(L, acc);                          /* an __eq that raises: its handler's view's error, and */
  if (lua_isnil(L, -2) || !lun_values_equal_caught(L, h->unit, 0)) {   /* the value delivered (the latest) */
    lua_pop(L, 1);
    lua_pushcfunction(L, lun_pref_snapshot_k);    /* the copy kept: a value that cannot be copied (it */
    lua_pushvalue(L, acc);                        /* holds itself, too deep) is its view's error */
    if (lun_protect_event(L, 1, 1, h->unit) != LUN_OK) { lua_settop(L, key); return 0; }
    lua_pushvalue(L, id);                         /* heard, last, copy, id */
    lua_insert(L, -2);
    lua_rawset(L, -4);                            /* heard[id] = copy */
    lua_pushcfunction(L, lun_pref_call_k);
    lua_rawgeti(L, handler, 1);
    lua_pushvalue(L, acc);
    lun_protect_event(L, 2, 0, h->unit);
    ran = 1;
  }
  lua_settop(L, key);
  return ran;
}

/* After a round: delivers every handler's reduced preference that changed,
 * from the host's list (one call): the handlers, in tree order, each with
 * the range of the list's values that are its subtree's. A handler's code
 * may not flush (views are rendering), so the list is not made again while
 * it is read. A pass is bounded by the time budget; one cut short is said,
 * and the next begins after the handler it stopped at, so a handler too
 * heavy for the budget holds up no other. Returns how many handlers ran. */
LUN_HOT int lun_preferences_run(lua_State *L, lun_State *S) {
  const lun_PrefItem *items = NULL;
  const char *keys = NULL;
  size_t keysLen = 0;
  int32_t count = lunh(S->rt, scheduler, prefs_prepare, &items, &keys, &keysLen), k, from;
  int ran = 0, did;
  uint32_t steps = 0;                             /* handlers and values reduced: the budget is looked at */
  uint64_t start = lun_budget_clock();            /* every 1024 of them, across the pass */
  if (count <= 0) return 0;                       /* no pass: where the next begins stays */
  from = S->prefResume > 0 && S->prefResume < count ? S->prefResume : 0;
  S->prefResume = 0;
  for (k = 0; k < count; k++) {
    const lun_PrefItem *h = &items[(from + k) % count];
    if (h->kind != LUN_PREF_HANDLER || h->keyLen < 0 || h->keyAt < 0 || (uint64_t)h->keyAt > keysLen
        || (size_t)h->keyLen > keysLen - (size_t)h->keyAt || h->first < 0 || h->count < 0 || h->first > count
        || h->count > count - h->first)
      continue;
    did = (++steps & 1023) == 0 && lun_budget_over(S, start) ? -2 : 0;   /* -2: before this one began */
    if (!did) {
      lua_pushlstring(L, keys + h->keyAt, (size_t)h->keyLen);
      did = lun_pref_deliver(L, S, h, items + h->first, h->count, start, &steps);
      lua_pop(L, 1);
    }
    if (did < 0) {                                /* past the budget: said, naming the view it stopped in */
      int32_t left = 0, j;
      for (j = k; j < count; j++) left += items[(from + j) % count].kind == LUN_PREF_HANDLER;
      S->prefResume = (from + k + (did == -2 ? 0 : 1)) % count;
      lua_pushfstring(L, "preferences: reducing the views' values ran longer than the time budget; "
                         "%d onPreferenceChange handlers were not told", (int)left);
      lunh(S->rt, inspect, event_failed, h->unit, lua_tostring(L, -1), lua_rawlen(L, -1));
      lua_pop(L, 1);
      break;
    }
    ran += did;
  }
  return ran;
}

void lun_open_preference(lua_State *L) {
  lua_pushcfunction(L, lun_ui_preference_key);
  lua_setfield(L, -2, "PreferenceKey");
}
