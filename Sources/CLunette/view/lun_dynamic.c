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
 * section a view has (lun_sections), the inputs a caller passes included
 * (binding, bindable, observedObject: the caller of the view that includes
 * it passes them under the property's name, `Picker { sel = { value =
 * self["$picked"] } }`, lun_dynamic_inputs; issue 19 session 9), and other
 * properties (`properties = { inner = Inner }`, issue 19 session 9: their
 * sections join the property's under "inner.", at most LUN_DYN_DEPTH
 * deep). A view type that includes a property gets its sections as its
 * own, under dotted names ("paged.page", "paged.inner.x"): they live, are
 * tracked and are kept exactly as the view's own are. Before each body the
 * updates run innermost first: a nested property's before the one holding
 * it, as SwiftUI gives a DynamicProperty's fields their values before it. An appStorage (or sceneStorage) name
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
/* The deepest properties nest (a property holding a property …). */
#define LUN_DYN_DEPTH 8

static void lun_dynamic_check_entries(lua_State *L, int pidx, const char *view);
static int lun_dynamic_merge(lua_State *L, int pidx, const lun_Section *d, int destidx, const char *name,
                             const char *view);

/* 1 if a DynamicProperty may hold section d among those it merges: a
 * view's section (inputs included), not another property (those nest). */
static int lun_dynamic_holds(const lun_Section *d) {
  return d->kind && d->kind != LUN_SECTION_PROPERTY;
}

/* Raises unless the definition at 2 of property `name` holds only what a
 * property may (lun_dynamic_holds, `update`), each the right type. */
static void lun_dynamic_check(lua_State *L, const char *name) {
  const char *known[LUN_DYN_KNOWN];
  const lun_Section *d;
  int n = 0;
  for (d = lun_sections; d->name; d++) {
    if ((lun_dynamic_holds(d) || d->kind == LUN_SECTION_PROPERTY) && n < LUN_DYN_KNOWN - 2) known[n++] = d->name;
    else if (d->kind && lua_getfield(L, 2, d->name) != LUA_TNIL)
      lun_error_here(L, "ui.DynamicProperty('%s'): a property cannot hold '%s'", name, d->name);
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

/* The depth of the property type at idx: 1, or one more than its deepest
 * nested property (info.depth). */
static int lun_dynamic_depth(lua_State *L, int idx) {
  int depth;
  lua_getiuservalue(L, idx, 1);
  lua_getfield(L, -1, "depth");
  depth = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 1;
  lua_pop(L, 2);
  return depth;
}

/* The definition at 2 of property `name` holds properties (`properties =
 * { inner = Inner }`): their sections join info's (at infoidx) under
 * "inner.", and info.properties keeps them (for handles and updates). [-0, +0] */
static void lun_dynamic_nest(lua_State *L, int infoidx, const char *name) {
  const lun_Section *d;
  int props, depth = 1;
  if (lua_getfield(L, 2, "properties") == LUA_TNIL) { lua_pop(L, 1); return; }
  if (!lua_istable(L, -1)) lun_error_here(L, "ui.DynamicProperty('%s'): properties must be a table of ui.DynamicProperty", name);
  props = lua_gettop(L);
  lun_dynamic_check_entries(L, props, name);
  lua_pushnil(L);
  while (lua_next(L, props)) {
    int inner = lun_dynamic_depth(L, -1) + 1;
    if (inner > LUN_DYN_DEPTH)
      lun_error_here(L, "ui.DynamicProperty('%s'): properties nest more than %d deep", name, LUN_DYN_DEPTH);
    if (inner > depth) depth = inner;
    lua_pop(L, 1);
  }
  for (d = lun_sections; d->name; d++) {
    if (!lun_dynamic_holds(d)) continue;
    if (lua_getfield(L, infoidx, d->name) != LUA_TTABLE) { lua_pop(L, 1); lua_newtable(L); }
    lua_pushnil(L);
    while (lua_next(L, props)) {
      lun_dynamic_merge(L, lua_gettop(L), d, lua_gettop(L) - 2, lua_tostring(L, -2), name);
      lua_pop(L, 1);
    }
    lua_pushnil(L);
    if (lua_next(L, -2) == 0) lua_pop(L, 1);      /* nothing in it: no section */
    else { lua_pop(L, 2); lua_setfield(L, infoidx, d->name); }
  }
  lun_copy_shallow(L, props);
  lua_setfield(L, infoidx, "properties");
  lua_pushinteger(L, depth);
  lua_setfield(L, infoidx, "depth");
  lua_pop(L, 1);
}

/* ui.DynamicProperty(name, { state?, environment?, appStorage?, …, properties?, update? }) -> property type. */
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
  lun_dynamic_nest(L, lua_gettop(L), name);
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

/* Adds the property type at tidx, under the dotted name at nidx, to
 * types[name] (at typesidx) and, innermost first, the names of those with
 * an update hook to the list at updidx (bounded: LUN_DYN_DEPTH levels). [-0, +0] */
static void lun_dynamic_collect(lua_State *L, int tidx, int nidx, int typesidx, int updidx) {
  tidx = lua_absindex(L, tidx);
  nidx = lua_absindex(L, nidx);
  lua_pushvalue(L, nidx);
  lua_pushvalue(L, tidx);
  lua_rawset(L, typesidx);
  lua_getiuservalue(L, tidx, 1);
  if (lua_getfield(L, -1, "properties") == LUA_TTABLE) {   /* nested: theirs first */
    luaL_checkstack(L, 8, "nested properties");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pushfstring(L, "%s.%s", lua_tostring(L, nidx), lua_tostring(L, -2));
      lun_dynamic_collect(L, -2, -1, typesidx, updidx);
      lua_pop(L, 2);
    }
  }
  if (lua_getfield(L, -2, "update") == LUA_TFUNCTION) {
    lua_pushvalue(L, nidx);
    lua_rawseti(L, updidx, (lua_Integer)lua_rawlen(L, updidx) + 1);
  }
  lua_pop(L, 3);
}

/* Records the properties of the (expanded) definition at defidx in info:
 * sections[name] = LUN_SECTION_PROPERTY, info.properties[name] = type,
 * info.propertyTypes[dotted name] = type for them and the ones they nest,
 * info.updates = { dotted names with an update hook, innermost first }. [-0, +0] */
void lun_dynamic_sections(lua_State *L, int defidx, int infoidx) {
  int props, sections, types, updates;
  if (lua_getfield(L, defidx, "properties") == LUA_TNIL) { lua_pop(L, 1); return; }
  props = lua_gettop(L);
  lua_pushvalue(L, props);
  lua_setfield(L, infoidx, "properties");
  lua_getfield(L, infoidx, "sections");
  sections = lua_gettop(L);
  lua_newtable(L);
  types = lua_gettop(L);
  lua_newtable(L);
  updates = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, props)) {
    lua_pushvalue(L, -2);
    lua_pushinteger(L, LUN_SECTION_PROPERTY);
    lua_rawset(L, sections);
    lun_dynamic_collect(L, -1, -2, types, updates);
    lua_pop(L, 1);
  }
  lua_setfield(L, infoidx, "updates");
  lua_setfield(L, infoidx, "propertyTypes");
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
  lua_getfield(L, -1, "propertyTypes");           /* by dotted name: nested ones too */
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
  lua_settop(L, 2);
  lua_getiuservalue(L, 1, 3);                     /* 3: the property type; a property it holds: its handle */
  lua_getiuservalue(L, -1, 1);
  if (lua_type(L, 2) == LUA_TSTRING && lua_getfield(L, -1, "properties") == LUA_TTABLE) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, -2) != LUA_TNIL) {
      lua_getiuservalue(L, 1, 1);                 /* self, then its record */
      lua_getiuservalue(L, -1, 1);
      lua_getiuservalue(L, 1, 2);
      lua_pushfstring(L, "%s.%s", lua_tostring(L, -1), lua_tostring(L, 2));
      lun_dynamic_handle(L, -3, -1);
      return 1;
    }
  }
  lua_settop(L, 3);
  lua_getiuservalue(L, -1, 2);                    /* a method of the property type */
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
 * body's scope (what it reads is the view's dependency); infoidx is the
 * view's info. [-0, +0] */
void lun_dynamic_update(lua_State *L, int recidx, int infoidx) {
  lua_Integer i, n;
  recidx = lua_absindex(L, recidx);
  lua_pushvalue(L, infoidx);
  if (lun_getkey(L, lun_state(L), -1, LUN_K_UPDATES) != LUA_TTABLE) { lua_pop(L, 2); return; }
  n = (lua_Integer)lua_rawlen(L, -1);
  lua_getfield(L, -2, "propertyTypes");
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

/* 1 if the value at idx is a table without a metatable. [-0, +0] */
static int lun_plain_table(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  if (!lua_getmetatable(L, idx)) return 1;
  lua_pop(L, 1);
  return 0;
}

/* Copies into the table at dest the inputs of the plain table at src, for
 * the property (or nested property) named by the string at pidx: key k
 * becomes "prefix.k"; a nested property's own table is flattened in turn
 * (at most LUN_DYN_DEPTH levels). types: info.propertyTypes. [-0, +0] */
static void lun_dynamic_flatten(lua_State *L, int dest, int src, int pidx, int types, int depth) {
  luaL_checkstack(L, 8, "a property's inputs");
  lua_pushnil(L);
  while (lua_next(L, src)) {                      /* k, v */
    int nested;
    if (lua_type(L, -2) != LUA_TSTRING)
      lun_error_here(L, "the inputs of property '%s' must be named (%s = { value = … }), got %s", lua_tostring(L, pidx),
                     lua_tostring(L, pidx), luaL_typename(L, -2));
    lua_pushfstring(L, "%s.%s", lua_tostring(L, pidx), lua_tostring(L, -2));   /* k, v, "prefix.k" */
    lua_pushvalue(L, -1);
    nested = lua_rawget(L, types) != LUA_TNIL;    /* a nested property: its own table of inputs */
    lua_pop(L, 1);
    if (nested && depth < LUN_DYN_DEPTH && lun_plain_table(L, -2)) {
      lun_dynamic_flatten(L, dest, lua_gettop(L) - 1, lua_gettop(L), types, depth + 1);
      lua_pop(L, 2);
    } else {
      lua_pushvalue(L, -2);
      lua_rawset(L, dest);                        /* dest["prefix.k"] = v */
      lua_pop(L, 1);
    }
  }
}

/* The caller's inputs (arg `arg`, a table or nil) of the view type at
 * tidx: the inputs of a property it includes come under the property's
 * name (`sel = { value = b }`) and become the dotted inputs its sections
 * declare ("sel.value"), in a copy of the caller's table, which replaces
 * it. [-0, +0] */
void lun_dynamic_inputs(lua_State *L, int tidx, int arg) {
  int info, types, copy = 0;
  if (!lua_istable(L, arg)) return;
  lua_getiuservalue(L, tidx, 1);
  info = lua_gettop(L);
  if (lua_getfield(L, info, "properties") != LUA_TTABLE || lua_getfield(L, info, "propertyTypes") != LUA_TTABLE) {
    lua_settop(L, info - 1);
    return;
  }
  types = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, types - 1)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawget(L, arg);
    if (lun_plain_table(L, -1)) {
      if (!copy) {
        lun_copy_shallow(L, arg);
        lua_replace(L, arg);
        copy = 1;
      }
      lua_pushvalue(L, -2);
      lua_pushnil(L);
      lua_rawset(L, arg);
      lun_dynamic_flatten(L, arg, lua_gettop(L), lua_gettop(L) - 1, types, 1);
    }
    lua_pop(L, 1);
  }
  lua_settop(L, info - 1);
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
