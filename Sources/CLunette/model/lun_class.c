/*
 * lun_class.c — ui.Observable and ui.ObservableObject: defining classes.
 *
 * A class is a plain table (its methods) whose metatable makes it callable.
 * Each class has an instance metatable whose __index/__newindex closures
 * carry the class data (see lun_object.c): the lun_Class userdata with each
 * property's kind and a find table (a name's interned text -> its index,
 * the hot path's lookup), props (name -> index, for names too long for Lua
 * to intern), the methods table, and info { name, names, defaults,
 * computeds }. Property indexes follow the sorted names, so instances print
 * the same way every time.
 */
#include "core/core.h"
#include "model/model.h"
#include <limits.h>
#include <stddef.h>

/* __call of a class: (class, init?) -> new instance. */
static int lun_class_call(lua_State *L) {
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TTABLE);
  return lun_object_new_of(L, lua_upvalueindex(1), lua_isnoneornil(L, 2) ? 0 : 2);
}

/* __tostring of a class: (class) -> "Observable class Book". */
static int lun_class_tostring(lua_State *L) {
  lua_getfield(L, lua_upvalueindex(1), "__classdata");
  lua_getfield(L, lua_upvalueindex(1), "__name");
  lua_pushfstring(L, "%s class %s", ((lun_Class *)lua_touserdata(L, -2))->isObject ? "ObservableObject" : "Observable",
                  lua_tostring(L, -1));
  return 1;
}

/* The constructor a class of this kind came from, for its errors. */
static const char *lun_class_api(int kind) {
  return kind == LUN_CLASS_OBJECT ? "ui.ObservableObject" : "ui.Observable";
}

/* Sorts the property names found in spec into an array; refuses a name
 * that is not a string, and more names than an instance can hold
 * (LUN_MAX_PROPS), naming the class. [-0, +1] */
static int lun_class_names(lua_State *L, const char *name, int kind, int specidx) {
  int n = 0;
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, specidx)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "%s('%s'): property names must be strings, got %s", lun_class_api(kind), name, luaL_typename(L, -1));
    if (n < INT_MAX) n++;
    if (n <= LUN_MAX_PROPS) {
      lua_pushvalue(L, -1);
      lua_rawseti(L, -3, n);
    }
  }
  if (n > LUN_MAX_PROPS)
    luaL_error(L, "%s('%s'): too many properties (%d; at most %d)", lun_class_api(kind), name, n, LUN_MAX_PROPS);
  lun_sort_strings(L, -1, n);
  return n;
}

/* The kind of a property declared with marker `mark` (0 for a plain value). */
static int lun_class_kind(lua_State *L, lun_Class *cls, int mark, const char *name) {
  if (mark == LUN_MARK_NONE) mark = 0;           /* ui.none: a plain property that starts nil */
  if (mark == LUN_MARK_STORAGE)
    luaL_error(L, "'%s' is ui.AppStorage, which belongs in a view's appStorage section", name);
  if (cls->isObject) {
    if (mark == LUN_MARK_COMPUTED)
      luaL_error(L, "ui.ObservableObject: '%s' cannot be ui.computed (define a method instead)", name);
    return mark == LUN_MARK_PUBLISHED ? LUN_PROP_PUBLISHED : LUN_PROP_UNPUBLISHED;
  }
  if (mark == LUN_MARK_PUBLISHED)
    luaL_error(L, "ui.Observable: '%s' is ui.Published, which belongs to ui.ObservableObject", name);
  return mark == LUN_MARK_COMPUTED ? LUN_PROP_COMPUTED : mark == LUN_MARK_IGNORED ? LUN_PROP_IGNORED : LUN_PROP_PLAIN;
}

/* Fills props, info and kinds from the spec table. */
static void lun_class_fill(lua_State *L, lun_Class *cls, int specidx, int namesidx, int propsidx, int infoidx) {
  int i;
  lua_getfield(L, infoidx, "defaults");
  lua_getfield(L, infoidx, "computeds");
  for (i = 1; i <= cls->nprops; i++) {
    lua_rawgeti(L, namesidx, i);
    lua_pushvalue(L, -1);
    lua_pushinteger(L, i);
    lua_rawset(L, propsidx);
    lua_rawget(L, specidx);                      /* the declared value */
    {
      int mark = 0;
      if (luaL_testudata(L, -1, LUN_MT_MARKER)) {
        lua_getiuservalue(L, -1, 1);
        mark = (int)lua_tointeger(L, -1);
        lua_getiuservalue(L, -2, 2);
        lua_remove(L, -3);
        lua_remove(L, -2);
      }
      lua_rawgeti(L, namesidx, i);
      cls->kinds[i] = (uint8_t)lun_class_kind(L, cls, mark, lua_tostring(L, -1));
      lua_pop(L, 1);
    }
    if (cls->kinds[i] == LUN_PROP_COMPUTED) {
      lua_rawseti(L, -2, i);
      continue;
    }
    lua_rawseti(L, -3, i);
  }
  lua_pop(L, 2);
}

/* The find table's size for n properties: a power of two at least twice n. */
static size_t lun_class_find_size(int n) {
  size_t cap = 4;
  while (cap < (size_t)n * 2) cap *= 2;
  return cap;
}

/* Makes a class of n properties: the lun_Class, its kinds, then its names
 * and its find table in the same block. [-0, +1] */
static lun_Class *lun_class_new(lua_State *L, int n) {
  size_t kinds = offsetof(lun_Class, kinds) + (size_t)n + 1;
  size_t names = (kinds + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
  size_t find = names + sizeof(const char *) * ((size_t)n + 1), cap = lun_class_find_size(n);
  size_t size = find + sizeof(int32_t) * cap;
  lun_Class *cls = (lun_Class *)lua_newuserdatauv(L, size, 0);   /* n <= LUN_MAX_PROPS (lun_class_names) */
  memset(cls, 0, size);
  cls->nprops = n;
  cls->names = (const char **)(void *)((char *)cls + names);
  cls->find = (int32_t *)(void *)((char *)cls + find);
  return cls;
}

/* Fills the find table from the sorted names at namesidx, if Lua interns
 * every name (a string too long to intern is found through the props
 * table instead: findMask stays 0). [-0, +0] */
static void lun_class_find_init(lua_State *L, lun_Class *cls, int namesidx) {
  uint32_t mask = (uint32_t)lun_class_find_size(cls->nprops) - 1, i;
  int p;
  size_t len;
  for (p = 1; p <= cls->nprops; p++) {
    const char *text;
    lua_rawgeti(L, namesidx, p);
    text = lua_tolstring(L, -1, &len);
    lua_pushlstring(L, text, len);                /* the same text made again: the same string iff interned */
    cls->names[p] = lua_tostring(L, -1) == text ? text : NULL;
    lua_pop(L, 2);
    if (!cls->names[p]) return;
  }
  cls->findMask = mask;                           /* probes below assume it */
  for (p = 1; p <= cls->nprops; p++) {
    i = lun_class_slot(cls->names[p], mask);
    while (cls->find[i] != 0) i = (i + 1) & mask;
    cls->find[i] = p;
  }
}

/* Defines a class from the spec table at specidx. [-0, +1] (the class table) */
int lun_class_define(lua_State *L, const char *name, int specidx, int kind, const lun_ClassHooks *hooks) {
  int n, namesidx, clsidx, propsidx, methodsidx, infoidx;
  lun_Class *cls;
  specidx = lua_absindex(L, specidx);
  n = lun_class_names(L, name, kind, specidx);
  namesidx = lua_gettop(L);
  cls = lun_class_new(L, n);
  cls->isObject = kind == LUN_CLASS_OBJECT;
  cls->hooks = hooks;
  clsidx = lua_gettop(L);
  lua_newtable(L);
  propsidx = lua_gettop(L);
  lua_newtable(L);
  methodsidx = lua_gettop(L);
  lua_createtable(L, 0, 4);
  infoidx = lua_gettop(L);
  lua_pushstring(L, name);
  lua_setfield(L, infoidx, "name");
  lua_pushvalue(L, namesidx);
  lua_setfield(L, infoidx, "names");
  lua_newtable(L);
  lua_setfield(L, infoidx, "defaults");
  lua_newtable(L);
  lua_setfield(L, infoidx, "computeds");
  lun_class_fill(L, cls, specidx, namesidx, propsidx, infoidx);
  lun_class_find_init(L, cls, namesidx);
  lun_object_metatable(L, clsidx, propsidx, methodsidx, infoidx, name);
  /* the class table's own metatable: calling it constructs */
  lua_newtable(L);
  lua_pushvalue(L, -2);
  lua_pushcclosure(L, lun_class_call, 1);
  lua_setfield(L, -2, "__call");
  lua_pushvalue(L, -2);
  lua_pushcclosure(L, lun_class_tostring, 1);
  lua_setfield(L, -2, "__tostring");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "__instances");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name");
  lun_seal(L, -1, LUN_SEAL_CLASS, name);
  lua_setmetatable(L, methodsidx);
  lua_pop(L, 1);
  lua_pushvalue(L, methodsidx);
  lua_replace(L, namesidx);
  lua_settop(L, namesidx);
  return 1;
}

/* ui.Observable(name, spec) -> class. */
/* Checks a model's name (argument 1 of `call`): a string, not empty, no
 * control bytes, one model of that name in the calling scope (as a view's,
 * lun_typename.c). Returns it. */
static const char *lun_class_name_arg(lua_State *L, const char *call) {
  const char *name;
  if (lua_gettop(L) == 3 && lua_istable(L, 2) && lua_type(L, 3) == LUA_TSTRING) lua_settop(L, 2);   /* require's data */
  lun_no_extra(L, call, 2, 0);
  if (lua_type(L, 1) != LUA_TSTRING || lua_rawlen(L, 1) == 0)
    lun_error_here(L, "%s: a model's name is a string, not empty, got %s", call, luaL_typename(L, 1));
  if (lua_rawlen(L, 1) > LUN_MAX_NAME)
    lun_error_here(L, "%s: a model's name is at most %d bytes, got %d", call, LUN_MAX_NAME, (int)lua_rawlen(L, 1));
  lun_check_name_text(L, 1, "a model's name");
  luaL_checktype(L, 2, LUA_TTABLE);
  name = lua_tostring(L, 1);
  lun_typename_claim(L, call, "model", name);
  return name;
}

static int lun_ui_observable(lua_State *L) {
  return lun_class_define(L, lun_class_name_arg(L, "ui.Observable"), 2, LUN_CLASS_OBSERVABLE, NULL);
}

/* ui.ObservableObject(name, spec) -> class (the pre-Observation model). */
static int lun_ui_observable_object(lua_State *L) {
  return lun_class_define(L, lun_class_name_arg(L, "ui.ObservableObject"), 2, LUN_CLASS_OBJECT, NULL);
}

/* Pushes a marker userdata of kind mark wrapping the value at vidx. [-0, +1] */
int lun_marker_new(lua_State *L, int mark, int vidx) {
  vidx = lua_absindex(L, vidx);
  lua_newuserdatauv(L, 1, 2);
  lua_pushinteger(L, mark);
  lua_setiuservalue(L, -2, 1);
  lua_pushvalue(L, vidx);
  lua_setiuservalue(L, -2, 2);
  luaL_setmetatable(L, LUN_MT_MARKER);
  return 1;
}

/* ui.computed(fn) -> marker. */
static int lun_ui_computed(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lun_no_extra(L, "ui.computed", 1, 0);
  return lun_marker_new(L, LUN_MARK_COMPUTED, 1);
}

/* ui.ignored(default) -> marker. */
static int lun_ui_ignored(lua_State *L) {
  lun_no_extra(L, "ui.ignored", 1, 0);
  lua_settop(L, 1);
  return lun_marker_new(L, LUN_MARK_IGNORED, 1);
}

/* ui.Published(default) -> marker. */
static int lun_ui_published(lua_State *L) {
  lun_no_extra(L, "ui.Published", 1, 0);
  lua_settop(L, 1);
  return lun_marker_new(L, LUN_MARK_PUBLISHED, 1);
}

/* ui.optional(Type) -> marker (for environment sections). */
static int lun_ui_optional(lua_State *L) {
  luaL_checkany(L, 1);
  lun_no_extra(L, "ui.optional", 1, 0);           /* no default: a missing one reads nil (SwiftUI's optional) */
  return lun_marker_new(L, LUN_MARK_OPTIONAL, 1);
}

/* The kind of the marker at idx (LUN_MARK_*), 0 for any other value. */
int lun_marker_kind(lua_State *L, int idx) {
  int kind = 0;
  if (luaL_testudata(L, idx, LUN_MT_MARKER)) {
    lua_getiuservalue(L, idx, 1);
    kind = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  return kind;
}

/* 1 if the value at idx is ui.none (a declared value that starts nil). */
int lun_is_none(lua_State *L, int idx) {
  int none = 0;
  if (luaL_testudata(L, idx, LUN_MT_MARKER)) {
    lua_getiuservalue(L, idx, 1);
    none = lua_tointeger(L, -1) == LUN_MARK_NONE;
    lua_pop(L, 1);
  }
  return none;
}

/* __tostring of markers: "ui.none", "ui.computed(…)": what a tree, a
 * snapshot or an error shows of one (the same in every run, not an
 * address: a Picker option tagged ui.none made each snapshot differ). */
static int lun_marker_tostring(lua_State *L) {
  static const char *const names[] = {"?", "ui.computed", "ui.ignored", "ui.optional", "ui.Published",
                                       "ui.none", "ui.AppStorage"};
  int kind = lun_marker_kind(L, 1);
  if (kind == LUN_MARK_NONE) lua_pushliteral(L, "ui.none");
  else lua_pushfstring(L, "%s(…)", names[kind > 0 && kind <= LUN_MARK_STORAGE ? kind : 0]);
  return 1;
}

/* ui.id(obj) -> "Book#3". */
static int lun_ui_id(lua_State *L) {
  int32_t handle;
  lun_no_extra(L, "ui.id", 1, 0);
  if (lun_object_test(L, 1)) { lun_object_push_id(L, 1); return 1; }
  if (lun_host_test(L, 1, &handle)) {
    size_t len;
    const char *s = lunh(lun_state(L)->rt, objects, describe, handle, &len);
    lua_pushlstring(L, s, len);
    return 1;
  }
  return luaL_argerror(L, 1, lua_pushfstring(L, "observable object expected, got %s", luaL_typename(L, 1)));
}

void lun_open_object(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"Observable", lun_ui_observable}, {"ObservableObject", lun_ui_observable_object},
    {"Published", lun_ui_published}, {"computed", lun_ui_computed},
    {"ignored", lun_ui_ignored}, {"optional", lun_ui_optional}, {"id", lun_ui_id},
    {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_MARKER);
  lua_pushcfunction(L, lun_marker_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  luaL_setfuncs(L, fns, 0);
  lua_pushnil(L);                                 /* ui.none: declares a state or property that starts nil (F11) */
  lun_marker_new(L, LUN_MARK_NONE, -1);
  lua_setfield(L, -3, "none");
  lua_pop(L, 1);
}
