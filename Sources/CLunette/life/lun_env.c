/*
 * lun_env.c — the environment: ui.EnvironmentKey and reads from views.
 *
 * An environment key is a string: "@Library" for objects stored by type
 * (:environment(library)), or a declared key ("library") with a default.
 * Values live in the `out` table of the unit whose output set them; the host
 * finds the nearest one above a view and names its graph node, so readers
 * re-render when an ancestor passes a different value.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"

/* Pushes the environment key of a type or an instance at idx: "@Library". [-0, +1] */
void lun_env_type_key(lua_State *L, int idx) {
  int32_t handle;
  idx = lua_absindex(L, idx);
  if (lun_object_test(L, idx)) {
    lua_pushfstring(L, "@%s", lun_object_classname(L, idx));
    return;
  }
  if (lun_host_test(L, idx, &handle)) {
    lua_pushfstring(L, "@%s", lun_host_typename(L, idx));
    return;
  }
  if (lua_type(L, idx) == LUA_TTABLE && lua_getmetatable(L, idx)) {
    int isclass = lua_getfield(L, -1, "__instances") != LUA_TNIL;
    lua_pop(L, 1);
    if (isclass && lua_getfield(L, -1, "__name") == LUA_TSTRING) {
      lua_pushfstring(L, "@%s", lua_tostring(L, -1));
      lua_replace(L, -3);
      lua_pop(L, 1);
      return;
    }
    lua_pop(L, isclass ? 2 : 1);
  }
  luaL_error(L, "an environment object or type expected, got %s", luaL_typename(L, idx));
}

/* What kind of model type the class at idx is — LUN_ENV_OBSERVABLE,
 * LUN_ENV_OBSERVABLE_OBJECT, or 0 for none: a class ui.Observable or
 * ui.ObservableObject made (its instances' metatable holds the class's
 * data), or a host type (its instances' metatable says whether it is
 * ObservableObject-style). [-0, +0] */
int lun_env_type_kind(lua_State *L, int idx) {
  int kind = 0, top = lua_gettop(L);
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
  if (lua_getfield(L, -1, "__instances") == LUA_TTABLE) {
    if (lua_getfield(L, -1, "__classdata") == LUA_TUSERDATA)
      kind = ((const lun_Class *)lua_touserdata(L, -1))->isObject ? LUN_ENV_OBSERVABLE_OBJECT : LUN_ENV_OBSERVABLE;
    else if (lua_getfield(L, -2, "__lunette_hostobject") == LUA_TBOOLEAN)
      kind = lua_toboolean(L, -1) ? LUN_ENV_OBSERVABLE_OBJECT : LUN_ENV_OBSERVABLE;
  }
  lua_settop(L, top);
  return kind;
}

static const char lun_key_envsystem = 0;   /* key -> { value = v, node = n }: what the host set */

/* 1 if key (a string) is a value the system (the host) sets for every
 * view: "SwiftUI automatically sets or updates many environment values,
 * like pixelLength, scenePhase, or locale, based on device
 * characteristics, system state, or user settings"
 * (https://developer.apple.com/documentation/swiftui/environmentvalues). */
int lun_env_system_key(const char *key) {
  return strcmp(key, "colorScheme") == 0 || strcmp(key, "locale") == 0 || strcmp(key, "scenePhase") == 0;
}

/* Pushes the entry of the system key at keyidx ({ value, node }), made on
 * first use with the graph node its readers track. [-0, +1] */
static void lun_env_system_entry(lua_State *L, int keyidx) {
  keyidx = lua_absindex(L, keyidx);
  lun_registry_table(L, &lun_key_envsystem);
  lua_pushvalue(L, keyidx);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    int32_t node = lun_graph_node_new(lun_state(L)->graph, LUN_GRAPH_SIGNAL, LUN_ORIGIN_ENV, 0, 0);
    if (!node) luaL_error(L, "not enough memory");
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, node);
    lua_setfield(L, -2, "node");
    lua_pushvalue(L, keyidx);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_remove(L, -2);
}

/* Pushes the value the host set for the system key at keyidx, or nil;
 * the running scope tracks it. [-0, +1] */
static void lun_env_system_read(lua_State *L, int keyidx) {
  lun_State *S = lun_state(L);
  lun_env_system_entry(L, keyidx);
  lua_getfield(L, -1, "node");
  if (S->active) lun_graph_track(S->graph, S->active, (int32_t)lua_tointeger(L, -1));
  lua_pop(L, 1);
  lua_getfield(L, -1, "value");
  lua_remove(L, -2);
}

/* The host sets the system key at keyidx to the value at vidx (checked by
 * the caller): the views reading it (with no :environment above them)
 * render again. [-0, +0] */
void lun_env_system_write(lua_State *L, int keyidx, int vidx) {
  vidx = lua_absindex(L, vidx);
  lun_env_system_entry(L, keyidx);
  lua_pushvalue(L, vidx);
  lua_setfield(L, -2, "value");
  lua_getfield(L, -1, "node");
  lun_changed(L, (int32_t)lua_tointeger(L, -1));
  lua_pop(L, 2);
}

/* 1 if the string key at keyidx can be read: declared (ui.EnvironmentKey,
 * ui.Entry, a built-in) or one the system sets. [-0, +0] */
int lun_env_declared(lua_State *L, int keyidx) {
  int declared;
  if (lun_env_system_key(lua_tostring(L, keyidx))) return 1;
  keyidx = lua_absindex(L, keyidx);
  lun_registry_table(L, &lun_key_envkeys);
  lua_pushvalue(L, keyidx);
  declared = lua_rawget(L, -2) == LUA_TTABLE;
  lua_pop(L, 2);
  return declared;
}

/* Pushes the value of a declared key, making it from its default once; a
 * system key, what the host set if it did. [-0, +1] */
static void lun_env_default(lua_State *L, int keyidx) {
  if (lua_type(L, keyidx) == LUA_TSTRING && lun_env_system_key(lua_tostring(L, keyidx))) {
    lun_env_system_read(L, keyidx);
    if (!lua_isnil(L, -1)) return;
    lua_pop(L, 1);
  }
  lun_registry_table(L, &lun_key_envkeys);
  lua_pushvalue(L, keyidx);
  if (lua_rawget(L, -2) != LUA_TTABLE)
    luaL_error(L, "environment key '%s' is not declared (use ui.EnvironmentKey(\"%s\", default))",
               lua_tostring(L, keyidx), lua_tostring(L, keyidx));
  if (lua_getfield(L, -1, "value") == LUA_TNIL) {
    lua_pop(L, 1);
    if (lua_getfield(L, -1, "default") == LUA_TFUNCTION) lua_call(L, 0, 1);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "value");
  }
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* The value on top read as a view sees it: ui.none (a key's default or a
 * value set with :environment(key, ui.none), where a table cannot hold a
 * nil) is nil. Returns 1. [-0, +0] */
static int lun_env_none_is_nil(lua_State *L) {
  if (lun_is_none(L, -1)) {
    lua_pop(L, 1);
    lua_pushnil(L);
  }
  return 1;
}

/* Reads the environment value under the key at keyidx for a view of unit;
 * nameidx holds the property name (for messages). [-0, +1] */
int lun_env_read(lua_State *L, int32_t unit, int keyidx, int mode, int nameidx) {
  lun_State *S = lun_state(L);
  size_t klen;
  const char *key = lua_tolstring(L, keyidx, &klen);
  int ref = 0;
  int32_t slot = 0, node = 0, probe = 0, found = 0;
  if (key) found = lunh(S->rt, output, env_find, unit, key, klen, S->active != 0, &ref, &slot, &node, &probe);
  if (S->active && probe) lun_graph_track(S->graph, S->active, probe);   /* a value that appears above */
  if (found) {
    if (S->active && node) lun_graph_track(S->graph, S->active, node);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_getfield(L, -1, "out");
    lua_rawgeti(L, -1, slot);
    return lun_env_none_is_nil(L);
  }
  if (mode == LUN_ENV_OPTIONAL) { lua_pushnil(L); return 1; }
  if (mode == LUN_ENV_KEYED) { lun_env_default(L, keyidx); return lun_env_none_is_nil(L); }
  if (mode == LUN_ENV_OBJECT)                     /* "set a corresponding model object on an ancestor view by
                                                     calling its environmentObject(_:) modifier"
                                                     (https://developer.apple.com/documentation/swiftui/environmentobject) */
    return lun_error_here(L, "no %s in the environment for '%s' (add :environmentObject(obj) to an ancestor)",
                          key ? key + 1 : "?", lua_tostring(L, nameidx));
  return lun_error_here(L, "no %s in the environment for '%s' (add :environment(obj) to an ancestor, "
                           "or declare it ui.optional(%s))", key ? key + 1 : "?", lua_tostring(L, nameidx),
                        key ? key + 1 : "Type");
}

/* 1 if a script may not name key: "@Type" (objects kept by type) and the
 * keys C sets for the views inside a node (a scene, a transaction,
 * onSubmit's actions) are Lunette's. */
int lun_env_reserved(const char *key) {
  return key[0] == '@' || strcmp(key, "lunette.scene") == 0 || strcmp(key, "lunette.transaction") == 0 ||
         strcmp(key, "lunette.onSubmit") == 0;
}

/* 1 if key (a string) is one of the built-in environment values. */
int lun_envbuiltin_is(const char *key) {
  static const char *const keys[] = {"colorScheme", "locale", "scenePhase", "editMode", "isPresented", "openURL",
                                     "isEnabled", "dismiss", "refresh", NULL};
  int i;
  for (i = 0; keys[i]; i++)
    if (strcmp(key, keys[i]) == 0) return 1;
  return 0;
}

/* ui.EnvironmentKey(name, default) -> name. */
static int lun_ui_envkey(lua_State *L) {
  luaL_checkstring(L, 1);
  luaL_checkany(L, 2);
  lun_no_extra(L, "ui.EnvironmentKey (ui.Entry)", 2, 0);
  if (lun_env_reserved(lua_tostring(L, 1)))
    lun_error_here(L, "ui.EnvironmentKey: a key may not begin with '@', nor be one of Lunette's own, got '%s'",
                   lua_tostring(L, 1));
  lun_registry_table(L, &lun_key_envkeys);        /* the prelude's keys ("lunette.…") are declared once */
  if (strncmp(lua_tostring(L, 1), "lunette.", 8) == 0 && (lua_pushvalue(L, 1), lua_rawget(L, -2) != LUA_TNIL))
    lun_error_here(L, "ui.EnvironmentKey: '%s' is Lunette's own key", lua_tostring(L, 1));
  lua_settop(L, 2);
  if (lun_envbuiltin_is(lua_tostring(L, 1)))
    lun_error_here(L, "ui.EnvironmentKey: '%s' is a built-in environment value; read it with environment = { x = \"%s\" }",
                   lua_tostring(L, 1), lua_tostring(L, 1));
  lun_registry_table(L, &lun_key_envkeys);
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, "default");
  lua_pushvalue(L, 1);
  lua_insert(L, -2);
  lua_rawset(L, -3);
  lua_settop(L, 1);
  return 1;
}

void lun_open_env(lua_State *L) {
  lua_pushcfunction(L, lun_ui_envkey);
  lua_setfield(L, -2, "EnvironmentKey");
  lua_pushcfunction(L, lun_ui_envkey);           /* ui.Entry(name, default): @Entry's one line */
  lua_setfield(L, -2, "Entry");
}
