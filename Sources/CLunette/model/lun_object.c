/*
 * lun_object.c — ui.Observable: model classes and their instances.
 *
 * An instance is a userdata (lun_Object) whose user value i holds property i
 * (an ObservableObject's objectWillChange subject after them): one block,
 * each value one API call away. Each class has its own instance
 * metatable; __index/__newindex are closures over the class data:
 *   upvalue 1: the lun_Class userdata   upvalue 2: the class table (methods)
 *   upvalue 3: info { name, names, defaults, computeds }
 *   upvalue 4: the metatable itself (props, name -> index, is its __props)
 * The metatable's array slots hold what making an instance reads
 * (LUN_META_*: the computeds' functions, the class name, the names, the
 * lun_Class, the defaults).
 */
#include "core/core.h"
#include "model/model.h"
#include <stdio.h>
#include <stdlib.h>

#define LUN_UV_CLASS 1
#define LUN_UV_METHODS 2
#define LUN_UV_INFO 3
#define LUN_UV_META 4   /* the instance metatable itself: what self must have */

/* The lun_Object at idx, or NULL if the value is not a model instance. */
lun_Object *lun_object_test(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || lun_sealed_kind(L, idx) != LUN_SEAL_OBJECT) return NULL;
  return (lun_Object *)lua_touserdata(L, idx);
}

/* The instance at 1 of the class whose metamethod runs, or a type error. */
LUN_HOT static lun_Object *lun_object_self(lua_State *L) {
  return (lun_Object *)lun_check_self(L, 1, lua_upvalueindex(LUN_UV_META), "model instance");
}

/* The instance at 1 of any class, or a type error. */
static lun_Object *lun_object_check(lua_State *L) {
  lun_Object *o = lun_object_test(L, 1);
  if (!o) luaL_typeerror(L, 1, "model instance");
  return o;
}

/* The graph node of property prop, made on first use. */
int32_t lun_object_node(lua_State *L, lun_Object *o, int prop, int kind) {
  if (o->nodes[prop] == 0) {
    o->nodes[prop] = lun_graph_node_new(lun_state(L)->graph, kind, LUN_ORIGIN_LUA, o->serial, prop);
    if (o->nodes[prop] == 0) luaL_error(L, "not enough memory");
  }
  return o->nodes[prop];
}

/* Pushes metatable field `field` of the value at idx. [-0, +1] */
static void lun_object_meta(lua_State *L, int idx, const char *field) {
  lua_getmetatable(L, idx);
  lua_getfield(L, -1, field);
  lua_remove(L, -2);
}

/* The index of the property of cls, the class of the instance at idx,
 * that the key at keyidx names, or 0: by the key's interned text where
 * the class has a find table (lun_class_find), else through its props
 * table (a name too long for Lua to intern). [-0, +0] */
LUN_HOT static int lun_object_prop_of(lua_State *L, const lun_Class *cls, int idx, int keyidx) {
  int prop;
  if (lua_type(L, keyidx) != LUA_TSTRING) return 0;   /* property names are strings */
  if (cls->findMask) return lun_class_find(cls, lua_tostring(L, keyidx));
  keyidx = lua_absindex(L, keyidx);
  lun_object_meta(L, idx, "__props");
  lua_pushvalue(L, keyidx);
  prop = lua_rawget(L, -2) == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : 0;
  lua_pop(L, 2);
  return prop;
}

/* The index of the property of the instance at idx that the key at
 * keyidx names, or 0. [-0, +0] */
int lun_object_prop(lua_State *L, int idx, int keyidx) {
  return lun_object_prop_of(L, ((const lun_Object *)lua_touserdata(L, idx))->cls, idx, keyidx);
}

/* The class name of the instance at idx (valid while the class lives). */
const char *lun_object_classname(lua_State *L, int idx) {
  const char *name;
  lun_object_meta(L, idx, "__name");
  name = lua_tostring(L, -1);
  lua_pop(L, 1);
  return name ? name : "?";
}

/* Pushes the identity of the instance at idx: "Book#3". [-0, +1] */
void lun_object_push_id(lua_State *L, int idx) {
  lun_Object *o = (lun_Object *)lua_touserdata(L, idx);
  lua_pushfstring(L, "%s#%d", lun_object_classname(L, idx), (int)o->ordinal);
}

/* 1 if the value at idx is an ObservableObject: a ui.ObservableObject
 * instance, or an ObservableObject-style Swift object. */
int lun_object_is_observable_object(lua_State *L, int idx) {
  lun_Object *o = lun_object_test(L, idx);
  return o ? o->cls->isObject : lun_host_is_object(L, idx);
}

/* Tracks the whole ObservableObject at idx (any published change invalidates). */
void lun_object_track_whole(lua_State *L, int idx) {
  lun_State *S = lun_state(L);
  lun_Object *o = lun_object_test(L, idx);
  if (!S->active) return;
  if (!o) {
    if (lun_host_is_object(L, idx)) lun_host_track_whole(L, idx);
    return;
  }
  if (o->cls->isObject) lun_graph_track(S->graph, S->active, lun_object_node(L, o, 0, LUN_GRAPH_SIGNAL));
}

/* Pushes the objectWillChange subject the ObservableObject at idx holds, or
 * nil if it has none yet; raises if its slot holds anything else (only
 * debug.setuservalue could put it there: nothing is sent to it). [-0, +1] */
static int lun_object_subject(lua_State *L, int idx, const lun_Object *o) {
  int t;
  idx = lua_absindex(L, idx);
  t = lua_getiuservalue(L, idx, LUN_OBJECT_SUBJECT(o));
  if (t != LUA_TNIL && !lun_subject_test(L, -1)) {
    lun_object_push_id(L, idx);
    luaL_error(L, "the objectWillChange of %s is not its subject any more (a %s): was it replaced with "
                  "debug.setuservalue?", lua_tostring(L, -1), luaL_typename(L, -2));
  }
  return t;
}

/* Pushes the objectWillChange subject of the ObservableObject at idx, made on first use. [-0, +1] */
static void lun_object_will_change_subject(lua_State *L, int idx) {
  const lun_Object *o = (const lun_Object *)lua_touserdata(L, idx);
  idx = lua_absindex(L, idx);
  if (lun_object_subject(L, idx, o) == LUA_TNIL) {
    lua_pop(L, 1);
    lun_subject_push_new(L);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, idx, LUN_OBJECT_SUBJECT(o));
  }
}

/* Node's value changed: its readers become pending. A body that writes what
 * its run has read is told to the host, which reports it (S36). */
/* Raises while a body renders in strict mode: it may not write observable state. */
static void lun_strict_write(lua_State *L, const lun_State *S) {
  if (S->strict && S->rendering)
    lun_error_here(L, "strict mode: a body may not write observable state (write it in an action, a task or onChange)");
}

/* lun_changed, strict mode's check made by the caller. */
static void lun_changed_now(lua_State *L, lun_State *S, int32_t node) {
  if (S->rendering && lun_graph_run_has_read(S->graph, S->rendering, node)) {
    lun_out_begun(L, S);                          /* the host names the run the write was made in */
    lunh(S->rt, scheduler, render_write, node);
  }
  lun_graph_changed(S->graph, node);
}

void lun_changed(lua_State *L, int32_t node) {
  lun_State *S = lun_state(L);
  lun_strict_write(L, S);
  lun_changed_now(L, S, node);
}

/* Tells readers that property prop of the object at idx is about to change:
 * its readers (Observable), or objectWillChange and every holder (Published). */
LUN_HOT void lun_object_notify(lua_State *L, int idx, lun_Object *o, int prop) {
  lun_State *S = lun_state(L);
  if (S->strict && S->rendering && (uint32_t)(o->made - S->renderMade) - 1u >= S->objectsMade - S->renderMade)
    lun_strict_write(L, S);                       /* whether or not a view has read it yet: unless the body made it */
  if (o->cls->hooks) o->cls->hooks->changed(L, idx);  /* app storage: kept in the store at the end of the flush (T04) */
  switch (o->cls->kinds[prop]) {
    case LUN_PROP_PLAIN:
      if (o->nodes[prop] && S->tracing) lun_trace_write(L, o->nodes[prop]);
      if (o->nodes[prop]) lun_changed_now(L, S, o->nodes[prop]);
      break;
    case LUN_PROP_PUBLISHED:
      if (lun_object_subject(L, idx, o) != LUA_TNIL) {
        lua_pushnil(L);
        lun_subject_send(L, -2, -1);
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
      if (o->nodes[0] && S->tracing) lun_trace_write(L, o->nodes[0]);
      if (o->nodes[0]) lun_changed_now(L, S, o->nodes[0]);
      break;
    default:
      break;
  }
}

/* Reads property prop of the instance at idx, tracking it. [-0, +1] */
int lun_object_read(lua_State *L, int idx, int prop) {
  lun_Object *o = (lun_Object *)lua_touserdata(L, idx);
  lun_State *S = lun_state(L);
  int kind = o->cls->kinds[prop];
  idx = lua_absindex(L, idx);
  if (kind == LUN_PROP_COMPUTED) return lun_computed_read(L, S, o, idx, prop);
  if (kind == LUN_PROP_PLAIN && S->active)
    lun_graph_track(S->graph, S->active, o->nodes[prop] ? o->nodes[prop] : lun_object_node(L, o, prop, LUN_GRAPH_SIGNAL));
  lua_getiuservalue(L, idx, prop);
  if ((kind == LUN_PROP_PLAIN || kind == LUN_PROP_PUBLISHED) && lua_type(L, -1) == LUA_TTABLE) {
    if (lua_getmetatable(L, -1)) lua_pop(L, 1);
    else {
      lun_proxy_push(L, idx, prop, -1);
      lua_remove(L, -2);
    }
  }
  return 1;
}

/* Writes the value at vidx to property prop; notifies readers if it differs. [-0, +0] */
LUN_HOT void lun_object_write(lua_State *L, int idx, int prop, int vidx) {
  lun_Object *o = (lun_Object *)lua_touserdata(L, idx);
  int same;
  idx = lua_absindex(L, idx);
  vidx = lua_absindex(L, vidx);
  if (o->cls->hooks) o->cls->hooks->check(L, idx, vidx);   /* app storage: through a binding, no view to name */
  lua_pushvalue(L, vidx);
  lun_proxy_unwrap(L, -1);
  lua_getiuservalue(L, idx, prop);
  same = lua_compare(L, -1, -2, LUA_OPEQ);
  lua_pop(L, 1);
  /* an equal write notifies nobody — but @Published emits on every set (F05) */
  if (same && o->cls->kinds[prop] != LUN_PROP_PUBLISHED) { lua_pop(L, 1); return; }
  if (!same) lun_store_value(L, idx, prop);      /* a plain table is stored as a value (F04) */
  lun_object_notify(L, idx, o, prop);
  lua_setiuservalue(L, idx, prop);
}

/* Pushes " (did you mean 'title'?)" for a name close to one of the
 * properties of the instance at objidx, else "". [-0, +1] */
void lun_object_suggest(lua_State *L, int objidx, const char *name) {
  objidx = lua_absindex(L, objidx);
  lua_getmetatable(L, objidx);
  lua_rawgeti(L, -1, LUN_META_NAMES);
  lun_push_suggestion(L, name, lua_gettop(L), NULL);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* Raises "Book has no property 'titel' to read (did you mean 'title'?)" (F08, F12). */
static int lun_object_unknown(lua_State *L, int idx, int keyidx, const char *verb) {
  const char *key = luaL_tolstring(L, keyidx, NULL);
  lun_object_suggest(L, idx, key);
  return luaL_error(L, "%s has no property '%s' to %s%s", lun_object_classname(L, idx), key, verb, lua_tostring(L, -1));
}

/* __index of instances: (obj, key) -> value. */
LUN_HOT static int lun_object_index(lua_State *L) {
  const lun_Class *cls = (const lun_Class *)lua_touserdata(L, lua_upvalueindex(LUN_UV_CLASS));
  lun_Object *o = (lun_Object *)lua_touserdata(L, 1);   /* an instance: that class's metatable, by identity */
  int prop;
  if (!o || !lua_getmetatable(L, 1) || lua_topointer(L, -1) != cls->meta) luaL_typeerror(L, 1, "model instance");
  if ((prop = lun_object_prop_of(L, cls, 1, 2)) != 0) {
    int kind = cls->kinds[prop];
    if (kind == LUN_PROP_PLAIN) {                  /* the hot path: a tracked read of a plain value */
      lun_State *S = lun_state(L);
      if (S->active)
        lun_graph_track(S->graph, S->active, o->nodes[prop] ? o->nodes[prop] : lun_object_node(L, o, prop, LUN_GRAPH_SIGNAL));
      if (lua_getiuservalue(L, 1, prop) != LUA_TTABLE) return 1;
    } else if (kind == LUN_PROP_IGNORED || kind == LUN_PROP_UNPUBLISHED) {
      lua_getiuservalue(L, 1, prop);               /* stored, not tracked, never behind a proxy */
      return 1;
    } else if (kind == LUN_PROP_COMPUTED) {
      return lun_computed_read(L, lun_state(L), o, 1, prop);
    }
    lua_settop(L, 2);                              /* tables (proxies), the rest */
    return lun_object_read(L, 1, prop);
  }
  if (cls->isObject && lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "objectWillChange") == 0) {
    lun_object_will_change_subject(L, 1);
    return 1;
  }
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(LUN_UV_METHODS)) == LUA_TNIL)   /* neither a property nor a method (F08) */
    return lun_object_unknown(L, 1, 2, "read");
  return 1;
}

/* __newindex of instances: (obj, key, value) -> (). */
LUN_HOT static int lun_object_newindex(lua_State *L) {
  lun_Object *o = lun_object_self(L);
  int prop;
  lua_settop(L, 3);
  if ((prop = lun_object_prop_of(L, o->cls, 1, 2)) == 0)
    return lun_object_unknown(L, 1, 2, "assign");
  if (o->cls->kinds[prop] == LUN_PROP_COMPUTED)
    return luaL_error(L, "cannot assign to computed property '%s' of %s", lua_tostring(L, 2),
                      lun_object_classname(L, 1));
  lun_object_write(L, 1, prop, 3);
  return 0;
}

/* __tostring of instances: (obj) -> "Book#3 {title=\"Dune\", ...}"; a
 * SecureField's text as its bullets (lun_secret.c). */
static int lun_object_tostring(lua_State *L) {
  lun_Object *o = lun_object_self(L);
  luaL_Buffer b;
  int i, secret, first = 1;
  lua_settop(L, 1);
  lua_getfield(L, lua_upvalueindex(LUN_UV_INFO), "names"); /* 2 */
  luaL_buffinit(L, &b);
  lun_object_push_id(L, 1);
  luaL_addvalue(&b);
  luaL_addstring(&b, " {");
  for (i = 1; i <= o->cls->nprops; i++) {
    if (o->cls->kinds[i] == LUN_PROP_COMPUTED) continue;
    if (!first) luaL_addstring(&b, ", ");
    first = 0;
    lua_rawgeti(L, 2, i);
    luaL_addvalue(&b);
    luaL_addchar(&b, '=');
    lua_getiuservalue(L, 1, i);
    lua_rawgeti(L, 2, i);
    secret = lun_secret_prop(L, 1, -1);           /* a SecureField's text */
    lua_pop(L, 1);
    if (secret) lun_secret_describe(L, -1, "", ""); else lun_describe(L, -1, 1);
    lua_remove(L, -2);
    luaL_addvalue(&b);
  }
  luaL_addchar(&b, '}');
  luaL_pushresult(&b);
  return 1;
}

/* __gc of instances: hands the nodes back to the graph. */
static int lun_object_gc(lua_State *L) {
  lun_Object *o = lun_object_check(L);
  lun_State *S = lun_state(L);
  int i;
  for (i = 0; i <= o->cls->nprops; i++)          /* nodes[0]: an ObservableObject's whole-object node */
    if (o->nodes[i]) { lun_graph_release_later(S->graph, o->nodes[i]); o->nodes[i] = 0; }
  return 0;
}

/* Iterator of __pairs: (obj, key) -> nextkey, value (tracked reads, declaration order). */
static int lun_object_next(lua_State *L) {
  lun_Object *o = lun_object_check(L);
  lua_settop(L, 2);
  int prop = 0;
  if (!lua_isnil(L, 2)) prop = lun_object_prop(L, 1, 2);
  if (++prop > o->cls->nprops) return 0;
  lun_object_meta(L, 1, "__info");
  lua_getfield(L, -1, "names");
  lua_rawgeti(L, -1, prop);
  lun_object_read(L, 1, prop);
  return 2;
}

/* __pairs of instances: (obj) -> iterator, obj, nil. */
static int lun_object_pairs(lua_State *L) {
  lun_object_check(L);
  lua_pushcfunction(L, lun_object_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

/* Builds the instance metatable for a class. [-0, +1] */
void lun_object_metatable(lua_State *L, int clsidx, int propsidx, int methodsidx, int infoidx, const char *name) {
  static const luaL_Reg closures[] = {
    {"__index", lun_object_index}, {"__newindex", lun_object_newindex},
    {"__tostring", lun_object_tostring}, {NULL, NULL}};
  const luaL_Reg *r;
  lua_newtable(L);
  ((lun_Class *)lua_touserdata(L, clsidx))->meta = lua_topointer(L, -1);
  for (r = closures; r->name; r++) {
    lua_pushvalue(L, clsidx);
    lua_pushvalue(L, methodsidx);
    lua_pushvalue(L, infoidx);
    lua_pushvalue(L, -4);
    lua_pushcclosure(L, r->func, 4);
    lua_setfield(L, -2, r->name);
  }
  lua_pushcfunction(L, lun_object_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, lun_object_pairs);
  lua_setfield(L, -2, "__pairs");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__name");
  lun_seal(L, -1, LUN_SEAL_OBJECT, name);
  lua_pushvalue(L, clsidx);
  lua_setfield(L, -2, "__classdata");
  lua_pushvalue(L, propsidx);
  lua_setfield(L, -2, "__props");
  lua_pushvalue(L, methodsidx);
  lua_setfield(L, -2, "__class");
  lua_pushvalue(L, infoidx);
  lua_setfield(L, -2, "__info");
  lua_getfield(L, infoidx, "computeds");
  lua_rawseti(L, -2, LUN_META_COMPUTEDS);
  lua_pushstring(L, name);
  lua_rawseti(L, -2, LUN_META_NAME);
  lua_getfield(L, infoidx, "names");
  lua_rawseti(L, -2, LUN_META_NAMES);
  lua_pushvalue(L, clsidx);
  lua_rawseti(L, -2, LUN_META_CLASS);
  lua_getfield(L, infoidx, "defaults");
  lua_rawseti(L, -2, LUN_META_DEFAULTS);
}

/* Stores the initial value of property prop, if this pass gives it one:
 * pass 0 the init table's value (at initidx, 0 for none) or a plain
 * default, pass 1 a factory's (called with the object) where the init
 * table gave none. The class's names and defaults are at namesidx and
 * defaultsidx. A property read before it was set (a factory or a computed
 * it read got nil) tells its readers now. [-0, +0] */
static void lun_object_init_prop(lua_State *L, lun_State *S, int objidx, int prop, int initidx, int namesidx,
                                 int defaultsidx, int pass) {
  lun_Object *o = (lun_Object *)lua_touserdata(L, objidx);
  int top = lua_gettop(L), factory = lua_rawgeti(L, defaultsidx, prop) == LUA_TFUNCTION;
  if (initidx) {
    lua_rawgeti(L, namesidx, prop);
    lua_gettable(L, initidx);
  } else lua_pushnil(L);
  if (!lua_isnil(L, -1)) {                         /* given: a plain value, set in pass 0 */
    if (pass == 1) { lua_settop(L, top); return; }
  } else if (factory != pass) {                    /* a plain default in pass 0, a factory in pass 1 */
    lua_settop(L, top);
    return;
  } else {
    lua_pop(L, 1);                                /* the default on top */
    if (factory) {
      lua_pushvalue(L, objidx);
      lua_call(L, 1, 1);
    }
  }
  lun_store_value(L, objidx, prop);              /* tables are values: each instance its own (F04) */
  lua_setiuservalue(L, objidx, prop);
  lua_settop(L, top);
  if (o->nodes[prop] && o->cls->kinds[prop] == LUN_PROP_PLAIN) lun_changed_now(L, S, o->nodes[prop]);
}

/* Checks that every key of the init table names a property of cls. */
static void lun_object_check_init(lua_State *L, const lun_Class *cls, int objidx, int initidx) {
  lua_pushnil(L);
  while (lua_next(L, initidx)) {
    lua_pop(L, 1);
    if (!lun_object_prop_of(L, cls, objidx, -1)) lun_object_unknown(L, objidx, -1, "initialise");
  }
}

/* Makes an instance of the class whose instance metatable is at mtidx,
 * with initial values from the table at initidx (0 for none). [-0, +1] */
int lun_object_new_of(lua_State *L, int mtidx, int initidx) {
  lun_State *S = lun_state(L);
  lun_Class *cls;
  lun_Object *o;
  int objidx, namesidx, defaultsidx, i, pass;
  mtidx = lua_absindex(L, mtidx);
  if (initidx) initidx = lua_absindex(L, initidx);
  lua_rawgeti(L, mtidx, LUN_META_CLASS);
  cls = (lun_Class *)lua_touserdata(L, -1);
  lua_pop(L, 1);
  o = (lun_Object *)lua_newuserdatauv(L, sizeof(lun_Object) + sizeof(int32_t) * (size_t)cls->nprops,
                                      cls->nprops + (cls->isObject ? 1 : 0));   /* its values (lun_Object) */
  memset(o, 0, sizeof(lun_Object) + sizeof(int32_t) * (size_t)cls->nprops);
  objidx = lua_gettop(L);
  o->cls = cls;
  o->serial = lunh(S->rt, objects, object_serial);
  o->made = ++S->objectsMade;
  o->ordinal = ++cls->count;
  lua_pushvalue(L, mtidx);
  lua_setmetatable(L, objidx);
  lua_rawgeti(L, LUA_REGISTRYINDEX, S->objectsRef);   /* findable by its serial before a factory runs: */
  lua_pushvalue(L, objidx);                            /* one may read a computed of it */
  lua_rawseti(L, -2, o->serial);
  lua_pop(L, 1);
  if (initidx) lun_object_check_init(L, cls, objidx, initidx);
  lua_rawgeti(L, mtidx, LUN_META_NAMES);
  namesidx = lua_gettop(L);
  lua_rawgeti(L, mtidx, LUN_META_DEFAULTS);
  defaultsidx = lua_gettop(L);
  /* given and plain values first, then factories, so a factory may read the others */
  for (pass = 0; pass < 2; pass++)
    for (i = 1; i <= cls->nprops; i++)
      if (cls->kinds[i] != LUN_PROP_COMPUTED) lun_object_init_prop(L, S, objidx, i, initidx, namesidx, defaultsidx, pass);
  lua_settop(L, objidx);
  return 1;
}

/* Pushes the live instance with this serial, or nothing. Returns 1 if pushed. */
int lun_object_push_serial(lua_State *L, int32_t serial) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, lun_state(L)->objectsRef);
  if (lua_rawgeti(L, -1, serial) == LUA_TNIL) { lua_pop(L, 2); return 0; }
  lua_replace(L, -2);
  return 1;
}

/* Writes "Book#3.title" for property slot of the object with this serial
 * (slot 0: "Book#3"). Uses no call that can raise or allocate, so the host
 * may call it at any time. Returns 0 if the object is gone. */
int lun_object_label(lua_State *L, int32_t serial, int32_t slot, char *buf, size_t size) {
  lun_Object *o;
  const char *cls, *prop = NULL;
  int ok = 0, top = lua_gettop(L);
  if (size == 0 || !lua_checkstack(L, 6)) return 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_objects);
  if (lua_type(L, -1) == LUA_TTABLE && lua_rawgeti(L, -1, serial) == LUA_TUSERDATA && lua_getmetatable(L, -1)) {
    o = (lun_Object *)lua_touserdata(L, -2);
    lua_rawgeti(L, -1, LUN_META_NAME);
    cls = lua_tostring(L, -1);
    if (slot > 0 && lua_rawgeti(L, -2, LUN_META_NAMES) == LUA_TTABLE && lua_rawgeti(L, -1, slot) == LUA_TSTRING)
      prop = lua_tostring(L, -1);
    if (prop) snprintf(buf, size, "%s#%d.%s", cls ? cls : "?", (int)o->ordinal, prop);
    else snprintf(buf, size, "%s#%d", cls ? cls : "?", (int)o->ordinal);
    ok = 1;
  }
  lua_settop(L, top);
  return ok;
}

