/*
 * lun_envbuiltin.c — the built-in environment values SwiftUI gives every
 * view (issue 19): colorScheme, locale, scenePhase, editMode, isPresented
 * and openURL, beside isEnabled (lun_enabled.c) and dismiss (lun_binding.c).
 *
 * A view reads them as any declared key (`environment = { scheme =
 * "colorScheme" }`); :environment(key, value) sets one for a subtree where
 * SwiftUI lets a view set it, and its value is checked there
 * (lun_envbuiltin_check): isPresented and dismiss are read-only — a sheet,
 * a fullScreenCover, a popover or a pushed screen sets them
 * (lun_envbuiltin_presented, and the private ui._presented the prelude's
 * NavigationStack takes for its pushed screens).
 *
 * openURL is an action: the default one hands the URL to the host (the
 * open_url callback: the host decides what opening means; `lunette run`
 * prints it). A script's own action, set with :environment("openURL", fn),
 * runs fn(url), which returns "handled" (or nothing), "discarded", or
 * "systemAction" (and optionally another URL) to have the host open it, as
 * OpenURLAction(handler:) does.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#include <stdarg.h>

/* The longest URL a script may open: the host keeps each one until it hands it on. */
#define LUN_MAX_URL 8192

/* The default openURL action: (url) -> (); hands url to the host. */
static int lun_openurl_system(lua_State *L) {
  size_t len;
  const char *url;
  if (lua_type(L, 1) != LUA_TSTRING) {
    lun_describe(L, 1, 1);
    return lun_error_here(L, "openURL: a URL string expected, got %s", lua_tostring(L, -1));
  }
  url = lua_tolstring(L, 1, &len);
  if (len == 0 || len > LUN_MAX_URL)
    return lun_error_here(L, "openURL: a URL is 1 to %d bytes, got %d", LUN_MAX_URL, (int)(len > 1000000 ? 1000000 : len));
  lunh(lun_state(L)->rt, inspect, open_url, url, len);
  return 0;
}

/* A script's openURL action (upvalue 1: its handler): (url) -> (); runs the
 * handler and, when it answers "systemAction", the default action with the
 * URL it gave (or the same one). */
static int lun_openurl_custom(lua_State *L) {
  const char *result;
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  if (lua_type(L, 1) != LUA_TSTRING) {
    lun_describe(L, 1, 1);
    return lun_error_here(L, "openURL: a URL string expected, got %s", lua_tostring(L, -1));
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_call(L, 1, 2);                              /* 2: the result, 3: another URL */
  if (lua_isnil(L, 2)) return 0;
  result = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "";
  if (strcmp(result, "handled") == 0 || strcmp(result, "discarded") == 0) return 0;
  if (strcmp(result, "systemAction") != 0) {
    lun_describe(L, 2, 1);
    return lun_error_here(L, "openURL: the handler returned %s; expected \"handled\", \"discarded\" or \"systemAction\"",
                          lua_tostring(L, -1));
  }
  lua_pushcfunction(L, lun_openurl_system);
  lua_pushvalue(L, lua_isnil(L, 3) ? 1 : 3);
  lua_call(L, 1, 0);
  return 0;
}

/* Raises the message fmt…, prefixed with site ("file:line: ", where the
 * transform that derived the value was written) or, when site is NULL,
 * with the position of the Lua code calling now (:environment). */
static int lun_envbuiltin_raise(lua_State *L, const char *site, const char *fmt, ...) {
  va_list argp;
  va_start(argp, fmt);
  lua_pushvfstring(L, fmt, argp);
  va_end(argp);
  if (!site) return lun_error_here(L, "%s", lua_tostring(L, -1));
  lua_pushfstring(L, "%s%s", site, lua_tostring(L, -1));
  return lua_error(L);
}

/* Raises: value (at vidx) is not one of `allowed`; `what` names the call
 * that gave it. [-0, +0] */
static void lun_envbuiltin_refuse(lua_State *L, const char *what, int vidx, const char *allowed, const char *site) {
  lun_describe(L, vidx, 1);
  lun_envbuiltin_raise(L, site, "%s: %s expected, got %s", what, allowed, lua_tostring(L, -1));
}

/* 1 if the value at idx is a string among `names`. */
static int lun_envbuiltin_one_of(lua_State *L, int idx, const char *const names[]) {
  int i;
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  for (i = 0; names[i]; i++)
    if (strcmp(lua_tostring(L, idx), names[i]) == 0) return 1;
  return 0;
}

/* 1 if key (a string) is one of the read-only built-in values. */
/* Who sets the read-only key `key`, for the error that refuses setting it. */
const char *lun_envbuiltin_setter(const char *key) {
  return strcmp(key, "refresh") == 0 ? ":refreshable sets it for the views inside"
                                     : "a sheet, a fullScreenCover, a popover or a pushed screen sets it for its content";
}

int lun_envbuiltin_readonly(const char *key) {
  return strcmp(key, "isPresented") == 0 || strcmp(key, "dismiss") == 0 || strcmp(key, "refresh") == 0;
}

/* Checks the value at vidx (absolute) of the built-in key `key` as
 * SwiftUI's type would; `what` names the call that gave it, `site` as
 * lun_envbuiltin_raise. An openURL handler is replaced by the action that
 * runs it. Other keys pass. [-0, +0] */
static void lun_envbuiltin_value(lua_State *L, const char *key, int vidx, const char *what, const char *site) {
  static const char *const schemes[] = {"light", "dark", NULL};
  static const char *const phases[] = {"active", "inactive", "background", NULL};
  static const char *const modes[] = {"inactive", "transient", "active", NULL};
  if (strcmp(key, "colorScheme") == 0 && !lun_envbuiltin_one_of(L, vidx, schemes))
    lun_envbuiltin_refuse(L, what, vidx, "\"light\" or \"dark\"", site);
  else if (strcmp(key, "scenePhase") == 0 && !lun_envbuiltin_one_of(L, vidx, phases))
    lun_envbuiltin_refuse(L, what, vidx, "\"active\", \"inactive\" or \"background\"", site);
  else if (strcmp(key, "locale") == 0 && !(lua_type(L, vidx) == LUA_TSTRING && lua_rawlen(L, vidx) > 0))
    lun_envbuiltin_refuse(L, what, vidx, "a locale identifier (\"fr_FR\")", site);
  else if (strcmp(key, "editMode") == 0 && !lua_isnil(L, vidx)) {
    if (!lun_binding_test(L, vidx))
      lun_envbuiltin_refuse(L, what, vidx, "a Binding to \"inactive\", \"transient\" or \"active\" (or nil)", site);
    lun_binding_get(L, vidx);
    if (!lun_envbuiltin_one_of(L, -1, modes)) {
      lun_describe(L, -1, 1);
      lun_envbuiltin_raise(L, site, "%s: the binding holds %s; an edit mode is \"inactive\", \"transient\" or \"active\"",
                           what, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  } else if (strcmp(key, "openURL") == 0) {
    if (!lua_isfunction(L, vidx))
      lun_envbuiltin_refuse(L, what, vidx, "a function(url) returning \"handled\", \"discarded\" or \"systemAction\"", site);
    if (lua_tocfunction(L, vidx) != lun_openurl_system && lua_tocfunction(L, vidx) != lun_openurl_custom) {
      lua_pushvalue(L, vidx);
      lua_pushcclosure(L, lun_openurl_custom, 1);
      lua_replace(L, vidx);
    }
  }
}

/* Protected part of lun_env_system_set: (key, value) -> (). */
static int lun_env_system_set_k(lua_State *L) {
  const char *key = lua_tostring(L, 1);
  if (!lun_env_system_key(key))
    return luaL_error(L, "setEnvironment: '%s' is not a value the system sets (colorScheme, locale or scenePhase)", key);
  lua_pushfstring(L, "setEnvironment(\"%s\", …)", key);
  lun_envbuiltin_value(L, key, 2, lua_tostring(L, -1), "");
  lun_env_system_write(L, 1, 2);
  return 0;
}

int lun_env_system_set(lua_State *L, const char *key, const char *value, size_t len) {
  if (!lua_checkstack(L, 8)) return LUN_ERROR;
  lua_pushcfunction(L, lun_env_system_set_k);
  lua_pushstring(L, key);
  lua_pushlstring(L, value, len);
  return lun_protect(L, 2, 0);
}

/* :environment(key, value) of a built-in key (key at kidx, value at vidx):
 * checks the value as SwiftUI's type would, and refuses a read-only key;
 * an openURL handler is replaced by the action that runs it. Other keys
 * pass. [-0, +0] */
void lun_envbuiltin_check(lua_State *L, int kidx, int vidx) {
  const char *key;
  if (lua_type(L, kidx) != LUA_TSTRING) return;
  key = lua_tostring(L, kidx);
  vidx = lua_absindex(L, vidx);
  if (lun_envbuiltin_readonly(key))
    lun_error_here(L, ":environment(\"%s\", …): %s is read-only (%s)", key, key, lun_envbuiltin_setter(key));
  lua_pushfstring(L, ":environment(\"%s\", …)", key);
  lun_envbuiltin_value(L, key, vidx, lua_tostring(L, -1), NULL);
  lua_pop(L, 1);
}

/* The value at vidx that view:transformEnvironment derived for the key at
 * kidx, on the view value at v, from the transform written at site
 * ("file:line: " or ""): a built-in key's value is checked as
 * :environment checks one (an openURL handler becomes the action that
 * runs it); the error names the line, the key, the view and the value. [-0, +0] */
void lun_envbuiltin_derived(lua_State *L, int kidx, int vidx, int v, const char *site) {
  const char *key;
  int top = lua_gettop(L);
  if (lua_type(L, kidx) != LUA_TSTRING || !lun_envbuiltin_is(lua_tostring(L, kidx))) return;
  key = lua_tostring(L, kidx);
  vidx = lua_absindex(L, vidx);
  lun_view_name(L, v);
  if (lun_rawfield(L, v, "text") == LUA_TSTRING) {
    lun_describe(L, -1, 0);
    lua_pushfstring(L, "%s %s", lua_tostring(L, -3), lua_tostring(L, -1));
  } else lua_pushvalue(L, -2);
  lua_pushfstring(L, "view:transformEnvironment(\"%s\", fn) on %s", key, lua_tostring(L, -1));
  lun_envbuiltin_value(L, key, vidx, lua_tostring(L, -1), site);
  lua_settop(L, top);
}

/* Reports the value at vidx as the built-in `key` (of klen bytes) for the
 * views inside the open node, in this body and in others. [-0, +0] */
static void lun_envbuiltin_set(lua_State *L, lun_Walk *W, const char *key, size_t klen, int vidx) {
  int32_t slot;
  slot = lun_walk_store(L, W, vidx);
  lua_pushlstring(L, key, klen);
  lua_rawgeti(L, W->out, slot);
  lun_envwalk_set(L, W, -2, -1);
  lua_pop(L, 2);
  lun_walk_env_entry(L, W, key, klen, slot);
}

/* Reports `isPresented` = true on the open node (a presented sheet), for
 * the views inside it, in this body and in others. [-0, +0] */
void lun_envbuiltin_presented(lua_State *L, lun_Walk *W) {
  lua_pushboolean(L, 1);
  lun_envbuiltin_set(L, W, "isPresented", 11, lua_gettop(L));
  lua_pop(L, 1);
}

/* :refreshable(fn), fn on top, on the open node: its RefreshAction
 * (lun_refresh.c) is what node:refresh() calls and the `refresh` the
 * views inside read; the node shows refreshing=true while it runs. W->
 * refreshes counts the body's :refreshable, which keeps each action. [-0, +0] */
void lun_envbuiltin_refreshable(lua_State *L, lun_Walk *W) {
  lun_refresh_push(L, W->record, W->unit, ++W->refreshes, -1);
  lun_enabled_slot(L, W, LUN_ROLE_REFRESH, lun_walk_store(L, W, -1));
  lun_envbuiltin_set(L, W, "refresh", 7, lua_gettop(L));
  lua_pop(L, 1);
  if (lua_getfield(L, W->record, "refreshing") != LUA_TNIL) lun_out_attr(L, "refreshing", 10, "true", 4);
  lua_pop(L, 1);
}

/* A List the `refresh` of its environment reaches offers a refresh (node:
 * refresh(), the preview's ↻): "certain built-in views in the
 * corresponding Environment begin offering a refresh capability"
 * (https://developer.apple.com/documentation/swiftui/refreshaction). Its
 * node shows refreshable=true, and refreshing=true while one runs. [-0, +0] */
void lun_envbuiltin_list_refresh(lua_State *L, lun_Walk *W) {
  lua_pushliteral(L, "refresh");
  lun_envwalk_inherited(L, W, lua_gettop(L));
  if (lun_refresh_test(L, -1)) {
    lun_enabled_slot(L, W, LUN_ROLE_REFRESH, lun_walk_store(L, W, -1));
    lun_out_attr(L, "refreshable", 11, "true", 4);
    if (lun_refresh_offered(L, -1, W->record, W->unit)) lun_out_attr(L, "refreshing", 10, "true", 4);   /* as its view shows */
  }
  lua_pop(L, 2);
}

/* ui._reloads() -> n: how many reloads have begun (the prelude's
 * NavigationStack takes it once, then removes it from ui: a screen made
 * by a destination is made anew by the new code). */
static int lun_ui_reloads(lua_State *L) {
  lua_pushinteger(L, lun_reload_count(L));
  return 1;
}

/* ui._presented(view, dismiss) -> view: what a presented screen's content
 * sees (the prelude's NavigationStack takes it once for its pushed screens,
 * then removes it from ui): dismiss, and isPresented = true. */
static int lun_ui_presented(lua_State *L) {
  int i;
  if (!lun_view_test(L, 1)) luaL_typeerror(L, 1, "view");
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  for (i = 0; i < 2; i++) {                       /* { key, value } entries, as :environment appends them */
    lua_createtable(L, 2, 0);
    lua_pushstring(L, i ? "isPresented" : "dismiss");
    lua_rawseti(L, -2, 1);
    if (i) lua_pushboolean(L, 1); else lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 2);
    lun_envlist_add(L, 1);
  }
  lua_settop(L, 1);
  return 1;
}

static const char lun_key_attribute_muted = 0;   /* strict mode's first run of a body: its attributes are dropped */

/* Strict mode runs a body twice and walks what the second run returned:
 * lun_run_view mutes ui._attribute for the first run (1) and unmutes it
 * (0) after. A first run that raised leaves it muted only until the next
 * body's first run, and the mute holds only in strict mode. [-0, +0] */
void lun_attribute_mute(lua_State *L, int muted) {
  lua_pushboolean(L, muted);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_attribute_muted);
}

/* ui._attribute(name, value) -> (): an attribute of the whole output of
 * the body running now, shown on the node that hosts it (the prelude's
 * NavigationStack shows its top screen's title so; it takes the function
 * once, then removes it from ui). Only while a view's body runs; once, in
 * strict mode too (its first run writes nothing). */
static int lun_ui_attribute(lua_State *L) {
  lun_State *S = lun_state(L);
  size_t nlen, vlen;
  int muted;
  const char *name = luaL_checklstring(L, 1, &nlen), *value;
  if (lua_type(L, 2) != LUA_TSTRING && lua_type(L, 2) != LUA_TNUMBER) luaL_typeerror(L, 2, "string");
  value = lua_tolstring(L, 2, &vlen);
  luaL_argcheck(L, nlen > 0 && nlen <= 64, 1, "a name of 1 to 64 bytes expected");
  luaL_argcheck(L, vlen <= 4096, 2, "a value of at most 4096 bytes expected");
  if (!S->rendering || !S->inBody) return lun_error_here(L, "ui._attribute: only while a view's body runs");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_attribute_muted);
  muted = S->strict && lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (muted) return 0;
  lun_describe(L, 2, 1);                          /* shown as attributes are: "Dune" */
  value = lua_tolstring(L, -1, &vlen);
  lun_out_attr(L, name, nlen, value, vlen);
  return 0;
}

/* Registers a built-in key with its default value (on top). [-1, +0] */
static void lun_envbuiltin_key(lua_State *L, int keys, const char *name) {
  lua_createtable(L, 0, 1);
  lua_insert(L, -2);
  lua_setfield(L, -2, "value");
  lua_setfield(L, keys, name);
}

/* Declares the built-in keys and their defaults (as SwiftUI's: light,
 * active, not presented, no edit mode, en_US, the host's openURL) and
 * ui._presented. The ui table is on top. [-0, +0] */
void lun_open_envbuiltin(lua_State *L) {
  int keys;
  lun_registry_table(L, &lun_key_envkeys);
  keys = lua_gettop(L);
  lua_pushliteral(L, "light");
  lun_envbuiltin_key(L, keys, "colorScheme");
  lua_pushliteral(L, "en_US");
  lun_envbuiltin_key(L, keys, "locale");
  lua_pushliteral(L, "active");
  lun_envbuiltin_key(L, keys, "scenePhase");
  lua_pushnil(L);                                 /* editMode: an optional Binding, nil by default */
  lun_envbuiltin_key(L, keys, "editMode");
  lua_pushboolean(L, 0);
  lun_envbuiltin_key(L, keys, "isPresented");
  lua_pushcfunction(L, lun_openurl_system);
  lun_envbuiltin_key(L, keys, "openURL");
  lua_pushnil(L);                                 /* refresh: a RefreshAction inside :refreshable, nil outside */
  lun_envbuiltin_key(L, keys, "refresh");
  lua_pop(L, 1);
  lua_pushcfunction(L, lun_ui_presented);
  lua_setfield(L, -2, "_presented");
  lua_pushcfunction(L, lun_ui_attribute);
  lua_setfield(L, -2, "_attribute");
  lua_pushcfunction(L, lun_ui_reloads);
  lua_setfield(L, -2, "_reloads");
}
