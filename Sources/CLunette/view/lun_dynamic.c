/*
 * lun_dynamic.c — ui.DynamicProperty: a reusable bundle of state and
 * environment with an update hook, as SwiftUI's DynamicProperty (F14).
 *
 *   local Paged = ui.DynamicProperty("Paged", {
 *     state = { page = 1 }, environment = { size = "pageSize" },
 *     update = function(p) ... end,           -- before each body that holds it
 *   })
 *   function Paged:next() self.page = self.page + 1 end
 *   ui.View("Feed", { properties = { paged = Paged }, body = function(self)
 *     ... self.paged.page ... self.paged:next() ... self.paged["$page"] ...
 *   end })
 *
 * A property may hold what SwiftUI allows inside a DynamicProperty: every
 * section a view has (lun_sections) but the inputs a caller passes
 * (binding, bindable, observedObject: a property has no caller) and other
 * properties. A view type that includes a property gets its sections as
 * its own, under dotted names ("paged.page"): they live, are tracked and are
 * kept exactly as the view's own are. An appStorage (or sceneStorage) name
 * is its store key, so the property's keeps its own name as its key (a
 * ui.AppStorage marker under the dotted name), not the dotted one.
 * `self.paged` is a handle that reads and writes them by their short
 * names (writes where the section has a write), and reaches the
 * property's methods. A DynamicProperty is a userdata (LUN_MT_DYNPROP) whose user
 * values are 1: info { name, state, environment, update }, 2: its methods.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

#define LUN_MT_DYNPROP   "lunette.DynamicProperty"
#define LUN_MT_DYNHANDLE "lunette.DynamicPropertyHandle"

/* The most names a DynamicProperty definition may hold (the sections, update). */
#define LUN_DYN_KNOWN 32

/* 1 if a DynamicProperty may hold section d: a view's section, not an input
 * a caller passes nor another property. */
static int lun_dynamic_holds(const lun_Section *d) {
  return d->kind && d->kind != LUN_SECTION_PROPERTY && !d->input;
}

/* Raises unless the definition at 2 of property `name` holds only what a
 * property may (lun_dynamic_holds, `update`), each the right type. */
static void lun_dynamic_check(lua_State *L, const char *name) {
  const char *known[LUN_DYN_KNOWN];
  const lun_Section *d;
  int n = 0;
  for (d = lun_sections; d->name; d++) {
    if (lun_dynamic_holds(d) && n < LUN_DYN_KNOWN - 2) known[n++] = d->name;
    else if (d->kind && lua_getfield(L, 2, d->name) != LUA_TNIL)
      lun_error_here(L, "ui.DynamicProperty('%s'): a property cannot hold '%s'%s", name, d->name,
                     d->input ? ": it declares inputs a caller passes, and a property included with "
                                "`properties = { … }` has no caller (declare it in the view)" : " (include both in the view)");
    else if (d->kind) lua_pop(L, 1);
  }
  known[n++] = "update";
  known[n] = NULL;
  lua_pushfstring(L, "ui.DynamicProperty('%s')", name);
  lun_check_sections(L, 2, known, lua_tostring(L, -1));
  lua_pop(L, 1);
  for (d = lun_sections; d->name; d++)
    if (lun_dynamic_holds(d) && lua_getfield(L, 2, d->name) != LUA_TNIL && !lua_istable(L, -1))
      lun_error_here(L, "ui.DynamicProperty('%s'): section '%s' must be a table, got %s", name, d->name,
                     luaL_typename(L, -1));
    else if (lun_dynamic_holds(d)) lua_pop(L, 1);
  if (lua_getfield(L, 2, "update") != LUA_TNIL && !lua_isfunction(L, -1))
    lun_error_here(L, "ui.DynamicProperty('%s'): update must be a function, got %s", name, luaL_typename(L, -1));
  lua_pop(L, 1);
  lun_sections_check(L, 2, name);                 /* what they start from can be stored */
}

/* ui.DynamicProperty(name, { state?, environment?, appStorage?, …, update? }) -> property type. */
static int lun_ui_dynamic_property(lua_State *L) {
  const lun_Section *d;
  const char *name = luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  lun_dynamic_check(L, name);
  lua_newuserdatauv(L, 1, 2);
  lua_createtable(L, 0, 4);
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "name");
  for (d = lun_sections; d->name; d++) {          /* info[section] = the definition's (a copy of the table) */
    if (!lun_dynamic_holds(d) || lua_getfield(L, 2, d->name) == LUA_TNIL) {
      if (lun_dynamic_holds(d)) lua_pop(L, 1);
      continue;
    }
    lun_copy_shallow(L, -1);
    lua_setfield(L, -3, d->name);
    lua_pop(L, 1);
  }
  lua_getfield(L, 2, "update");
  lua_setfield(L, -2, "update");
  lua_setiuservalue(L, -2, 1);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 2);
  luaL_setmetatable(L, LUN_MT_DYNPROP);
  return 1;
}

/* __index of a property type: its methods. */
static int lun_dynprop_index(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_DYNPROP);
  return lun_type_method(L);
}

/* __newindex of a property type: defines a method (function Paged:next() ... end). */
static int lun_dynprop_newindex(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_DYNPROP);
  luaL_checktype(L, 3, LUA_TFUNCTION);
  return lun_type_define_method(L);
}

/* __tostring of a property type: "DynamicProperty Paged". */
static int lun_dynprop_tostring(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_DYNPROP);
  lua_getiuservalue(L, 1, 1);
  lua_getfield(L, -1, "name");
  lua_pushfstring(L, "DynamicProperty %s", lua_tostring(L, -1));
  return 1;
}

/* Pushes what an appStorage or sceneStorage declaration `key = value` of a
 * property becomes under its dotted name: a ui.AppStorage marker keeping
 * `key` as the store key (a marker the property wrote is kept). [-0, +1] */
static void lun_dynamic_storage_entry(lua_State *L, int kidx, int vidx) {
  if (luaL_testudata(L, vidx, LUN_MT_MARKER)) { lua_pushvalue(L, vidx); return; }
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, kidx);
  lua_setfield(L, -2, "key");
  lua_pushvalue(L, vidx);
  lua_setfield(L, -2, "default");
  lun_marker_new(L, LUN_MARK_STORAGE, -1);
  lua_remove(L, -2);
}

/* Copies section d of the property type at pidx into the table at destidx:
 * `key = value` as "name.key" (storage keeping its key), a listed "field"
 * as "name.field" appended. Returns 1 if the property has the section. */
static int lun_dynamic_merge(lua_State *L, int pidx, const lun_Section *d, int destidx, const char *name,
                             const char *view) {
  int storage = d->kind == LUN_SECTION_STORAGE || d->kind == LUN_SECTION_SCENE, has;
  lua_getiuservalue(L, pidx, 1);
  has = lua_getfield(L, -1, d->name) == LUA_TTABLE;
  if (has) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      int listed = lua_isinteger(L, -2) && lua_type(L, -1) == LUA_TSTRING;   /* { "field" } */
      if (!listed && lua_type(L, -2) != LUA_TSTRING)
        luaL_error(L, "ui.View('%s'): property '%s': %s names must be strings", view, name, d->name);
      lua_pushfstring(L, "%s.%s", name, lua_tostring(L, listed ? -1 : -2));
      if (listed) {
        lua_rawseti(L, destidx, (lua_Integer)lua_rawlen(L, destidx) + 1);
        lua_pop(L, 1);
        continue;
      }
      lua_pushvalue(L, -1);
      if (lua_rawget(L, destidx) != LUA_TNIL)
        luaL_error(L, "ui.View('%s'): '%s' is declared twice", view, lua_tostring(L, -2));
      lua_pop(L, 1);
      if (storage) lun_dynamic_storage_entry(L, lua_gettop(L) - 2, lua_gettop(L) - 1);
      else lua_pushvalue(L, -2);
      lua_rawset(L, destidx);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 2);
  return has;
}

/* Pushes a shallow copy of the table def[field] (or a new table). [-0, +1] */
static void lun_dynamic_copy_section(lua_State *L, int defidx, const char *field) {
  if (lua_getfield(L, defidx, field) == LUA_TTABLE) lun_copy_shallow(L, -1); else lua_newtable(L);
  lua_remove(L, -2);
}

/* Raises unless the properties table at pidx holds ui.DynamicProperty
 * values under plain names. [-0, +0] */
static void lun_dynamic_check_entries(lua_State *L, int pidx, const char *view) {
  lua_pushnil(L);
  while (lua_next(L, pidx)) {
    const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    if (!name || strchr(name, '.') || !luaL_testudata(L, -1, LUN_MT_DYNPROP))
      luaL_error(L, "ui.View('%s'): properties entry '%s' must be a ui.DynamicProperty under a plain name",
                 view, name ? name : luaL_typename(L, -2));
    lua_pop(L, 1);
  }
}

/* If the view definition at defidx has a `properties` section, replaces it
 * by a copy whose sections include the properties' own, under dotted
 * names. [-0, +0] */
void lun_dynamic_expand(lua_State *L, int defidx, const char *view) {
  const lun_Section *d;
  int copy, props;
  defidx = lua_absindex(L, defidx);
  if (lua_getfield(L, defidx, "properties") == LUA_TNIL) { lua_pop(L, 1); return; }
  if (!lua_istable(L, -1)) luaL_error(L, "ui.View('%s'): properties must be a table of ui.DynamicProperty", view);
  props = lua_gettop(L);
  lun_dynamic_check_entries(L, props, view);
  lun_copy_shallow(L, defidx);                    /* the copy of the definition */
  copy = lua_gettop(L);
  for (d = lun_sections; d->name; d++) {
    int has;
    if (!lun_dynamic_holds(d)) continue;
    lun_dynamic_copy_section(L, defidx, d->name);
    has = lua_getfield(L, defidx, d->name) == LUA_TTABLE;
    lua_pop(L, 1);
    lua_pushnil(L);
    while (lua_next(L, props)) {
      has |= lun_dynamic_merge(L, lua_gettop(L), d, copy + 1, lua_tostring(L, -2), view);
      lua_pop(L, 1);
    }
    if (has) lua_setfield(L, copy, d->name); else lua_pop(L, 1);
  }
  lua_replace(L, defidx);
  lua_pop(L, 1);
}

/* Records the properties of the (expanded) definition at defidx in info:
 * sections[name] = LUN_SECTION_PROPERTY, info.properties[name] = type,
 * info.updates = { names with an update hook }. [-0, +0] */
void lun_dynamic_sections(lua_State *L, int defidx, int infoidx) {
  int n = 0;
  if (lua_getfield(L, defidx, "properties") == LUA_TNIL) { lua_pop(L, 1); return; }
  lua_setfield(L, infoidx, "properties");
  lua_getfield(L, infoidx, "properties");
  lua_getfield(L, infoidx, "sections");
  lua_newtable(L);                                /* updates */
  lua_pushnil(L);
  while (lua_next(L, -4)) {
    lua_pushvalue(L, -2);
    lua_pushinteger(L, LUN_SECTION_PROPERTY);
    lua_rawset(L, -6);
    lua_getiuservalue(L, -1, 1);
    if (lua_getfield(L, -1, "update") == LUA_TFUNCTION) {
      lua_pushvalue(L, -4);
      lua_rawseti(L, -6, ++n);
    }
    lua_pop(L, 3);
  }
  lua_setfield(L, infoidx, "updates");
  lua_pop(L, 2);
}

/* Pushes the handle of property `name` (at kidx) of the record at recidx,
 * made once per record. [-0, +1] */
void lun_dynamic_handle(lua_State *L, int recidx, int kidx) {
  recidx = lua_absindex(L, recidx);
  kidx = lua_absindex(L, kidx);
  if (lua_getfield(L, recidx, "handles") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, recidx, "handles");
  }
  lua_pushvalue(L, kidx);
  if (lua_rawget(L, -2) != LUA_TNIL) { lua_remove(L, -2); return; }
  lua_pop(L, 1);
  lua_newuserdatauv(L, 1, 3);
  lua_getfield(L, recidx, "self");
  lua_setiuservalue(L, -2, 1);
  lua_pushvalue(L, kidx);
  lua_setiuservalue(L, -2, 2);
  lua_getfield(L, recidx, "info");
  lua_getfield(L, -1, "properties");
  lua_pushvalue(L, kidx);
  lua_rawget(L, -2);
  lua_setiuservalue(L, -4, 3);
  lua_pop(L, 2);
  luaL_setmetatable(L, LUN_MT_DYNHANDLE);
  lua_pushvalue(L, kidx);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);
  lua_remove(L, -2);
}

/* Pushes "name.key" for handle h (at 1) and the string key at 2, or nil if
 * the key is no string. Also pushes self below it. [-0, +2] */
static void lun_handle_key(lua_State *L, const char *prefix) {
  lua_getiuservalue(L, 1, 1);
  if (lua_type(L, 2) != LUA_TSTRING) { lua_pushnil(L); return; }
  lua_getiuservalue(L, 1, 2);
  lua_pushfstring(L, "%s%s.%s", prefix, lua_tostring(L, -1), lua_tostring(L, 2) + strlen(prefix));
  lua_remove(L, -2);
}

/* 1 if self (at selfidx) declares the dotted key on top in a section that
 * can be written (or, with anyKind, in any section). */
static int lun_handle_declared(lua_State *L, int selfidx, int anyKind) {
  int kind;
  lua_getiuservalue(L, selfidx, 1);
  lua_getfield(L, -1, "info");
  lua_getfield(L, -1, "sections");
  lua_pushvalue(L, -4);
  lua_rawget(L, -2);
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 4);
  return anyKind ? kind != 0 : lun_section_of(kind) && lun_section_of(kind)->write;
}

/* Raises "Paged (property 'paged'): no 'x' to read (did you mean 'page'?)". */
static int lun_handle_unknown(lua_State *L, const char *verb) {
  const char *key = luaL_tolstring(L, 2, NULL);
  lua_getiuservalue(L, 1, 3);
  lua_getiuservalue(L, -1, 1);
  lua_getfield(L, -1, "state");
  lua_getfield(L, -2, "environment");
  lun_push_key_suggestion(L, key, -2, -1);
  lua_getfield(L, -4, "name");
  lua_getiuservalue(L, 1, 2);
  return lun_error_here(L, "%s (property '%s'): no '%s' to %s%s", lua_tostring(L, -2), lua_tostring(L, -1), key, verb,
                        lua_tostring(L, -3));
}

/* __index of handles: (h, key) -> the property's state or environment
 * value, a projection "$key", or a method. */
static int lun_handle_index(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_DYNHANDLE);
  lua_settop(L, 2);
  lun_handle_key(L, lua_type(L, 2) == LUA_TSTRING && lua_tostring(L, 2)[0] == '$' ? "$" : "");
  if (!lua_isnil(L, -1)) {
    const char *dotted = lua_tostring(L, -1);
    lua_pushstring(L, dotted[0] == '$' ? dotted + 1 : dotted);
    if (lun_handle_declared(L, 3, 1)) {
      lua_pop(L, 1);
      lua_gettable(L, 3);
      return 1;
    }
    lua_pop(L, 2);
  } else {
    lua_pop(L, 1);
  }
  lua_getiuservalue(L, 1, 3);                     /* a method of the property type */
  lua_getiuservalue(L, -1, 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, -2) != LUA_TNIL) return 1;
  return lun_handle_unknown(L, "read");
}

/* __newindex of handles: (h, key, value) -> (); what the property's
 * sections let a view write (state, appStorage, sceneStorage, focusState). */
static int lun_handle_newindex(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_DYNHANDLE);
  lua_settop(L, 3);
  lun_handle_key(L, "");
  if (lua_isnil(L, -1) || !lun_handle_declared(L, 4, 0)) return lun_handle_unknown(L, "write");
  lua_pushvalue(L, 3);
  lua_settable(L, 4);
  return 0;
}

/* __tostring of handles: "Paged of Feed#3". */
static int lun_handle_tostring(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_DYNHANDLE);
  lua_getiuservalue(L, 1, 3);
  lua_getiuservalue(L, -1, 1);
  lua_getfield(L, -1, "name");
  lua_getiuservalue(L, 1, 1);
  lua_pushfstring(L, "%s of %s", lua_tostring(L, -2), luaL_tolstring(L, -1, NULL));
  return 1;
}

/* Before a body: calls update(handle) of each property that has one, in the
 * body's scope (what it reads is the view's dependency). [-0, +0] */
void lun_dynamic_update(lua_State *L, int recidx) {
  lua_Integer i, n;
  recidx = lua_absindex(L, recidx);
  lua_getfield(L, recidx, "info");
  if (lua_getfield(L, -1, "updates") != LUA_TTABLE) { lua_pop(L, 2); return; }
  n = (lua_Integer)lua_rawlen(L, -1);
  lua_getfield(L, -2, "properties");
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, -2, i);
    lua_pushvalue(L, -1);
    lua_rawget(L, -3);
    lua_getiuservalue(L, -1, 1);
    lua_getfield(L, -1, "update");
    lun_dynamic_handle(L, recidx, -4);
    lua_call(L, 1, 0);
    lua_pop(L, 3);
  }
  lua_pop(L, 3);
}

void lun_open_dynamic(lua_State *L) {
  static const luaL_Reg type[] = {{"__index", lun_dynprop_index}, {"__newindex", lun_dynprop_newindex},
                                  {"__tostring", lun_dynprop_tostring}, {NULL, NULL}};
  static const luaL_Reg handle[] = {{"__index", lun_handle_index}, {"__newindex", lun_handle_newindex},
                                    {"__tostring", lun_handle_tostring}, {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_DYNPROP);
  luaL_setfuncs(L, type, 0);
  lua_pop(L, 1);
  lun_newmetatable(L, LUN_MT_DYNHANDLE);
  luaL_setfuncs(L, handle, 0);
  lua_pop(L, 1);
  lua_pushcfunction(L, lun_ui_dynamic_property);
  lua_setfield(L, -2, "DynamicProperty");
}
