/*
 * lun_host.c — Swift objects in Lua.
 *
 * The host registers a type with the names of the properties Lua may see;
 * it appears as ui.types.<Name>. An object is a userdata (lun_HostObject) holding
 * the handle the host gave it; reads and writes go to the host, which
 * records the dependency in the graph. Array properties come back as array
 * userdata (#, [], ipairs, table.insert/remove) over the same property.
 */
#include "core/core.h"
#include "model/model.h"
#define LUN_MT_HOSTARRAY "lunette.HostArray"


typedef struct lun_HostObject {
  int32_t handle;
  int32_t type;
  int32_t isObject;   /* ObservableObject-style: reads are not tracked one by one */
} lun_HostObject;

typedef struct lun_HostArray {
  int32_t handle;
  int32_t prop;
} lun_HostArray;

/* 1 if the value at idx is a host object; its handle goes to *handle. */
int lun_host_test(lua_State *L, int idx, int32_t *handle) {
  if (lua_type(L, idx) != LUA_TUSERDATA || lun_sealed_kind(L, idx) != LUN_SEAL_HOST) return 0;
  *handle = ((lun_HostObject *)lua_touserdata(L, idx))->handle;
  return 1;
}

/* The Swift object at 1 of the type whose metamethod runs (its metatable is
 * upvalue 3), or a type error. */
static lun_HostObject *lun_host_self(lua_State *L) {
  return (lun_HostObject *)lun_check_self(L, 1, lua_upvalueindex(3), "Swift object");
}

/* The Swift object at 1 of any type, or a type error. */
static lun_HostObject *lun_host_check(lua_State *L) {
  int32_t handle;
  if (!lun_host_test(L, 1, &handle)) luaL_typeerror(L, 1, "Swift object");
  return (lun_HostObject *)lua_touserdata(L, 1);
}

/* The registered type name of the host object at idx. */
const char *lun_host_typename(lua_State *L, int idx) {
  const char *name;
  lua_getmetatable(L, idx);
  lua_getfield(L, -1, "__name");
  name = lua_tostring(L, -1);
  lua_pop(L, 2);
  return name ? name : "?";
}

/* Raises the host's last error message. */
static int lun_host_error(lua_State *L) {
  size_t len;
  const char *msg = lunh(lun_state(L)->rt, objects, error_message, &len);
  lua_pushlstring(L, msg, len);
  return lun_error_here(L, "%s", lua_tostring(L, -1));
}

/* Pushes the userdata of host object handle (of host type `type`), reusing it. [-0, +1] */
static void lun_host_push(lua_State *L, int32_t handle, int32_t type) {
  lun_HostObject *h;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_hosts);
  if (lua_rawgeti(L, -1, handle) == LUA_TUSERDATA) { lua_remove(L, -2); return; }
  lua_pop(L, 1);
  h = (lun_HostObject *)lua_newuserdatauv(L, sizeof(lun_HostObject), 1);
  h->handle = handle;
  h->type = type;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_hosttypes);
  lua_rawgeti(L, -1, type);
  lua_getfield(L, -1, "__lunette_hostobject");
  h->isObject = lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_setmetatable(L, -3);
  lua_pop(L, 1);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, handle);
  lua_remove(L, -2);
}

/* Pushes the array userdata for property prop of the host object at owner. [-0, +1] */
static void lun_host_push_array(lua_State *L, int owner, int32_t prop) {
  lun_HostArray *a;
  owner = lua_absindex(L, owner);
  if (lua_getiuservalue(L, owner, 1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, owner, 1);
  }
  if (lua_rawgeti(L, -1, prop) == LUA_TUSERDATA) { lua_remove(L, -2); return; }
  lua_pop(L, 1);
  a = (lun_HostArray *)lua_newuserdatauv(L, sizeof(lun_HostArray), 1);
  a->handle = ((lun_HostObject *)lua_touserdata(L, owner))->handle;
  a->prop = prop;
  lua_pushvalue(L, owner);
  lua_setiuservalue(L, -2, 1);
  luaL_setmetatable(L, LUN_MT_HOSTARRAY);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, prop);
  lua_remove(L, -2);
}

/* Pushes a value received from the host; owner is the object it was read from. [-0, +1] */
static void lun_host_push_received(lua_State *L, const lun_HostValue *v, int owner, int32_t prop);

/* Pushes a value table the host filled (token, count entries) as a new Lua
 * table: a copy, as a Swift array or dictionary is a value. [-0, +1] */
static void lun_host_push_table(lua_State *L, int32_t token, int64_t count, int depth) {
  lun_HostValue key, value;
  int64_t i;
  lun_nest(L, depth, "a Swift value");
  lua_createtable(L, 0, 0);
  for (i = 0; i < count; i++) {
    if (lunh(lun_state(L)->rt, objects, table_entry, token, (int32_t)i, &key, &value) != 0) continue;
    if (key.tag == LUN_HV_STRING) lua_pushlstring(L, key.string, key.length);   /* before the next call reuses it */
    else lua_pushinteger(L, (lua_Integer)key.integer);
    if (value.tag == LUN_HV_TABLE) lun_host_push_table(L, value.handle, value.integer, depth + 1);
    else lun_host_push_received(L, &value, 0, 0);
    lua_rawset(L, -3);
  }
}

static void lun_host_push_received(lua_State *L, const lun_HostValue *v, int owner, int32_t prop) {
  switch (v->tag) {
    case LUN_HV_TABLE: lun_host_push_table(L, v->handle, v->integer, 0); break;
    case LUN_HV_BOOL: lua_pushboolean(L, (int)v->integer); break;
    case LUN_HV_INT: lua_pushinteger(L, (lua_Integer)v->integer); break;
    case LUN_HV_DOUBLE: lua_pushnumber(L, v->number); break;
    case LUN_HV_STRING: lua_pushlstring(L, v->string, v->length); break;
    case LUN_HV_OBJECT: lun_host_push(L, v->handle, (int32_t)v->integer); break;
    case LUN_HV_ARRAY: lun_host_push_array(L, owner, prop); break;
    default: lua_pushnil(L); break;
  }
}

/* Pushes a value (not an object or an array) the host gave outside any object. [-0, +1] */
void lun_host_push_value(lua_State *L, const lun_HostValue *v) {
  if (v->tag == LUN_HV_ARRAY || v->tag == LUN_HV_OBJECT) lua_pushnil(L);
  else lun_host_push_received(L, v, 0, 0);
}

/* One conversion of Lua values for the host: the entries it visited. A
 * table shared along many paths is converted once per path (a Swift value
 * is a tree), so it is bounded as a copy is (LUN_MAX_VISITED), and it looks
 * at the budget as it goes: it runs in C, where the budget's hook never fires. */
typedef struct lun_ToHost {
  long visits;
  size_t text;       /* bytes of strings Swift will copy */
} lun_ToHost;

/* The most text one conversion hands Swift: Swift copies every string, out
 * of the memory cap's sight (256 entries of one 16 MB string were 4 GB). */
#define LUN_HOST_MAX_TEXT ((size_t)64 << 20)

static int lun_host_to_value_at(lua_State *L, int idx, lun_HostValue *v, int depth, lun_ToHost *c);

/* Counts one entry of a conversion; raises past LUN_MAX_VISITED or when the
 * running run's budget is spent. */
static void lun_host_visit(lua_State *L, lun_ToHost *c) {
  if (++c->visits > LUN_MAX_VISITED)
    lun_error_here(L, "a table given to Swift has more than %d entries along its paths (a table shared many times inside it?)",
                   LUN_MAX_VISITED);
  lun_budget_every(L, (unsigned long)c->visits);
}

/* Converts the plain table at idx into a host value table, entry by entry
 * (string or integer keys); a cycle or a deep nest is refused by lun_nest. */
static int lun_host_table_to_value(lua_State *L, int idx, lun_HostValue *v, int depth, lun_ToHost *c) {
  const lun_Host *rt = lun_state(L)->rt;
  int32_t token;
  idx = lua_absindex(L, idx);
  lun_nest(L, depth, "a table given to Swift");
  token = lunh(rt, objects, table_begin);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lun_HostValue key, value;
    int kt = lua_type(L, -2);
    lun_host_visit(L, c);
    if (kt != LUA_TSTRING && !(kt == LUA_TNUMBER && lua_isinteger(L, -2)))
      return lun_error_here(L, "a table given to Swift may only have string or integer keys, got %s", luaL_typename(L, -2));
    lun_host_to_value_at(L, -2, &key, depth + 1, c);
    lun_host_to_value_at(L, -1, &value, depth + 1, c);
    lunh(rt, objects, table_add, token, &key, &value);
    lua_pop(L, 1);
  }
  memset(v, 0, sizeof(*v));
  v->tag = LUN_HV_TABLE;
  v->handle = token;
  return 1;
}

/* Converts the Lua value at idx for the host; raises for values it cannot take. */
int lun_host_to_value(lua_State *L, int idx, lun_HostValue *v) {
  lun_ToHost c = {0, 0};
  return lun_host_to_value_at(L, idx, v, 0, &c);
}

/* Converts the n Lua values from idx on for the host, one conversion (their
 * entries bounded together); raises for values it cannot take. */
void lun_host_to_values(lua_State *L, int idx, int n, lun_HostValue *v) {
  lun_ToHost c = {0, 0};
  int i;
  for (i = 0; i < n; i++) lun_host_to_value_at(L, idx + i, &v[i], 0, &c);
}

static int lun_host_to_value_at(lua_State *L, int idx, lun_HostValue *v, int depth, lun_ToHost *c) {
  int32_t handle;
  memset(v, 0, sizeof(*v));
  if (lua_type(L, idx) == LUA_TTABLE && !lua_getmetatable(L, idx)) return lun_host_table_to_value(L, idx, v, depth, c);
  if (lua_type(L, idx) == LUA_TTABLE) lua_pop(L, 1);
  if (lun_proxy_test(L, idx)) {                   /* a tracked table a model holds: its raw contents */
    int ok;
    lua_pushvalue(L, idx);
    lun_proxy_unwrap(L, -1);
    ok = lun_host_table_to_value(L, -1, v, depth, c);
    lua_pop(L, 1);
    return ok;
  }
  switch (lua_type(L, idx)) {
    case LUA_TNIL: v->tag = LUN_HV_NIL; return 1;
    case LUA_TBOOLEAN: v->tag = LUN_HV_BOOL; v->integer = lua_toboolean(L, idx); return 1;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) { v->tag = LUN_HV_INT; v->integer = (int64_t)lua_tointeger(L, idx); }
      else { v->tag = LUN_HV_DOUBLE; v->number = (double)lua_tonumber(L, idx); }
      return 1;
    case LUA_TSTRING:
      v->tag = LUN_HV_STRING;
      v->string = lua_tolstring(L, idx, &v->length);
      if (v->length > LUN_HOST_MAX_TEXT - c->text)
        return lun_error_here(L, "a value given to Swift holds more than %d MiB of text", (int)(LUN_HOST_MAX_TEXT >> 20));
      c->text += v->length;
      return 1;
    default:
      if (lun_host_test(L, idx, &handle)) { v->tag = LUN_HV_OBJECT; v->handle = handle; return 1; }
      return lun_error_here(L, "a Swift property cannot hold a %s", luaL_typename(L, idx));
  }
}

/* While tracing, tells the host where the running Lua code is writing. Pushes one value. */
static void lun_host_trace_where(lua_State *L) {
  size_t len;
  const char *place;
  if (!lun_state(L)->tracing) { lua_pushnil(L); return; }
  lun_where_lua(L);
  place = lua_tolstring(L, -1, &len);
  lunh(lun_state(L)->rt, trace, where, place, len);
}

/* Raises "Library has no property 'bookz' visible to Lua to read (did you
 * mean 'books'?)" for the key at 2 (F08, F12). Upvalues: props, methods. */
static int lun_host_unknown(lua_State *L, const char *verb) {
  const char *key = luaL_tolstring(L, 2, NULL);
  lun_push_key_suggestion(L, key, lua_upvalueindex(1), lua_upvalueindex(2));
  return lun_error_here(L, "%s has no property '%s' visible to Lua to %s%s", lun_host_typename(L, 1), key, verb,
                        lua_tostring(L, -1));
}

/* __index of host objects: (obj, key) -> value. Upvalues: props, class table. */
static int lun_host_index(lua_State *L) {
  lun_HostObject *h = lun_host_self(L);
  lun_State *S = lun_state(L);
  lun_HostValue v;
  int32_t prop;
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TNIL) return lun_host_unknown(L, "read");
    return 1;
  }
  prop = (int32_t)lua_tointeger(L, -1);
  if (lunh(S->rt, objects, get, h->handle, prop, h->isObject ? 0 : S->active, &v) != 0) return lun_host_error(L);
  lun_host_push_received(L, &v, 1, prop);
  return 1;
}

/* __newindex of host objects: (obj, key, value) -> (). Upvalue: props. */
static int lun_host_newindex(lua_State *L) {
  lun_HostObject *h = lun_host_self(L);
  lun_HostValue v;
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNUMBER) return lun_host_unknown(L, "write");
  lun_host_to_value(L, 3, &v);
  lun_host_trace_where(L);
  if (lunh(lun_state(L)->rt, objects, set, h->handle, (int32_t)lua_tointeger(L, -2), &v) != 0) return lun_host_error(L);
  return 0;
}

/* __tostring of host objects: (obj) -> "Book#2". */
static int lun_host_tostring(lua_State *L) {
  size_t len;
  const char *s = lunh(lun_state(L)->rt, objects, describe, lun_host_check(L)->handle, &len);
  lua_pushlstring(L, s, len);
  return 1;
}

/* __gc of host objects: the host may let go of the Swift object. */
static int lun_host_gc(lua_State *L) {
  lunh(lun_state(L)->rt, objects, release, lun_host_check(L)->handle);
  return 0;
}

/* __index of host arrays: (array, i) -> element. */
static int lun_hostarray_index(lua_State *L) {
  lun_HostArray *a = (lun_HostArray *)luaL_checkudata(L, 1, LUN_MT_HOSTARRAY);
  lun_State *S = lun_state(L);
  lun_HostValue v;
  lua_Integer i;
  if (!lua_isinteger(L, 2)) return 0;
  i = lua_tointeger(L, 2);
  if (lunh(S->rt, objects, element, a->handle, a->prop, (int64_t)i, S->active, &v) != 0) return lun_host_error(L);
  lun_host_push_received(L, &v, 1, 0);
  return 1;
}

/* __newindex of host arrays: (array, i, v) -> (); i = #a + 1 appends, nil at #a removes. */
static int lun_hostarray_newindex(lua_State *L) {
  lun_HostArray *a = (lun_HostArray *)luaL_checkudata(L, 1, LUN_MT_HOSTARRAY);
  lun_HostValue v;
  lua_Integer i = luaL_checkinteger(L, 2);
  lun_host_to_value(L, 3, &v);
  lun_host_trace_where(L);
  if (lunh(lun_state(L)->rt, objects, set_element, a->handle, a->prop, (int64_t)i, &v) != 0) return lun_host_error(L);
  return 0;
}

/* __len of host arrays: (array) -> count, tracked. */
static int lun_hostarray_len(lua_State *L) {
  lun_HostArray *a = (lun_HostArray *)luaL_checkudata(L, 1, LUN_MT_HOSTARRAY);
  lun_State *S = lun_state(L);
  lun_HostValue v;
  if (lunh(S->rt, objects, get, a->handle, a->prop, S->active, &v) != 0) return lun_host_error(L);
  lua_pushinteger(L, (lua_Integer)v.integer);
  return 1;
}

/* __call of a host class: (class) -> a new Swift object. Upvalue: type index. */
static int lun_host_construct(lua_State *L) {
  int32_t type = (int32_t)lua_tointeger(L, lua_upvalueindex(1));
  int32_t handle = lunh(lun_state(L)->rt, objects, host_new, type);
  if (handle <= 0) return lun_host_error(L);
  lun_host_push(L, handle, type);
  return 1;
}

/* 1 if the value at idx is an ObservableObject-style host object. */
int lun_host_is_object(lua_State *L, int idx) {
  int32_t handle;
  return lun_host_test(L, idx, &handle) && ((lun_HostObject *)lua_touserdata(L, idx))->isObject;
}

/* Tracks the whole ObservableObject-style host object at idx. */
void lun_host_track_whole(lua_State *L, int idx) {
  lun_State *S = lun_state(L);
  if (S->active) lunh(S->rt, objects, track_whole, ((lun_HostObject *)lua_touserdata(L, idx))->handle, S->active);
}

/* A method the host declared: (self, args...) -> result. Upvalues: the
 * method's number, the type's instance metatable (the self check). */
static int lun_host_method(lua_State *L) {
  lun_HostObject *h = (lun_HostObject *)lun_check_self(L, 1, lua_upvalueindex(2), "Swift object");
  lun_HostValue args[8], out;
  int n = lua_gettop(L) - 1;
  if (n > 8) return luaL_error(L, "a Swift method takes at most 8 arguments, got %d", n);
  lun_host_to_values(L, 2, n, args);
  if (lunh(lun_state(L)->rt, objects, call, h->handle, (int32_t)lua_tointeger(L, lua_upvalueindex(1)), args, n, &out) != 0)
    return lun_host_error(L);
  if (out.tag == LUN_HV_ARRAY) { lua_pushnil(L); return 1; }   /* arrays come back through properties only */
  lun_host_push_received(L, &out, 1, 0);
  return 1;
}

/* Protected part of lun_host_define: (type, name, "a\nb\nc", isObject, "m\nn") -> (). */
static int lun_host_define_k(lua_State *L) {
  static const luaL_Reg closures[] = {{"__index", lun_host_index}, {"__newindex", lun_host_newindex}, {NULL, NULL}};
  const luaL_Reg *r;
  const char *names = lua_tostring(L, 3), *methods = lua_tostring(L, 5), *nl;
  int32_t type = (int32_t)lua_tointeger(L, 1), prop = 0, method = 0;
  int isObject = lua_toboolean(L, 4);
  lua_settop(L, 5);
  lua_newtable(L);                                 /* 6: props */
  while (*names) {
    nl = strchr(names, '\n');
    lua_pushlstring(L, names, nl ? (size_t)(nl - names) : strlen(names));
    lua_pushinteger(L, ++prop);
    lua_rawset(L, 6);
    if (!nl) break;
    names = nl + 1;
  }
  lua_newtable(L);                                 /* 7: the class table (methods) */
  lua_newtable(L);                                 /* 8: the instance metatable */
  for (r = closures; r->name; r++) {
    lua_pushvalue(L, 6);
    lua_pushvalue(L, 7);
    lua_pushvalue(L, 8);
    lua_pushcclosure(L, r->func, 3);
    lua_setfield(L, 8, r->name);
  }
  while (methods && *methods) {                    /* the host's methods, in the class table */
    nl = strchr(methods, '\n');
    lua_pushlstring(L, methods, nl ? (size_t)(nl - methods) : strlen(methods));
    lua_pushinteger(L, ++method);
    lua_pushvalue(L, 8);
    lua_pushcclosure(L, lun_host_method, 2);
    lua_rawset(L, 7);
    if (!nl) break;
    methods = nl + 1;
  }
  lua_pushcfunction(L, lun_host_tostring);
  lua_setfield(L, 8, "__tostring");
  lua_pushcfunction(L, lun_host_gc);
  lua_setfield(L, 8, "__gc");
  lua_pushvalue(L, 2);
  lua_setfield(L, 8, "__name");
  lun_seal(L, 8, LUN_SEAL_HOST, lua_tostring(L, 2));
  lua_pushboolean(L, isObject);
  lua_setfield(L, 8, "__lunette_hostobject");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_hosttypes);
  lua_pushvalue(L, 8);
  lua_rawseti(L, -2, type);
  lua_pop(L, 1);
  lua_newtable(L);                                 /* 9: the class table's metatable */
  lua_pushvalue(L, 1);
  lua_pushcclosure(L, lun_host_construct, 1);
  lua_setfield(L, 9, "__call");
  lua_pushvalue(L, 8);
  lua_setfield(L, 9, "__instances");
  lua_pushvalue(L, 2);
  lua_setfield(L, 9, "__name");
  lun_seal(L, 9, LUN_SEAL_CLASS, lua_tostring(L, 2));
  lua_setmetatable(L, 7);
  /* ui.types[name] = class */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_module);
  lua_getfield(L, -1, "types");
  lua_pushvalue(L, 7);
  lua_setfield(L, -2, lua_tostring(L, 2));
  return 0;
}

int lun_host_define(lua_State *L, int32_t type, const char *name, const char *props, const char *methods, int isObject) {
  if (!lua_checkstack(L, 12)) return LUN_ERROR;
  lua_pushcfunction(L, lun_host_define_k);
  lua_pushinteger(L, type);
  lua_pushstring(L, name);
  lua_pushstring(L, props);
  lua_pushboolean(L, isObject);
  lua_pushstring(L, methods ? methods : "");
  return lun_protect(L, 5, 0);
}

/* Protected part of lun_host_global: (handle, type, name) -> (): _G[name] = object. */
static int lun_host_global_k(lua_State *L) {
  lun_host_push(L, (int32_t)lua_tointeger(L, 1), (int32_t)lua_tointeger(L, 2));
  lua_setglobal(L, lua_tostring(L, 3));
  return 0;
}

int lun_host_global(lua_State *L, int32_t handle, int32_t type, const char *name) {
  if (!lua_checkstack(L, 6)) return LUN_ERROR;
  lua_pushcfunction(L, lun_host_global_k);
  lua_pushinteger(L, handle);
  lua_pushinteger(L, type);
  lua_pushstring(L, name);
  return lun_protect(L, 3, 0);
}

void lun_open_host(lua_State *L) {
  static const luaL_Reg arraymeta[] = {
    {"__index", lun_hostarray_index}, {"__newindex", lun_hostarray_newindex},
    {"__len", lun_hostarray_len}, {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_HOSTARRAY);
  luaL_setfuncs(L, arraymeta, 0);
  lua_pop(L, 1);
  lun_registry_table(L, &lun_key_hosttypes);
  lua_pop(L, 1);
  lua_newtable(L);
  lua_setfield(L, -2, "types");
}
