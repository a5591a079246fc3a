/*
 * lun_util.c — describing values for people, and identity keys for rows.
 */
#include "lun_internal.h"
#include <stdarg.h>

/* Before one more level of a recursion over script-made values: raises
 * (naming what) past LUN_MAX_NESTING levels, and makes room on the Lua
 * stack for the level's work. */
void lun_nest(lua_State *L, int depth, const char *what) {
  if (depth >= LUN_MAX_NESTING)
    luaL_error(L, "%s: nested more than %d levels deep (a cycle?)", what, LUN_MAX_NESTING);
  luaL_checkstack(L, 16, what);
}

/* Appends the string on top of the stack to the string at acc. [-1, +0] */
static void lun_append(lua_State *L, int acc) {
  lua_pushvalue(L, acc);
  lua_insert(L, -2);
  lua_concat(L, 2);
  lua_replace(L, acc);
}

/* Pushes a short readable description of a table's contents. [-0, +1] */
static void lun_describe_table(lua_State *L, int idx, int depth) {
  int n = 0, acc;
  lua_Integer i, len = (lua_Integer)lua_rawlen(L, idx);
  lua_pushliteral(L, "{");
  acc = lua_gettop(L);
  for (i = 1; i <= len && n < 8; i++, n++) {
    if (n) { lua_pushliteral(L, ", "); lun_append(L, acc); }
    lua_rawgeti(L, idx, i);
    lun_describe(L, -1, depth - 1);
    lua_remove(L, -2);
    lun_append(L, acc);
  }
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= len) {
      lua_pop(L, 1);
      continue;
    }
    if (n >= 8) { lua_pop(L, 2); break; }
    if (n++) { lua_pushliteral(L, ", "); lun_append(L, acc); }
    if (lua_type(L, -2) == LUA_TSTRING) {
      lua_pushfstring(L, "%s=", lua_tostring(L, -2));
    } else {
      lun_describe(L, -2, 0);
      lua_pushfstring(L, "[%s]=", lua_tostring(L, -1));
      lua_remove(L, -2);
    }
    lun_append(L, acc);
    lun_describe(L, -1, depth - 1);
    lun_append(L, acc);
    lua_pop(L, 1);
  }
  lua_pushstring(L, n >= 8 || len > 8 ? ", ...}" : "}");
  lun_append(L, acc);
}

/* Pushes a readable description of the value at idx: strings quoted,
 * tables shown to `depth` levels, objects by their tostring. [-0, +1] */
void lun_describe(lua_State *L, int idx, int depth) {
  idx = lua_absindex(L, idx);
  luaL_checkstack(L, 8, "describing a value");
  switch (lua_type(L, idx)) {
    case LUA_TSTRING:
      lua_pushfstring(L, "\"%s\"", lua_tostring(L, idx));
      return;
    case LUA_TTABLE:
      if (!lua_getmetatable(L, idx)) {
        if (depth > 0) lun_describe_table(L, idx, depth);
        else lua_pushliteral(L, "{...}");
        return;
      }
      lua_pop(L, 1);
      break;
    case LUA_TUSERDATA:
      if (lun_object_test(L, idx)) { lun_object_push_id(L, idx); return; }
      if (lun_proxy_test(L, idx)) {
        lua_getiuservalue(L, idx, 1);
        lun_describe(L, -1, depth);
        lua_remove(L, -2);
        return;
      }
      break;
    default:
      break;
  }
  luaL_tolstring(L, idx, NULL);
}

static void lun_identity_key_at(lua_State *L, int idx, int depth);

/* Pushes the identity key of a row element: its id field if it has one,
 * its object identity, or the value itself. [-0, +1] */
void lun_identity_key(lua_State *L, int idx) {
  lun_identity_key_at(L, idx, 0);
}

/* lun_identity_key, `depth` id fields in. [-0, +1] */
static void lun_identity_key_at(lua_State *L, int idx, int depth) {
  int32_t handle;
  idx = lua_absindex(L, idx);
  lun_nest(L, depth, "a row's id");
  switch (lua_type(L, idx)) {
    case LUA_TSTRING:
      lua_pushfstring(L, "s:%s", lua_tostring(L, idx));
      return;
    case LUA_TNUMBER:
    case LUA_TBOOLEAN:
      lua_pushfstring(L, "v:%s", luaL_tolstring(L, idx, NULL));
      lua_remove(L, -2);
      return;
    case LUA_TTABLE:
    case LUA_TUSERDATA:
      if (lun_object_test(L, idx)) {
        int hasId;
        lua_pushliteral(L, "id");
        hasId = lun_object_prop(L, idx, -1);
        lua_pop(L, 1);
        if (!hasId) { lun_object_push_id(L, idx); return; }
        lua_getfield(L, idx, "id");
        lun_identity_key_at(L, -1, depth + 1);
        lua_remove(L, -2);
        return;
      }
      if (lun_host_test(L, idx, &handle)) {
        size_t len;
        const char *s = lunh(lun_state(L)->rt, objects, describe, handle, &len);
        lua_pushlstring(L, s, len);
        return;
      }
      if (lua_type(L, idx) == LUA_TTABLE || lun_proxy_test(L, idx)) {
        lua_getfield(L, idx, "id");
        if (!lua_isnil(L, -1)) {
          lun_identity_key_at(L, -1, depth + 1);
          lua_remove(L, -2);
          return;
        }
        lua_pop(L, 1);
      }
      lua_pushfstring(L, "p:%p", lua_topointer(L, idx));
      return;
    default:
      lua_pushfstring(L, "%s", luaL_typename(L, idx));
      return;
  }
}

/* The most entries a plain table used as an explicit id may have (its key
 * is made of its sorted contents). */
#define LUN_MAX_ID_ENTRIES 64

static void lun_explicit_key_at(lua_State *L, int idx, int depth);

/* Pushes the key of a plain table's contents: "t{k=v,...}" with its entries
 * in order of their keys' keys, so equal contents give equal keys. [-0, +1] */
static void lun_table_key(lua_State *L, int idx, int depth) {
  int n = 0, i, j, list;
  lun_nest(L, depth, "an id");
  lua_createtable(L, 8, 0);                       /* the "k=v" strings */
  list = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (++n > LUN_MAX_ID_ENTRIES) luaL_error(L, "an id table holds at most %d entries", LUN_MAX_ID_ENTRIES);
    lun_explicit_key_at(L, -2, depth + 1);
    lua_pushliteral(L, "=");
    lun_explicit_key_at(L, -3, depth + 1);
    lua_concat(L, 3);
    for (i = n - 1; i >= 1; i--) {                /* insertion in order (at most 64) */
      lua_rawgeti(L, list, i);
      if (!lua_compare(L, -2, -1, LUA_OPLT)) { lua_pop(L, 1); break; }   /* strings: no metamethod */
      lua_rawseti(L, list, i + 1);
    }
    lua_rawseti(L, list, i + 1);
    lua_pop(L, 1);
  }
  lua_pushliteral(L, "t{");
  for (j = 1; j <= n; j++) {
    lua_rawgeti(L, list, j);
    if (j < n) lua_pushliteral(L, ",");
    lua_concat(L, j < n ? 3 : 2);
  }
  lua_pushliteral(L, "}");
  lua_concat(L, 2);
  lua_remove(L, list);
}

/* lun_explicit_key, `depth` levels in. */
static void lun_explicit_key_at(lua_State *L, int idx, int depth) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) == LUA_TTABLE && !lua_getmetatable(L, idx)) {
    lua_getfield(L, idx, "id");
    if (lua_isnil(L, -1)) { lua_pop(L, 1); lun_table_key(L, idx, depth); return; }
    lua_pop(L, 1);
  }
  lun_identity_key_at(L, idx, depth);
}

/* Pushes the key of an explicit identity (`:id(v)`, `find{ id = v }`): as
 * lun_identity_key, but a plain table without an id field is a value, keyed
 * by its contents (D03: ids are compared by value). [-0, +1] */
void lun_explicit_key(lua_State *L, int idx) {
  lun_explicit_key_at(L, idx, 0);
}

/* Raises an error prefixed with the position of the running Lua code. */
int lun_error_here(lua_State *L, const char *fmt, ...) {
  va_list argp;
  va_start(argp, fmt);
  luaL_where(L, 1);
  if (lua_rawlen(L, -1) == 0) {                   /* called by C (a binding's setter): the nearest Lua code */
    lua_pop(L, 1);
    lun_where_lua(L);
    if (lua_rawlen(L, -1) > 0) {
      lua_pushliteral(L, ": ");
      lua_concat(L, 2);
    }
  }
  lua_pushvfstring(L, fmt, argp);
  va_end(argp);
  lua_concat(L, 2);
  return lua_error(L);
}

/* Pushes "file:line" of the nearest Lua code on the call stack, or "". [-0, +1] */
void lun_where_lua(lua_State *L) {
  lua_Debug ar;
  int level;
  for (level = 1; level < 12 && lua_getstack(L, level, &ar); level++) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0) {
      lua_pushfstring(L, "%s:%d", ar.short_src, ar.currentline);
      return;
    }
  }
  lua_pushliteral(L, "");
}

/* While tracing, tells the host where the running Lua code wrote to node. */
void lun_trace_write(lua_State *L, int32_t node) {
  size_t len;
  const char *place;
  lun_where_lua(L);
  place = lua_tolstring(L, -1, &len);
  if (len) lunh(lun_state(L)->rt, trace, write, node, place, len);
  lua_pop(L, 1);
}

/* The edit distance between a and b (insertions, deletions, substitutions
 * and swaps of neighbours), or 99 for names too long to be typos. */
static int lun_distance(const char *a, const char *b) {
  int d[33][33], i, j;
  size_t la = strlen(a), lb = strlen(b);
  if (la > 32 || lb > 32) return 99;
  for (i = 0; i <= (int)la; i++) d[i][0] = i;
  for (j = 0; j <= (int)lb; j++) d[0][j] = j;
  for (i = 1; i <= (int)la; i++)
    for (j = 1; j <= (int)lb; j++) {
      int cost = a[i - 1] != b[j - 1], best = d[i - 1][j - 1] + cost;
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[la][lb];
}

/* Keeps candidate in *best if it is closer to name than what *best holds. */
static void lun_consider(const char *name, const char *candidate, const char **best, int *bestd) {
  int d = lun_distance(name, candidate);
  if (d < *bestd) { *bestd = d; *best = candidate; }
}

/* Raises "<owner>: unknown <noun> 'x' (did you mean 'y'?) (<noun>s: a, b)"
 * for a key of the table at tidx that is not in `known`: nothing a script
 * writes is silently ignored (F08, F12). */
void lun_check_keys(lua_State *L, int tidx, const char *const *known, const char *owner, const char *noun) {
  tidx = lua_absindex(L, tidx);
  lua_pushnil(L);
  while (lua_next(L, tidx)) {
    int i, found = 0;
    lua_pop(L, 1);
    for (i = 0; known[i] && !found; i++)
      found = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), known[i]) == 0;
    if (!found) {
      luaL_Buffer b;
      const char *key = luaL_tolstring(L, -1, NULL);
      lun_push_suggestion(L, key, 0, known);
      luaL_buffinit(L, &b);
      for (i = 0; known[i]; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, known[i]);
      }
      luaL_pushresult(&b);
      lun_error_here(L, "%s: unknown %s '%s'%s (%ss: %s)", owner, noun, key, lua_tostring(L, -2), noun,
                     lua_tostring(L, -1));
    }
  }
}

void lun_check_sections(lua_State *L, int tidx, const char *const *known, const char *owner) {
  lun_check_keys(L, tidx, known, owner, "section");
}

/* Pushes " (did you mean 'x'?)" for the candidate closest to name — the
 * strings of the array at arrayidx (0: none) and of the NULL-terminated
 * list (NULL: none) — if it is close enough to be a typo, else "". [-0, +1] */
void lun_push_suggestion(lua_State *L, const char *name, int arrayidx, const char *const *list) {
  const char *best = NULL;
  int i, bestd = 99, limit = strlen(name) <= 4 ? 1 : 2;
  if (arrayidx) {
    lua_Integer n = (lua_Integer)lua_rawlen(L, arrayidx), k;
    for (k = 1; k <= n; k++) {
      if (lua_rawgeti(L, arrayidx, k) == LUA_TSTRING) lun_consider(name, lua_tostring(L, -1), &best, &bestd);
      lua_pop(L, 1);                              /* the array keeps the string alive */
    }
  }
  for (i = 0; list && list[i]; i++) lun_consider(name, list[i], &best, &bestd);
  if (best && bestd <= limit && bestd > 0) lua_pushfstring(L, " (did you mean '%s'?)", best);
  else lua_pushliteral(L, "");
}

/* lun_push_suggestion among the string keys of the tables at t1 and t2
 * (0: none). [-0, +1] */
void lun_push_key_suggestion(lua_State *L, const char *name, int t1, int t2) {
  int i, tables[2];
  tables[0] = t1 ? lua_absindex(L, t1) : 0;
  tables[1] = t2 ? lua_absindex(L, t2) : 0;
  lua_newtable(L);
  for (i = 0; i < 2; i++) {
    if (!tables[i] || lua_type(L, tables[i]) != LUA_TTABLE) continue;
    lua_pushnil(L);
    while (lua_next(L, tables[i])) {
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
      lua_rawseti(L, -3, (lua_Integer)lua_rawlen(L, -3) + 1);
    }
  }
  lun_push_suggestion(L, name, lua_gettop(L), NULL);
  lua_remove(L, -2);
}

/* For types whose userdata keep their methods in user value 2 (view types,
 * dynamic properties), once the caller checked arg 1: (type, key) -> method. */
int lun_type_method(lua_State *L) {
  lua_settop(L, 2);
  lua_getiuservalue(L, 1, 2);
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

/* (type, key, fn) -> (): defines a method (function Type:name() ... end). */
int lun_type_define_method(lua_State *L) {
  lua_settop(L, 3);
  lua_getiuservalue(L, 1, 2);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_rawset(L, -3);
  return 0;
}

/* Pushes a shallow copy of the table at idx (a definition being extended). [-0, +1] */
void lun_copy_shallow(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}
