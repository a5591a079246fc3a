/*
 * lun_util.c — what every file leans on: bounded nesting, errors that say
 * where, suggestions for a misspelt name, shallow copies.
 */
#include "core/core.h"
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>


/* Before one more level of a recursion over script-made values: raises
 * (naming what) past LUN_MAX_NESTING levels, and makes room on the Lua
 * stack for the level's work. */
LUN_HOT void lun_nest(lua_State *L, int depth, const char *what) {
  if (depth >= LUN_MAX_NESTING)
    luaL_error(L, "%s: nested more than %d levels deep (a cycle?)", what, LUN_MAX_NESTING);
  luaL_checkstack(L, 16, what);
}

/* The longest message lun_error_here raises: one naming a script's value
 * (a 10 MB string given as a colour) is cut, saying how long it was. */
#define LUN_MAX_MESSAGE 2048

/* Raises an error prefixed with the position of the running Lua code. */
int lun_error_here(lua_State *L, const char *fmt, ...) {
  va_list argp;
  size_t len;
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
  if ((len = lua_rawlen(L, -1)) > LUN_MAX_MESSAGE) {
    lua_pushlstring(L, lua_tostring(L, -1), LUN_MAX_MESSAGE - 64);
    lua_pushfstring(L, "… (a message of %d bytes, cut)", (int)(len > 2000000000 ? 2000000000 : len));
    lua_concat(L, 2);
  }
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

/* While tracing, tells the host where the running Lua code wrote to node
 * ("": no Lua code wrote it — the host did, or a REPL's :set — so no
 * earlier write's place is shown for it). */
void lun_trace_write(lua_State *L, int32_t node) {
  size_t len;
  const char *place;
  lun_where_lua(L);
  place = lua_tolstring(L, -1, &len);
  lunh(lun_state(L)->rt, trace, write, node, place, len);
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

/* 1 if the value at idx is a string naming one of list's (one holding a
 * NUL names none). [-0, +0] */
int lun_names_one_of(lua_State *L, int idx, const char *const *list) {
  size_t len;
  const char *s;
  int i;
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  s = lua_tolstring(L, idx, &len);
  if (strlen(s) != len) return 0;
  for (i = 0; list[i]; i++)
    if (strcmp(s, list[i]) == 0) return 1;
  return 0;
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

/* One string of an array being sorted: its bytes and where it was. */
typedef struct lun_SortItem { const char *s; size_t len; lua_Integer at; } lun_SortItem;

/* Byte order, a prefix first (not the locale's: the same on every machine). */
static int lun_sort_cmp(const void *a, const void *b) {
  const lun_SortItem *x = a, *y = b;
  int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
  return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

/*
 * Sorts the strings t[1..n] of the array at idx in place, in C: the runtime
 * never calls the script's `table.sort` (a script could replace it and so
 * rewrite what inspection shows). The strings stay anchored in t while a
 * copy in the new order is made. Raises on memory. [-0, +0, m]
 */
void lun_sort_strings(lua_State *L, int idx, lua_Integer n) {
  lun_SortItem *items;
  lua_Integer i;
  idx = lua_absindex(L, idx);
  if (n < 2) return;
  if ((size_t)n > SIZE_MAX / sizeof *items) luaL_error(L, "too many names to sort");
  items = lua_newuserdatauv(L, (size_t)n * sizeof *items, 0);
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    items[i - 1].s = lua_tolstring(L, -1, &items[i - 1].len);
    items[i - 1].at = i;
    lua_pop(L, 1);                                /* still held by t */
    if (items[i - 1].s == NULL) luaL_error(L, "internal: sorting a value that is not a string");
  }
  qsort(items, (size_t)n, sizeof *items, lun_sort_cmp);
  lua_createtable(L, (int)(n < INT_MAX ? n : INT_MAX), 0);
  for (i = 1; i <= n; i++) { lua_rawgeti(L, idx, items[i - 1].at); lua_rawseti(L, -2, i); }
  for (i = 1; i <= n; i++) { lua_rawgeti(L, -1, i); lua_rawseti(L, idx, i); }
  lua_pop(L, 2);
}

/* Raises, naming the caller's line, if `call` got a value that is not nil
 * past its `most` arguments: an argument it would not use (D10). For calls
 * no row function or gsub feeds (those keep Lua's usual extras). A method
 * (self 1) counts its arguments after self. [-0, +0] */
/* Raises, naming the caller's line and `prefix` `call`, if a value past
 * the `most` arguments after `self` ones is not nil nor one of Lua's usual
 * extras (lun_usual_extra, a row's index only for a view's constructor:
 * `rows`). [-0, +0] */
static void lun_extras(lua_State *L, const char *prefix, const char *call, int most, int self, int rows) {
  int i, got = lua_gettop(L);
  for (i = most + self + 1; i <= got; i++)
    if (!lua_isnil(L, i) && !(i == most + self + 1 && lun_usual_extra(L, i, rows)))
      lun_error_here(L, "%s%s takes %s%d argument%s, got a %s as argument %d", prefix, call, most ? "at most " : "", most,
                     most == 1 ? "" : "s", luaL_typename(L, i), i - self);
}

void lun_no_extra(lua_State *L, const char *call, int most, int self) {
  lun_extras(L, "", call, most, self, 0);
}

/* lun_no_extra for view constructor ui.`name`, which may be a row
 * function (ui.List(numbers, ui.Text)): a row's index passes. [-0, +0] */
void lun_no_extra_view(lua_State *L, const char *name, int most) {
  lun_extras(L, "ui.", name, most, 0, 1);
}

/* Pushes "file:12: ", the place of the Lua function at fidx, or "" for a
 * C function (coroutine.wrap's): where a message about what it made
 * points when the code that ran last was the runtime's. [-0, +1] */
void lun_push_place(lua_State *L, int fidx) {
  lua_Debug ar;
  lun_push_callee(L, fidx);
  lua_getinfo(L, ">S", &ar);
  if (ar.linedefined > 0) lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.linedefined);
  else lua_pushliteral(L, "");
}

/* 1 if the value at i, just past what a call takes, is one of Lua's usual
 * extras the call was handed by another's results: a number after a
 * string (gsub's count), or, for a view's constructor (`rows`), a number
 * second after a number (a row's index, when the constructor is a row
 * function: ui.List(numbers, ui.Text)). [-0, +0] */
int lun_usual_extra(lua_State *L, int i, int rows) {
  int before = i > 1 ? lua_type(L, i - 1) : LUA_TNONE;
  if (lua_type(L, i) != LUA_TNUMBER) return 0;
  return before == LUA_TSTRING || (rows && i == 2 && before == LUA_TNUMBER);
}

/* Checks that the name at argument arg (a string) has no control bytes (a
 * line break, an escape): a view's or a model's name is printed as it is,
 * in trees, traces and messages, so one holding them could forge lines or
 * drive a terminal. `what`: "a view's name". [-0, +0] */
void lun_check_name_text(lua_State *L, int arg, const char *what) {
  size_t len, i;
  const char *name = lua_tolstring(L, arg, &len);
  for (i = 0; name && i < len; i++)
    if ((unsigned char)name[i] < 0x20 || (unsigned char)name[i] == 0x7f)
      luaL_argerror(L, arg, lua_pushfstring(L, "%s is text without line breaks or control characters "
                                           "(byte %d at %d)", what, (int)(unsigned char)name[i], (int)i + 1));
}
