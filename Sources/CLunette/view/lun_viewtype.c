/*
 * lun_viewtype.c — view types (ui.View): a definition's sections checked
 * and registered, its inputs, state and environment declared; a type
 * called with inputs makes a component view value.
 *
 * A view type is a userdata (LUN_MT_VIEWTYPE) whose user values are
 *   1: info { name, id, body, sections, state, env, envmode, stateClass,
 *      methods (2 again: a read through self finds them from the record's info) }
 *   2: its methods table (function BookView:helper() ... end).
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#define LUN_MT_VIEWTYPE "lunette.ViewType"

/* 1 if the value at idx is a view type (ui.View). */
LUN_HOT int lun_viewtype_test(lua_State *L, int idx) {
  return lun_has_meta(L, idx, LUA_TUSERDATA, lun_state(L)->viewTypeMeta);
}

/* Raises unless the value at idx is a view type (as luaL_checkudata does). */
static void lun_viewtype_check(lua_State *L, int idx) {
  if (!lun_viewtype_test(L, idx)) luaL_typeerror(L, idx, LUN_MT_VIEWTYPE);
}

/* Registers the names section `d` of the definition table at defidx lists. */
static void lun_viewtype_section(lua_State *L, int defidx, int infoidx, const lun_Section *d) {
  const char *name = d->name;
  int sections, kind = d->kind, holds = d->holds;
  lua_getfield(L, infoidx, "sections");
  sections = lua_gettop(L);
  if (lua_getfield(L, defidx, name) == LUA_TNIL) { lua_pop(L, 2); return; }
  if (!lua_istable(L, -1)) luaL_error(L, "ui.View: section '%s' must be a table", name);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_isinteger(L, -2)) {               /* list form: { "name", ... } */
      if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "ui.View: section '%s' lists a non-string", name);
      lua_pushvalue(L, -1);
    } else {
      if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "ui.View: section '%s' has a non-string key", name);
      if (d->input && kind != LUN_SECTION_INPUT) {   /* the names a caller passes: a list, no defaults */
        lun_describe(L, -1, 1);
        lun_error_here(L, "ui.View: section '%s' lists the names its caller passes ({ \"%s\" }), got %s = %s", name,
                       lua_tostring(L, -3), lua_tostring(L, -3), lua_tostring(L, -1));
      }
      lua_pushvalue(L, -2);
    }
    lua_pushinteger(L, kind);
    lua_rawset(L, sections);
    if (holds) {                                  /* held objects: subscribed before each body run */
      if (lua_getfield(L, infoidx, "objects") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, infoidx, "objects");
      }
      if (lua_isinteger(L, -3)) lua_pushvalue(L, -2); else lua_pushvalue(L, -3);
      lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_setfield(L, infoidx, name);
  lua_pop(L, 1);
}

/* Checks an entry of section `name` (environment or environmentObject):
 * the stack ends key, type, "@Type". @Environment takes an @Observable
 * object, @EnvironmentObject an ObservableObject ("This initializer only
 * accepts objects conforming to the Observable protocol. For reading
 * environment objects that conform to ObservableObject, use
 * EnvironmentObject instead",
 * https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf). [-0, +0] */
static void lun_viewtype_env_kind(lua_State *L, const char *name, int mode) {
  int object = strcmp(name, "environmentObject") == 0, kind = lun_env_type_kind(L, -2);
  const char *type = lua_tostring(L, -1) + 1, *entry, *optional = mode == LUN_ENV_OPTIONAL ? "ui.optional(" : "";
  if (kind == 0 || (kind == LUN_ENV_OBSERVABLE_OBJECT) == object) return;
  entry = luaL_tolstring(L, -3, NULL);
  luaL_error(L, "ui.View: %s entry '%s' is %s: read it with %s = { %s = %s%s%s }", name, entry,
             object ? "an @Observable type" : "an ObservableObject", object ? "environment" : "environmentObject",
             entry, optional, type, *optional ? ")" : "");
}

/* Adds the environment keys and read modes of section `name` to info.envkey/envmode. */
static void lun_viewtype_env(lua_State *L, int infoidx, const char *name) {
  int envidx, keys, modes;
  if (lua_getfield(L, infoidx, name) == LUA_TNIL) { lua_pop(L, 1); return; }
  envidx = lua_gettop(L);
  luaL_getsubtable(L, infoidx, "envkey");          /* made on first use (info is a plain table) */
  keys = lua_gettop(L);
  luaL_getsubtable(L, infoidx, "envmode");
  modes = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, envidx)) {
    int mode = 0;
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(name, "environment") == 0) {
      if (lun_env_reserved(lua_tostring(L, -1))) {   /* "@Type" is how objects are kept by type: not a key */
        const char *keyname = lua_tostring(L, -1), *entry = luaL_tolstring(L, -2, NULL);
        luaL_error(L, "ui.View: environment entry '%s' names the key '%s': a key may not begin with '@', "
                      "nor be one of Lunette's own", entry, keyname);
      }
      mode = LUN_ENV_KEYED;
      lua_pushvalue(L, -1);
    } else {
      if (luaL_testudata(L, -1, LUN_MT_MARKER)) {
        lua_getiuservalue(L, -1, 1);
        if (lua_tointeger(L, -1) != LUN_MARK_OPTIONAL) luaL_error(L, "ui.View: bad environment entry '%s'", lua_tostring(L, -3));
        lua_pop(L, 1);
        lua_getiuservalue(L, -1, 2);
        lua_replace(L, -2);
        mode = LUN_ENV_OPTIONAL;
      } else mode = strcmp(name, "environmentObject") == 0 ? LUN_ENV_OBJECT : LUN_ENV_REQUIRED;
      lun_env_type_key(L, -1);                    /* key, type, "@Type" */
      lun_viewtype_env_kind(L, name, mode);
    }
    lua_pushvalue(L, -3);
    lua_insert(L, -2);
    lua_rawset(L, keys);
    lua_pushvalue(L, -2);
    lua_pushinteger(L, mode);
    lua_rawset(L, modes);
    lua_pop(L, 1);
  }
  lua_pop(L, 3);
}

/* Builds the hidden Observable class holding a view type's state. */
static void lun_viewtype_state_class(lua_State *L, int infoidx, const char *name) {
  if (lua_getfield(L, infoidx, "state") == LUA_TNIL) { lua_pop(L, 1); return; }
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, -3)) {                       /* every name starts nil (ui.none) until its value is */
    lua_pop(L, 1);                                /* stored: a factory reading a later one sees nil */
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lun_marker_new(L, LUN_MARK_NONE, -1);
    lua_remove(L, -2);
    lua_rawset(L, -4);
  }
  lua_pushfstring(L, "%s.state", name);
  lun_class_define(L, lua_tostring(L, -1), -2, LUN_CLASS_OBSERVABLE, NULL);
  lua_getmetatable(L, -1);
  lua_getfield(L, -1, "__instances");
  lua_setfield(L, infoidx, "stateClass");
  lua_pop(L, 5);
}

/* Raises on a key of the definition at defidx that is no section (F08). */
static void lun_viewtype_check_sections(lua_State *L, int defidx, const char *name) {
  const char *known[32];                          /* lun_sections has a dozen */
  int i;
  for (i = 0; lun_sections[i].name && i < 31; i++) known[i] = lun_sections[i].name;
  known[i] = NULL;
  lua_pushfstring(L, "ui.View('%s')", name);
  lun_check_sections(L, defidx, known, lua_tostring(L, -1));
  lua_pop(L, 1);
}

/* If the definition at defidx has a focusState section ({ "field", ... },
 * and `isFocused = false` for a Bool one), replaces it by a copy whose
 * state declares those names, starting nil (or false): @FocusState, no
 * field focused at first. Pushes the set of its Bool names (nil if it has
 * no focusState): what focused(_:) takes, where focused(_:equals:) takes
 * the others. [-0, +1] */
static void lun_viewtype_focus(lua_State *L, int defidx, const char *name) {
  int names, copy, state, bools;
  defidx = lua_absindex(L, defidx);
  if (lua_getfield(L, defidx, "focusState") == LUA_TNIL) return;
  lua_newtable(L);
  bools = lua_gettop(L);
  lua_insert(L, bools - 1);
  bools--;
  if (!lua_istable(L, -1)) luaL_error(L, "ui.View('%s'): focusState must list names: { \"field\" }", name);
  names = lua_gettop(L);
  lun_copy_shallow(L, defidx);                    /* the copy of the definition */
  copy = lua_gettop(L);
  if (lua_getfield(L, defidx, "state") == LUA_TTABLE) lun_copy_shallow(L, -1);   /* its state, and the focus names */
  else lua_newtable(L);
  lua_remove(L, -2);
  state = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, names)) {
    int isBool = lua_type(L, -2) == LUA_TSTRING && lua_isboolean(L, -1) && !lua_toboolean(L, -1);
    if (!isBool && !(lua_isinteger(L, -2) && lua_type(L, -1) == LUA_TSTRING))
      luaL_error(L, "ui.View('%s'): focusState '%s': list a name ({ \"field\" }, nil when no field has focus) or "
                 "give a Bool one false ({ isFocused = false })", name, luaL_tolstring(L, -2, NULL));
    lua_pushvalue(L, isBool ? -2 : -1);           /* the name */
    lua_pushvalue(L, -1);
    if (lua_rawget(L, state) != LUA_TNIL) luaL_error(L, "ui.View('%s'): '%s' is declared twice", name, lua_tostring(L, -2));
    lua_pop(L, 1);
    if (isBool) {
      lua_pushvalue(L, -1);
      lua_pushboolean(L, 1);
      lua_rawset(L, bools);
    }
    if (isBool) lua_pushboolean(L, 0);
    else {
      lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_module);   /* ui.none: starts nil */
      lua_getfield(L, -1, "none");
      lua_remove(L, -2);
    }
    lua_rawset(L, state);
    lua_pop(L, 1);
  }
  lua_setfield(L, copy, "state");
  lua_replace(L, defidx);
  lua_pop(L, 1);
}

/* The `state` section of a definition at defidx: a default that is an
 * object (a model, an ObservableObject, a Swift object) is refused — the
 * definition is made once, so every view would share it, where SwiftUI
 * "always instantiates its default value when SwiftUI instantiates the
 * view" (https://developer.apple.com/documentation/swiftui/state); a
 * function that makes one is called for each view. [-0, +0] */
/* 1 if the value at idx is one every view would share when kept as a
 * default: a model, a Swift object or a subject (references; a plain table
 * is copied for each view, F04). [-0, +0] */
static int lun_state_shared(lua_State *L, int idx) {
  int32_t handle;
  return lun_object_test(L, idx) || lun_host_test(L, idx, &handle) || lun_subject_test(L, idx);
}

/* Pushes the first value every view would share found at idx or inside its
 * plain tables (bounded: nesting below 32, at most *budget entries in all)
 * and returns 1; 0, pushing nothing, if none. [-0, +(0|1)] */
static int lun_state_find_shared(lua_State *L, int idx, int depth, long *budget) {
  idx = lua_absindex(L, idx);
  if (lun_state_shared(L, idx)) { lua_pushvalue(L, idx); return 1; }
  if (depth >= 32 || lua_type(L, idx) != LUA_TTABLE) return 0;
  if (lua_getmetatable(L, idx)) { lua_pop(L, 1); return 0; }   /* a plain table only: it is copied, F04 */
  luaL_checkstack(L, 4, "checking a state default");
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (--*budget < 0) { lua_pop(L, 2); return 0; }   /* past the bound: copied as it is (F04) */
    if (lun_state_find_shared(L, -1, depth + 1, budget)) {
      lua_replace(L, -3);                         /* culprit, value */
      lua_pop(L, 1);
      return 1;
    }
    lua_pop(L, 1);
  }
  return 0;
}

void lun_state_check(lua_State *L, int defidx, const char *section, const char *view) {
  long budget = 100000;
  defidx = lua_absindex(L, defidx);
  if (lua_getfield(L, defidx, section) != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_type(L, -2) == LUA_TSTRING && lun_state_find_shared(L, -1, 0, &budget)) {
      lun_describe(L, -1, 1);
      lun_error_here(L, "%s: %s '%s' holds %s, made once where the view is defined: every %s would share it. "
                     "Give a function that makes it for each view: %s = function() return ... end",
                     view, section, lua_tostring(L, -4), lua_tostring(L, -1), view, lua_tostring(L, -4));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* The `inputs` section of a definition at defidx (issue 19): its list
 * entries are the names of required inputs, its keyed entries optional
 * inputs with their defaults (ui.none: nil). [-0, +0] */
void lun_inputs_check(lua_State *L, int defidx, const char *section, const char *view) {
  defidx = lua_absindex(L, defidx);
  if (lua_getfield(L, defidx, section) == LUA_TNIL) { lua_pop(L, 1); return; }
  if (!lua_istable(L, -1)) luaL_error(L, "ui.View('%s'): inputs must be a table: { \"book\", count = 0 }", view);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_isinteger(L, -2) ? lua_type(L, -1) != LUA_TSTRING : lua_type(L, -2) != LUA_TSTRING) {
      lun_describe(L, lua_isinteger(L, -2) ? -1 : -2, 1);
      luaL_error(L, "ui.View('%s'): inputs lists names (\"book\", required) and name = default (count = 0), got %s",
                 view, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Records in info.required the inputs a caller must pass (name -> section
 * kind): a `binding`, `bindable` or `observedObject` declaration has no
 * default, as Swift's memberwise initializer requires a @Binding, @Bindable
 * or @ObservedObject argument; nor does a name `inputs` lists without a
 * default. [-0, +0] */
static void lun_viewtype_required(lua_State *L, int infoidx) {
  int n = 0;
  lua_getfield(L, infoidx, "sections");
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, -3)) {
    const lun_Section *d = lun_section_of((int)lua_tointeger(L, -1));
    if (d && d->kind == LUN_SECTION_INPUT && lua_getfield(L, infoidx, "inputs") == LUA_TTABLE) {
      int defaulted;                              /* count = 0: optional */
      lua_pushvalue(L, -3);
      defaulted = lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 2);
      if (defaulted) { lua_pop(L, 1); continue; }
    } else if (d && d->kind == LUN_SECTION_INPUT) lua_pop(L, 1);
    if (d && d->input) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, -4);
      n++;
    } else lua_pop(L, 1);
  }
  if (n) lua_setfield(L, infoidx, "required"); else lua_pop(L, 1);
  lua_pop(L, 1);
}

/* Pushes how a caller passes input `name` = value: "pin = value", or for a
 * property's input ("sel.value", lun_dynamic_inputs) "sel = { value = value }". [-0, +1] */
static void lun_input_hint(lua_State *L, const char *name, const char *value) {
  luaL_Buffer b;
  const char *dot;
  int open = 0;
  luaL_buffinit(L, &b);
  while ((dot = strchr(name, '.')) != NULL) {
    luaL_addlstring(&b, name, (size_t)(dot - name));
    luaL_addstring(&b, " = { ");
    name = dot + 1;
    open++;
  }
  luaL_addstring(&b, name);
  luaL_addstring(&b, " = ");
  luaL_addstring(&b, value);
  while (open-- > 0) luaL_addstring(&b, " }");
  luaL_pushresult(&b);
}

/* Raises at the caller's line when the inputs table at inputs (0: none)
 * of the view type at tidx lacks a required input (lun_viewtype_required),
 * or gives a `binding` input something that is no Binding. [-0, +0] */
static void lun_viewtype_check_required(lua_State *L, int tidx, int inputs) {
  static const char *const what[] = {"", "a Binding the caller passes (%s { %s })",
                                     "an observable object the caller passes (%s { %s })",
                                     "an ObservableObject the caller passes (%s { %s })",
                                     "an input the caller passes (%s { %s })"};
  static const char *const value[] = {"", "self[\"$flag\"]", "model", "object", "…"};
  int info;
  lua_getiuservalue(L, tidx, 1);
  info = lua_gettop(L);
  if (lua_getfield(L, info, "required") != LUA_TTABLE) { lua_pop(L, 2); return; }
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    int kind = (int)lua_tointeger(L, -1), t = LUA_TNIL;
    const char *section = kind == LUN_SECTION_BINDING ? "binding" : kind == LUN_SECTION_BINDABLE ? "bindable"
                        : kind == LUN_SECTION_INPUT ? "inputs" : "observedObject";
    lua_getfield(L, info, "name");
    if (inputs) {
      lua_pushvalue(L, -3);
      t = lua_rawget(L, inputs);
    } else lua_pushnil(L);
    if (t == LUA_TNIL) {
      int w = kind == LUN_SECTION_BINDING ? 1 : kind == LUN_SECTION_BINDABLE ? 2 : kind == LUN_SECTION_INPUT ? 4 : 3;
      lun_input_hint(L, lua_tostring(L, -4), value[w]);
      lua_pushfstring(L, what[w], lua_tostring(L, -3), lua_tostring(L, -1));
      lun_error_here(L, "%s: missing input '%s': %s = { \"%s\" } declares %s", lua_tostring(L, -4),
                     lua_tostring(L, -6), section, lua_tostring(L, -6), lua_tostring(L, -1));
    }
    if (kind == LUN_SECTION_BINDING && !lun_binding_test(L, -1))
      lun_error_here(L, "%s: input '%s' must be a Binding (pass self[\"$%s\"]), got %s", lua_tostring(L, -2),
                     lua_tostring(L, -4), lua_tostring(L, -4), luaL_typename(L, -1));
    lua_pop(L, 3);
  }
  lua_pop(L, 2);
}

/* For a view type (at tidx) that declares `inputs`, the caller's inputs
 * (arg `arg`, a table or nil): a name no input section declares is an
 * error naming the view and the name; a defaulted input the caller left
 * out takes its default (ui.none: nil; a plain table default is copied),
 * in a copy of the caller's table, which replaces it. [-0, +0] */
static void lun_viewtype_plain_inputs(lua_State *L, int tidx, int arg) {
  int info, sections, names, given;
  lua_getiuservalue(L, tidx, 1);
  info = lua_gettop(L);
  if (lua_getfield(L, info, "inputs") != LUA_TTABLE) { lua_settop(L, info - 1); return; }
  lua_getfield(L, info, "sections");
  sections = lua_gettop(L);
  lua_newtable(L);                                /* the names a caller may pass */
  names = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, sections)) {
    const lun_Section *d = lun_section_of((int)lua_tointeger(L, -1));
    if (d && d->input) { lua_pushvalue(L, -2); lua_pushboolean(L, 1); lua_rawset(L, names); }
    lua_pop(L, 1);
  }
  if (lua_istable(L, arg)) lun_copy_shallow(L, arg); else lua_newtable(L);
  given = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, given)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    if (lua_type(L, -1) != LUA_TSTRING || lua_rawget(L, names) == LUA_TNIL) {
      lua_getfield(L, info, "name");
      lun_push_key_suggestion(L, lua_type(L, -3) == LUA_TSTRING ? lua_tostring(L, -3) : "", names, 0);
      lun_describe(L, -4, 1);
      lun_error_here(L, "%s: unknown input %s%s; the view declares its inputs (inputs = { … }, binding, bindable, "
                        "observedObject)", lua_tostring(L, -3), lua_tostring(L, -1), lua_tostring(L, -2));
    }
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  while (lua_next(L, info + 1)) {                 /* the defaults: key at top - 1, value at top */
    int key = lua_gettop(L) - 1, value = key + 1, plain;
    if (lua_type(L, key) == LUA_TSTRING && !lun_is_none(L, value)) {
      lua_pushvalue(L, key);
      if (lua_rawget(L, given) == LUA_TNIL) {
        plain = lua_type(L, value) == LUA_TTABLE && !lua_getmetatable(L, value);
        lua_settop(L, value);
        lua_pushvalue(L, key);
        if (plain) lun_copy_shallow(L, value); else lua_pushvalue(L, value);
        lua_rawset(L, given);
      }
    }
    lua_settop(L, key);
  }
  lua_replace(L, arg);
  lua_settop(L, info - 1);
}

static const char lun_key_latest = 0;   /* "name\nfile\nfunction's line" -> the last definition's info (weak values) */

/* The definition whose info is at infoidx, of a view named `name`, is the
 * latest of its place — its file and the function that defines it (by the
 * line that function begins at: 0 for a file's main chunk, where views
 * are defined, whatever an edit moves) —; while a reload runs, it
 * supersedes the one the old run made there (old info.replacedBy = new):
 * a view value the old code built and something kept (a navigation path,
 * a global) renders with the new body (lun_walk_component). [-0, +0] */
static void lun_viewtype_supersede(lua_State *L, int infoidx, const char *name) {
  lua_Debug ar;
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "S", &ar) || ar.source[0] != '@') return;   /* a file's, only */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_latest) != LUA_TTABLE) {
    lua_pop(L, 1);
    lun_new_weak_table(L, "v");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_latest);
  }
  lua_pushfstring(L, "%s\n%s\n%d", name, ar.source, ar.linedefined);
  lua_pushvalue(L, -1);
  if (lua_rawget(L, -3) == LUA_TTABLE && !lua_rawequal(L, -1, infoidx) && lun_life_reloading(L)) {
    lua_pushvalue(L, infoidx);
    lua_setfield(L, -2, "replacedBy");
    lun_state(L)->superseded = 1;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, infoidx);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* ui.View(name, body | definition) -> view type. */
int lun_ui_view(lua_State *L) {
  const char *name;
  size_t len;
  int infoidx, i;
  if (lua_type(L, 1) != LUA_TSTRING) luaL_typeerror(L, 1, "string (the view's name)");
  if (lua_gettop(L) == 3 && lua_istable(L, 2) && lua_type(L, 3) == LUA_TSTRING) lua_settop(L, 2);   /* require's data */
  lun_no_extra(L, "ui.View", 2, 0);
  name = lua_tolstring(L, 1, &len);
  if (len == 0 || len > LUN_MAX_NAME)               /* the host keeps every view type's name (R19) */
    luaL_argerror(L, 1, lua_pushfstring(L, "a view's name is 1 to %d bytes, got %d", LUN_MAX_NAME, (int)(len > 1000000 ? 1000000 : len)));
  lun_check_name_text(L, 1, "a view's name");
  if (lua_isfunction(L, 2)) {
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "body");
    lua_replace(L, 2);
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  lun_viewtype_check_sections(L, 2, name);
  lun_sections_check(L, 2, name);                 /* what they declare can be (storage defaults: T04) */
  lun_dynamic_expand(L, 2, name);                 /* properties' sections join the view's (F14) */
  lua_settop(L, 2);
  lun_viewtype_focus(L, 2, name);                 /* focusState names are state that starts nil (T05); 3: its Bool names */
  if (lua_getfield(L, 2, "body") != LUA_TFUNCTION)
    luaL_error(L, "ui.View('%s'): the definition needs a body function", name);
  lua_pop(L, 1);
  lun_typename_claim(L, "ui.View", "view", name);   /* one view per name in one scope */
  lua_settop(L, 3);
  lua_newuserdatauv(L, 1, 2);                     /* 4: the view type */
  lua_createtable(L, 0, 8);                       /* 5: info */
  infoidx = 5;
  lua_pushvalue(L, 3);
  lua_setfield(L, infoidx, "focusBool");
  lua_pushvalue(L, 1);
  lua_setfield(L, infoidx, "name");
  lua_pushinteger(L, lunh(lun_state(L)->rt, output, view_type, name, len));
  lua_setfield(L, infoidx, "id");
  lua_getfield(L, 2, "body");
  lua_setfield(L, infoidx, "body");
  lua_newtable(L);
  lua_setfield(L, infoidx, "sections");
  for (i = 0; lun_sections[i].name; i++)
    if (lun_sections[i].registers) lun_viewtype_section(L, 2, infoidx, &lun_sections[i]);
  lun_dynamic_sections(L, 2, infoidx);
  lun_viewtype_env(L, infoidx, "environment");
  lun_viewtype_env(L, infoidx, "environmentObject");
  lun_viewtype_required(L, infoidx);
  lun_viewtype_state_class(L, infoidx, name);
  lua_settop(L, infoidx);
  lua_newtable(L);                                /* its methods; info.methods too (a read through self) */
  lua_pushvalue(L, -1);
  lua_setfield(L, infoidx, "methods");
  lua_setiuservalue(L, 4, 2);
  lun_viewtype_supersede(L, infoidx, name);
  lua_setiuservalue(L, 4, 1);
  luaL_setmetatable(L, LUN_MT_VIEWTYPE);
  return 1;
}

/* __call of a view type: (type, inputs?) -> view value. */
static int lun_viewtype_call(lua_State *L) {
  int vidx;
  lun_viewtype_check(L, 1);
  lua_settop(L, 2);
  if (!lua_isnoneornil(L, 2) && !lua_istable(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "table of inputs expected, got %s", luaL_typename(L, 2)));
  lun_dynamic_inputs(L, 1, 2);                    /* a property's inputs, under its name (issue 19) */
  lun_viewtype_check_required(L, 1, lua_istable(L, 2) ? 2 : 0);   /* a missing binding names itself here */
  lun_viewtype_plain_inputs(L, 1, 2);             /* inputs = { "book", count = 0 } (issue 19) */
  vidx = lun_view_new(L, LUN_VIEW_COMPONENT);
  lua_pushvalue(L, 1);
  lun_setkey(L, lun_state(L), vidx, LUN_K_TYPE);
  lun_view_site(L, vidx);
  if (lua_istable(L, 2)) lua_pushvalue(L, 2); else lua_newtable(L);
  lun_setkey(L, lun_state(L), vidx, LUN_K_INPUTS);
  return 1;
}

/* __index of a view type: its methods, or `name`. */
static int lun_viewtype_index(lua_State *L) {
  lun_viewtype_check(L, 1);
  lua_settop(L, 2);
  if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "name") == 0) {
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "name");
    return 1;
  }
  return lun_type_method(L);
}

/* __newindex of a view type: defines a method. */
static int lun_viewtype_newindex(lua_State *L) {
  lun_viewtype_check(L, 1);
  return lun_type_define_method(L);
}

/* __tostring of a view type: "View BookView". */
static int lun_viewtype_tostring(lua_State *L) {
  lun_viewtype_check(L, 1);
  lua_settop(L, 1);
  lua_getiuservalue(L, 1, 1);
  lua_getfield(L, -1, "name");
  lua_pushfstring(L, "View %s", lua_tostring(L, -1));
  return 1;
}

/* Registers view types' metatable. [-0, +0] */
void lun_open_viewtype(lua_State *L) {
  static const luaL_Reg typemeta[] = {
    {"__call", lun_viewtype_call}, {"__index", lun_viewtype_index},
    {"__newindex", lun_viewtype_newindex}, {"__tostring", lun_viewtype_tostring},
    {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_VIEWTYPE);
  lun_state(L)->viewTypeMeta = lua_topointer(L, -1);   /* the registry keeps it for the state's life */
  luaL_setfuncs(L, typemeta, 0);
  lua_pop(L, 1);
}
