/*
 * lun_proxy.c — plain tables held in a property behave as tracked values.
 *
 * Reading a property whose value is a plain table returns a proxy userdata
 * (user values: 1 = the raw table, 2 = the owning object). Every read through
 * the proxy (#, [], ipairs, pairs, table.*) tracks the owning property, every
 * write notifies it, and nested plain tables come back as proxies with the
 * same owner. Proxies are cached per raw table, so they keep their identity.
 */
#include "core/core.h"
#include "model/model.h"
#define LUN_MT_PROXY "lunette.Tracked"


/* Tracks the owning property of proxy p if a scope is running (Observable owners only). */
static void lun_proxy_track(lua_State *L, lun_Proxy *p) {
  lun_State *S = lun_state(L);
  if (S->active && p->owner->cls->kinds[p->prop] == LUN_PROP_PLAIN)
    lun_graph_track(S->graph, S->active, lun_object_node(L, p->owner, p->prop, LUN_GRAPH_SIGNAL));
}

/* Tells the owner of proxy p (at 1) that its property is about to change. */
static void lun_proxy_notify(lua_State *L, lun_Proxy *p) {
  lua_getiuservalue(L, 1, 2);
  lun_object_notify(L, -1, p->owner, p->prop);
  lua_pop(L, 1);
}

/* 1 if the value at idx is a tracked-table proxy. */
int lun_proxy_test(lua_State *L, int idx) {
  return luaL_testudata(L, idx, LUN_MT_PROXY) != NULL;
}

/* Pushes the proxy of the raw table at rawidx owned by (owneridx, prop). [-0, +1] */
void lun_proxy_push(lua_State *L, int owneridx, int prop, int rawidx) {
  lun_Proxy *p;
  owneridx = lua_absindex(L, owneridx);
  rawidx = lua_absindex(L, rawidx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_proxies);
  lua_pushvalue(L, rawidx);
  if (lua_rawget(L, -2) == LUA_TUSERDATA) {
    p = (lun_Proxy *)lua_touserdata(L, -1);
    if (p->owner == lua_touserdata(L, owneridx) && p->prop == prop) { lua_remove(L, -2); return; }
  }
  lua_pop(L, 1);
  p = (lun_Proxy *)lua_newuserdatauv(L, sizeof(lun_Proxy), 2);
  p->owner = (lun_Object *)lua_touserdata(L, owneridx);
  p->prop = prop;
  lua_pushvalue(L, rawidx);
  lua_setiuservalue(L, -2, 1);
  lua_pushvalue(L, owneridx);
  lua_setiuservalue(L, -2, 2);
  luaL_setmetatable(L, LUN_MT_PROXY);
  lua_pushvalue(L, rawidx);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);
  lua_remove(L, -2);
}

/* Replaces a proxy at idx by its raw table (other values are left alone). [-0, +0] */
LUN_HOT void lun_proxy_unwrap(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (!lun_proxy_test(L, idx)) return;
  lua_getiuservalue(L, idx, 1);
  lua_replace(L, idx);
}

/* Pushes raw[k] of proxy at 1 (checked by the caller) for the key at kidx,
 * wrapping plain tables. [-0, +1] */
static void lun_proxy_get(lua_State *L, int kidx) {
  lun_Proxy *p = (lun_Proxy *)lua_touserdata(L, 1);
  lua_getiuservalue(L, 1, 1);
  lua_pushvalue(L, kidx);
  lua_rawget(L, -2);
  lua_remove(L, -2);
  if (lua_type(L, -1) == LUA_TTABLE) {
    if (lua_getmetatable(L, -1)) { lua_pop(L, 1); return; }
    lua_getiuservalue(L, 1, 2);
    lun_proxy_push(L, -1, p->prop, -2);
    lua_replace(L, -3);
    lua_pop(L, 1);
  }
}

/* __index: (proxy, key) -> value, tracking the owner. */
static int lun_proxy_index(lua_State *L) {
  lun_proxy_track(L, (lun_Proxy *)lun_check_self(L, 1, lua_upvalueindex(1), "tracked table"));
  lun_proxy_get(L, 2);
  return 1;
}

/* __newindex: (proxy, key, value) -> (), notifying the owner if it changed.
 * A table from elsewhere is stored as a copy, as a property's own value is
 * (F04); one of the same property's tables (table.insert, table.sort moving
 * its elements) moves as it is. */
static int lun_proxy_newindex(lua_State *L) {
  lun_Proxy *p = (lun_Proxy *)luaL_checkudata(L, 1, LUN_MT_PROXY);
  lun_Proxy *v;
  int own;
  lua_settop(L, 3);
  v = (lun_Proxy *)luaL_testudata(L, 3, LUN_MT_PROXY);
  own = v && v->owner == p->owner && v->prop == p->prop;
  lun_proxy_unwrap(L, 3);
  lua_getiuservalue(L, 1, 1);                    /* 4: raw */
  lua_pushvalue(L, 2);
  lua_rawget(L, 4);
  if (lua_rawequal(L, -1, 3)) return 0;
  lua_pop(L, 1);
  if (!own) lun_snapshot(L, 3, "a value stored in a model's table");
  lun_proxy_notify(L, p);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_rawset(L, 4);
  return 0;
}

/* __len: (proxy) -> #raw, tracking the owner. */
static int lun_proxy_len(lua_State *L) {
  lun_proxy_track(L, (lun_Proxy *)lun_check_self(L, 1, lua_upvalueindex(1), "tracked table"));
  lua_getiuservalue(L, 1, 1);
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
  return 1;
}

/* Iterator of __pairs: (proxy, key) -> nextkey, value. */
static int lun_proxy_next(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_PROXY);
  lua_settop(L, 2);
  lua_getiuservalue(L, 1, 1);                    /* 3: raw */
  lua_pushvalue(L, 2);
  if (!lua_next(L, 3)) return 0;                 /* 4: key, 5: value */
  lua_pop(L, 1);
  lun_proxy_get(L, 4);
  return 2;
}

/* __pairs: (proxy) -> iterator, proxy, nil. */
static int lun_proxy_pairs(lua_State *L) {
  lun_proxy_track(L, (lun_Proxy *)luaL_checkudata(L, 1, LUN_MT_PROXY));
  lua_pushcfunction(L, lun_proxy_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

/* __tostring: (proxy) -> "{1, 2, 3}". */
static int lun_proxy_tostring(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_PROXY);
  lua_getiuservalue(L, 1, 1);
  lun_describe(L, -1, 2);
  return 1;
}

/* Copies the plain table at idx into a new table, recursively; `path`
 * (a table) holds the tables being copied, to catch a cycle; *visits
 * counts the entries copied. [-0, +1] */
static void lun_copy_level(lua_State *L, int idx, int path, int depth, const char *what, long *visits) {
  lun_nest(L, depth, what);
  lua_pushvalue(L, idx);
  if (lua_rawget(L, path) != LUA_TNIL)
    luaL_error(L, "%s: the table contains itself (a value cannot hold a cycle)", what);
  lua_pop(L, 1);
  lua_pushvalue(L, idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, path);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (++*visits > LUN_MAX_VISITED)
      luaL_error(L, "%s: the value has more than %d entries along its paths (a table shared many times inside it?)",
                 what, LUN_MAX_VISITED);
    lun_budget_every(L, (unsigned long)*visits);   /* C: the hook never fires here */
    if (lua_type(L, -1) == LUA_TTABLE) {
      if (lua_getmetatable(L, -1)) lua_pop(L, 1);
      else { lun_copy_level(L, lua_gettop(L), path, depth + 1, what, visits); lua_replace(L, -2); }
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  lua_pushvalue(L, idx);
  lua_pushnil(L);
  lua_rawset(L, path);
}

/* Pushes a deep copy of the plain table at idx (objects are shared); fails
 * past LUN_MAX_NESTING levels or on a cycle, naming `what`. [-0, +1] */
static void lun_copy_table(lua_State *L, int idx, const char *what) {
  long visits = 0;
  idx = lua_absindex(L, idx);
  lua_newtable(L);
  lun_copy_level(L, idx, lua_gettop(L), 0, what, &visits);
  lua_remove(L, -2);
}

/* Turns the value on top into what property prop of the object at objidx
 * stores: a proxy's raw table, and a plain table as a copy of its own, as a
 * Swift array or dictionary is a value (F04). Models, Swift objects and
 * functions stay references. [-1, +1] */
LUN_HOT void lun_store_value(lua_State *L, int objidx, int prop) {
  objidx = lua_absindex(L, objidx);
  lun_proxy_unwrap(L, -1);
  if (lua_type(L, -1) != LUA_TTABLE) return;
  if (lua_getmetatable(L, -1)) { lua_pop(L, 1); return; }
  lua_getmetatable(L, objidx);
  lua_rawgeti(L, -1, LUN_META_NAMES);
  lua_rawgeti(L, -1, prop);
  lua_pushfstring(L, "%s.%s", lun_object_classname(L, objidx), lua_tostring(L, -1));
  lun_copy_table(L, -5, lua_tostring(L, -1));
  lua_replace(L, -6);
  lua_pop(L, 4);
}

/* 1 if the value at idx is a table without a metatable. */
int lun_is_plain_table(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  if (lua_getmetatable(L, idx)) { lua_pop(L, 1); return 0; }
  return 1;
}

/* Replaces the value at idx by what an onChange compares: a plain table (or
 * a proxy's) by a deep snapshot, anything else left as it is. [-0, +0] */
void lun_snapshot(lua_State *L, int idx, const char *what) {
  idx = lua_absindex(L, idx);
  lun_proxy_unwrap(L, idx);
  if (!lun_is_plain_table(L, idx)) return;
  lun_copy_table(L, idx, what);
  lua_replace(L, idx);
}

/* How one comparison by contents goes: what it names in an error, how
 * many entries it may visit, whether values other than plain tables are
 * compared by == (their __eq) or by identity. */
typedef struct lun_Compare {
  const char *what;
  long visits, most;
  int raw;
} lun_Compare;

/* Counts one entry a comparison visits: raises past c->most, or when the
 * running run's budget is spent (a comparison made for every node of a
 * walk adds up, in C, where the hook never fires). */
static void lun_compare_visit(lua_State *L, lun_Compare *c) {
  if (++c->visits > c->most)
    lun_error_here(L, "%s compared by contents has more than %d entries along its paths "
                   "(a table shared many times inside it?)", c->what, (int)c->most);
  lun_budget_every(L, (unsigned long)c->visits);
}

static int lun_values_equal_at(lua_State *L, int a, int b, int depth, lun_Compare *c) {
  int equal = 1;
  size_t count = 0;
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  if (!lun_is_plain_table(L, a) || !lun_is_plain_table(L, b))
    return c->raw ? lua_rawequal(L, a, b) : lua_compare(L, a, b, LUA_OPEQ);
  lun_nest(L, depth, c->what);
  lua_pushnil(L);
  while (equal && lua_next(L, a)) {
    lun_compare_visit(L, c);
    count++;
    lua_pushvalue(L, -2);
    lua_rawget(L, b);
    equal = lun_values_equal_at(L, -2, -1, depth + 1, c);
    lua_pop(L, 2);
  }
  if (!equal) { lua_pop(L, 1); return 0; }
  lua_pushnil(L);
  while (lua_next(L, b)) { lun_compare_visit(L, c); count--; lua_pop(L, 1); }
  return count == 0;
}

/* A comparison ended with `equal`, which it returns: one that visited a
 * few hundred entries looks at the budget (made for every node of a walk,
 * they add up between the walk's own looks). */
static int lun_compare_end(lua_State *L, const lun_Compare *c, int equal) {
  if (c->visits >= 256) lun_budget_raise(L);
  return equal;
}

/* 1 if the values at a and b are equal as values: plain tables (without a
 * metatable) by contents, at any depth; anything else by ==. Raises past
 * LUN_MAX_VISITED entries. */
int lun_values_equal(lua_State *L, int a, int b) {
  lun_Compare c = {"a value", 0, LUN_MAX_VISITED, 0};
  return lun_compare_end(L, &c, lun_values_equal_at(L, a, b, 0, &c));
}

/* Protected part of lun_values_equal_caught: (a, b) -> equal. */
static int lun_values_equal_k(lua_State *L) {
  lua_pushboolean(L, lun_values_equal(L, 1, 2));
  return 1;
}

/* lun_values_equal of the two values on top, where a script's __eq may
 * run: as a run of its own, so what it raises (or a stop by the budget)
 * is reported as unit's event's and the caller's work goes on whole;
 * then `failed` is the answer. [-0, +0] */
int lun_values_equal_caught(lua_State *L, int32_t unit, int failed) {
  int equal;
  if (!lua_checkstack(L, 4)) return failed;
  lua_pushcfunction(L, lun_values_equal_k);
  lua_pushvalue(L, -3);
  lua_pushvalue(L, -3);
  if (lun_protect_event(L, 2, 1, unit) != LUN_OK) return failed;
  equal = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return equal;
}

/* 1 if the values at a and b are one value as a Hashable one is: plain
 * tables by contents, anything else by identity (no metamethod runs).
 * Raises, naming `what`, past `most` entries: a comparison made for every
 * field of a render is small (a focus value is an id). */
int lun_values_same(lua_State *L, int a, int b, long most, const char *what) {
  lun_Compare c = {what, 0, most, 1};
  return lun_compare_end(L, &c, lun_values_equal_at(L, a, b, 0, &c));
}

void lun_open_proxy(lua_State *L) {
  static const luaL_Reg meta[] = {
    {"__index", lun_proxy_index}, {"__newindex", lun_proxy_newindex},
    {"__len", lun_proxy_len}, {"__pairs", lun_proxy_pairs},
    {"__tostring", lun_proxy_tostring}, {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_PROXY);
  lua_pushvalue(L, -1);                          /* upvalue: the metatable a proxy must have */
  luaL_setfuncs(L, meta, 1);
  lua_pop(L, 1);
}
