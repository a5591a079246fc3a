/*
 * lun_value.c — values as people and identities see them: a readable
 * description of any value (models, proxies and Swift objects by what they
 * are), and the keys rows and explicit ids are matched by.
 */
#include "core/core.h"
#include "model/model.h"
#include <math.h>

/* Appends the string on top of the stack to the string at acc. [-1, +0] */
static void lun_append(lua_State *L, int acc) {
  lua_pushvalue(L, acc);
  lua_insert(L, -2);
  lua_concat(L, 2);
  lua_replace(L, acc);
}

/* Pushes the string at idx as a Lua literal: in double quotes, with `"`,
 * `\` and control bytes escaped (\n, \r, \t, \ddd), so a description
 * stays one line that reads back as the same string — never a line break
 * or a terminal's escape sequence a script chose. Other bytes as they are.
 * [-0, +1] */
void lun_push_quoted(lua_State *L, int idx) {
  size_t len, i;
  const char *s = lua_tolstring(L, idx, &len);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '"');
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') { luaL_addchar(&b, '\\'); luaL_addchar(&b, (char)c); }
    else if (c == '\n') luaL_addstring(&b, "\\n");
    else if (c == '\r') luaL_addstring(&b, "\\r");
    else if (c == '\t') luaL_addstring(&b, "\\t");
    else if (c < 0x20 || c == 0x7f) {
      char digits[8];
      snprintf(digits, sizeof digits, "\\%03u", (unsigned)c);   /* three digits: a digit after it stays apart */
      luaL_addstring(&b, digits);
    } else luaL_addchar(&b, (char)c);
  }
  luaL_addchar(&b, '"');
  luaL_pushresult(&b);
}

/* Pushes the string key at idx as a table constructor writes it: `name`
 * when it is a name Lua reads as one, else `["…"]`. [-0, +1] */
void lun_push_key(lua_State *L, int idx) {
  static const char *const reserved[] = {"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
                                         "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
                                         "true", "until", "while", NULL};
  size_t len, i;
  const char *s = lua_tolstring(L, idx, &len);
  int name = len > 0 && !(s[0] >= '0' && s[0] <= '9');
  for (i = 0; name && i < len; i++)
    name = s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9');
  for (i = 0; name && reserved[i]; i++) name = strcmp(s, reserved[i]) != 0;
  if (name) { lua_pushvalue(L, idx); return; }
  idx = lua_absindex(L, idx);
  lua_pushliteral(L, "[");
  lun_push_quoted(L, idx);
  lua_pushliteral(L, "]");
  lua_concat(L, 3);
}

/* The most keys a description looks at: past them it shows no key outside
 * the list part, only "..." (a label never walks a huge table, and shows
 * the same text in every run). */
#define LUN_DESCRIBE_KEYS_SEEN 4096

/* Where a key sorts among a table's keys when shown: numbers, then strings,
 * then booleans, then anything else. */
static int lun_key_rank(lua_State *L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return 3;
  }
}

/* 1 if the key at a sorts before the key at b in the table at t: numbers
 * and strings by value (no metamethod runs for them), false before true;
 * keys of other types (tables, functions), which are shown alike, by their
 * type's name, then by their values when those are numbers or strings.
 * [-0, +0] */
static int lun_key_before(lua_State *L, int t, int a, int b) {
  int ra = lun_key_rank(L, a), rb = lun_key_rank(L, b), before, ta, tb;
  if (ra != rb) return ra < rb;
  if (ra <= 1) return lua_compare(L, a, b, LUA_OPLT);
  if (ra == 2) return !lua_toboolean(L, a) && lua_toboolean(L, b);
  before = strcmp(luaL_typename(L, a), luaL_typename(L, b));
  if (before) return before < 0;
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  lua_pushvalue(L, a);
  ta = lua_rawget(L, t);
  lua_pushvalue(L, b);
  tb = lua_rawget(L, t);
  before = ta == tb && (ta == LUA_TNUMBER || ta == LUA_TSTRING) && lua_compare(L, -2, -1, LUA_OPLT);
  lua_pop(L, 2);
  return before;
}

/* Pushes a list of the first `most` keys of the table at idx outside its
 * list part (1..len), in sorted order (so a description reads the same in
 * every run: Lua's order of a table's keys is not), and sets *more when it
 * has others. [-0, +1] */
static void lun_sorted_keys(lua_State *L, int idx, lua_Integer len, int most, int *more) {
  int keys, count = 0, seen = 0, i;
  *more = 0;
  lua_createtable(L, most + 1, 0);
  keys = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (++seen > LUN_DESCRIBE_KEYS_SEEN) {        /* too many to sort: none shown, the same text every run */
      lua_pop(L, 1);
      lua_settop(L, keys);
      for (i = 1; i <= most; i++) { lua_pushnil(L); lua_rawseti(L, keys, i); }
      *more = 1;
      break;
    }
    if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= len) continue;
    for (i = count; i > 0; i--) {                 /* insertion into the sorted few */
      lua_rawgeti(L, keys, i);
      if (!lun_key_before(L, idx, -2, -1)) { lua_pop(L, 1); break; }
      lua_rawseti(L, keys, i + 1);
    }
    if (i < most) {
      lua_pushvalue(L, -1);
      lua_rawseti(L, keys, i + 1);
      if (count < most) count++; else *more = 1;
    } else *more = 1;
    lua_pushnil(L);
    lua_rawseti(L, keys, most + 1);               /* one past the few: dropped */
  }
}

/* Pushes a short readable description of a table's contents: its list's
 * first entries, then its other keys in sorted order. [-0, +1] */
static void lun_describe_table(lua_State *L, int idx, int depth) {
  int n = 0, acc, keys, more, k;
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
  lun_sorted_keys(L, idx, len, 8 - n, &more);
  keys = lua_gettop(L);
  for (k = 1; lua_rawgeti(L, keys, k) != LUA_TNIL; k++) {
    if (n++) { lua_pushliteral(L, ", "); lun_append(L, acc); }
    if (lua_type(L, -1) == LUA_TSTRING) {
      lun_push_key(L, -1);
      lua_pushliteral(L, "=");
      lua_concat(L, 2);
    } else {
      lun_describe(L, -1, 0);
      lua_pushfstring(L, "[%s]=", lua_tostring(L, -1));
      lua_remove(L, -2);
    }
    lun_append(L, acc);
    lua_rawget(L, idx);                           /* the key's value */
    lun_describe(L, -1, depth - 1);
    lun_append(L, acc);
    lua_pop(L, 1);
  }
  lua_pop(L, 2);                                  /* the nil ending the list, the list */
  lua_pushstring(L, more || len > 8 ? (n ? ", ...}" : "...}") : "}");
  lun_append(L, acc);
}

/* Pushes a readable description of the value at idx: strings quoted,
 * tables shown to `depth` levels, objects by their tostring. [-0, +1] */
void lun_describe(lua_State *L, int idx, int depth) {
  idx = lua_absindex(L, idx);
  luaL_checkstack(L, 8, "describing a value");
  switch (lua_type(L, idx)) {
    case LUA_TSTRING:
      lun_push_quoted(L, idx);
      return;
    case LUA_TTABLE:
      if (!lua_getmetatable(L, idx)) {
        if (depth > 0) lun_describe_table(L, idx, depth);
        else lua_pushliteral(L, "{...}");
        return;
      }
      lua_pop(L, 1);
      if (luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL) {   /* no text of its own: not its address, */
        lua_pushliteral(L, "table");                              /* which differs from run to run */
        return;
      }
      lua_pop(L, 1);
      break;
    case LUA_TFUNCTION:
      lua_pushliteral(L, "function");             /* not its address: a description reads the same every run */
      return;
    case LUA_TUSERDATA:
      if (lun_object_test(L, idx)) { lun_object_push_id(L, idx); return; }
      if (lun_proxy_test(L, idx)) {
        lua_getiuservalue(L, idx, 1);
        lun_describe(L, -1, depth);
        lua_remove(L, -2);
        return;
      }
      break;
    case LUA_TNUMBER:                             /* as Lua literals: tostring says "-nan", "inf" */
      if (!lua_isinteger(L, idx)) {
        lua_Number n = lua_tonumber(L, idx);
        if (n != n) { lua_pushliteral(L, "0/0"); return; }
        if (n == HUGE_VAL) { lua_pushliteral(L, "math.huge"); return; }
        if (n == -HUGE_VAL) { lua_pushliteral(L, "-math.huge"); return; }
      }
      break;
    default:
      break;
  }
  luaL_tolstring(L, idx, NULL);
}

static void lun_identity_key_at(lua_State *L, int idx, int depth);

/* Pushes the identity key of a row element: its id field if it has one,
 * its object identity, or the value itself; nil for a view value with no
 * :id (a new table each render: its row is keyed by its place, as the
 * prelude's ForEach over a binding keys it). [-0, +1] */
void lun_identity_key(lua_State *L, int idx) {
  lun_identity_key_at(L, idx, 0);
}

/* The longest string id keyed by its whole text: a longer one is keyed by
 * its length and a 128-bit digest of its bytes (a row's key is copied and
 * hashed by Swift for every row of every run: 50 rows with 8 MB ids took
 * 10 s a flush). */
#define LUN_KEY_TEXT_MOST 256

/* 64 bits of FNV-1a over s, eight bytes a step, from `seed`, mixed as
 * splitmix64 finishes. */
static uint64_t lun_digest64(const unsigned char *s, size_t len, uint64_t seed) {
  uint64_t h = seed, w;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  for (; i < len; i++) h = (h ^ s[i]) * 0x100000001b3ULL;
  h ^= (uint64_t)len;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

/* Pushes the key of the string at idx: "s:" and its text, or for a long
 * one "h:<length>:<digest>" (the budget looked at after a long digest: it
 * runs in C). [-0, +1] */
static void lun_string_key(lua_State *L, int idx) {
  size_t len;
  const unsigned char *s = (const unsigned char *)lua_tolstring(L, idx, &len);
  char digest[40];
  if (len <= LUN_KEY_TEXT_MOST) {                 /* the whole string: an id may hold a NUL */
    lua_pushliteral(L, "s:");
    lua_pushvalue(L, idx);
    lua_concat(L, 2);
    return;
  }
  snprintf(digest, sizeof digest, "%016llx%016llx", (unsigned long long)lun_digest64(s, len, 0xcbf29ce484222325ULL),
           (unsigned long long)lun_digest64(s, len, 0x84222325cbf29ce4ULL));
  lua_pushfstring(L, "h:%I:%s", (LUAI_UACINT)len, digest);
  if (len > 65536) lun_budget_raise(L);
}

/* lun_identity_key, `depth` id fields in. [-0, +1] */
static void lun_identity_key_at(lua_State *L, int idx, int depth) {
  int32_t handle;
  idx = lua_absindex(L, idx);
  lun_nest(L, depth, "a row's id");
  switch (lua_type(L, idx)) {
    case LUA_TSTRING:
      lun_string_key(L, idx);
      return;
    case LUA_TNUMBER: {                           /* 1 and 1.0 are one key, as in a Lua table */
      lua_Integer n;
      if (!lua_isinteger(L, idx) && lua_tonumber(L, idx) == lua_tonumber(L, idx)) {
        lua_Number f = lua_tonumber(L, idx);
        if (f >= -9007199254740992.0 && f <= 9007199254740992.0 && f == (lua_Number)(n = (lua_Integer)f)) {
          lua_pushfstring(L, "v:%I", (LUAI_UACINT)n);
          return;
        }
      }
    }
      /* fall through */
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
        if (lun_is_view(L, idx)) {                /* a view value: its :id (v.id is the method) */
          if (lun_rawfield(L, idx, "identity") == LUA_TNIL) return;   /* none: nil, the row is keyed by its place */
        } else lua_getfield(L, idx, "id");
        if (!lua_isnil(L, -1)) {
          lun_identity_key_at(L, -1, depth + 1);
          lua_remove(L, -2);
          return;
        }
        lua_pop(L, 1);
      }
      if (lun_marker_kind(L, idx) == LUN_MARK_NONE) {   /* one value, the same key in every run */
        lua_pushliteral(L, "v:ui.none");
        return;
      }
      lua_pushfstring(L, "p:%p", lua_topointer(L, idx));
      return;
    default:
      lua_pushfstring(L, "%s", luaL_typename(L, idx));
      return;
  }
}

/* The most entries a plain table used as an explicit id may have (its key
 * is made of its sorted contents), and the most along all its paths (a
 * table shared inside it is keyed once per path: 22 levels of t = {t, t}
 * would make a key of 8 million entries). */
#define LUN_MAX_ID_ENTRIES 64
#define LUN_MAX_ID_VISITED 4096

static void lun_explicit_key_at(lua_State *L, int idx, int depth, int *visits);

/* Pushes the key of a plain table's contents: "t{k=v,...}" with its entries
 * in order of their keys' keys, so equal contents give equal keys. [-0, +1] */
static void lun_table_key(lua_State *L, int idx, int depth, int *visits) {
  int n = 0, i, j, list;
  lun_nest(L, depth, "an id");
  lua_createtable(L, 8, 0);                       /* the "k=v" strings */
  list = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (++n > LUN_MAX_ID_ENTRIES) luaL_error(L, "an id table holds at most %d entries", LUN_MAX_ID_ENTRIES);
    if (++*visits > LUN_MAX_ID_VISITED)
      lun_error_here(L, "an id holds more than %d entries along its paths (a table shared many times inside it?)",
                     LUN_MAX_ID_VISITED);
    lun_explicit_key_at(L, -2, depth + 1, visits);
    lua_pushliteral(L, "=");
    lun_explicit_key_at(L, -3, depth + 1, visits);
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
static void lun_explicit_key_at(lua_State *L, int idx, int depth, int *visits) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) == LUA_TTABLE && !lua_getmetatable(L, idx)) {
    lua_getfield(L, idx, "id");
    if (lua_isnil(L, -1)) { lua_pop(L, 1); lun_table_key(L, idx, depth, visits); return; }
    lua_pop(L, 1);
  }
  lun_identity_key_at(L, idx, depth);
}

/* Pushes the key of an explicit identity (`:id(v)`, `find{ id = v }`): as
 * lun_identity_key, but a plain table without an id field is a value, keyed
 * by its contents (D03: ids are compared by value). [-0, +1] */
void lun_explicit_key(lua_State *L, int idx) {
  int visits = 0;
  lun_explicit_key_at(L, idx, 0, &visits);
}
