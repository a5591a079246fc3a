/*
 * lun_storage.c — app storage (T04): values kept by key in the host's store,
 * surviving the process, shared by every view that reads the key, as
 * SwiftUI's @AppStorage with UserDefaults.
 *
 *   ui.View("Counter", { appStorage = { count = 0, name = ui.AppStorage("user.name", "") }, ... })
 *
 * Each key is a cell: an instance of a hidden Observable class (properties
 * `key` and `value`), so reads are tracked and writes notify as any model's
 * do, from self, a binding or a table the cell holds. A cell starts from the
 * store (storage.read), or nil when the store holds nothing; a write
 * marks it dirty (lun_object_notify), and the dirty cells are handed to the
 * store at the end of each flush (lun_storage_sync); nil removes the key.
 * The store itself — where, how, and what a failure means — is the host's.
 *
 * While a cell holds nothing, each declaration reads its own default (D07,
 * AppStorage's init(wrappedValue:_:store:)). A table default is held by a
 * default cell of its own, per key and declaration, so a read gives a
 * tracked table; changing a field of it writes the key: the default cell's
 * table becomes the key's value (lun_storage_dirty), and the declaration's
 * next read starts again from its default as declared.
 *
 * The store keeps bytes, keys and values alike (R24): a Lua string is bytes,
 * so a key or a string comes back exactly as written (NUL, invalid UTF-8),
 * and a value is encoded here so it comes back with its types:
 *   value = 'F' | 'T'                        false, true
 *         | 'i' int64                        8 bytes, little-endian
 *         | 'd' double                       8 bytes, IEEE 754, little-endian (NaN, -0.0 kept)
 *         | 's' count bytes                  count: a varint (7 bits a byte, low first)
 *         | '{' count (key value)*           key: an 'i' or 's' value
 * after the two bytes "L1" (the format's version). Decoding checks every
 * length against what is left, and nests at most LUN_MAX_NESTING deep.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"

static const char lun_key_cells = 0, lun_key_dirty = 0, lun_key_cellclass = 0, lun_key_scene = 0;
static const char lun_key_defaults = 0, lun_key_owners = 0;
static const char lun_key_types = 0;        /* key -> the type its first declared default has ("number", …) */
static const char lun_key_unreadable = 0;   /* key -> true: what the store keeps could not be decoded; not written over */
static const char lun_key_mistyped = 0;     /* key -> true: said that it holds another type than its default's */

/* The cells' class tells storage of their writes through these (the model
 * calls what its class holds; it knows nothing of storage). */
static void lun_storage_check_cell(lua_State *L, int cellidx, int vidx);
static void lun_storage_dirty(lua_State *L, int idx);
static const lun_ClassHooks lun_storage_hooks = { lun_storage_check_cell, lun_storage_dirty };

/* Scene storage's keys begin so; app storage's may not (an app storage key
 * "scene:<path>:tab" read and wrote another scene's tab). */
#define LUN_SCENE_PREFIX "scene:"

/* Raises if the string at idx is no key app storage may use. */
static void lun_app_key_check(lua_State *L, int idx, const char *where) {
  if (strncmp(lua_tostring(L, idx), LUN_SCENE_PREFIX, sizeof LUN_SCENE_PREFIX - 1) == 0)
    lun_error_here(L, "%s: app storage key '%s' begins 'scene:', which is sceneStorage's: choose another key", where,
                   lua_tostring(L, idx));
}

/* ui.AppStorage(key, default) -> marker: the value stored under `key`. */
static int lun_ui_app_storage(lua_State *L) {
  if (lua_type(L, 1) != LUA_TSTRING || lua_rawlen(L, 1) == 0)
    luaL_typeerror(L, 1, "a non-empty string (the key the value is stored under)");
  lun_app_key_check(L, 1, "ui.AppStorage");
  if (lua_gettop(L) > 2 && !lua_isnil(L, 3))     /* AppStorage(_:store:): the host, or `--storage`, names the store */
    lun_error_here(L, "ui.AppStorage takes (key, default): the store is the host's (AppStorageStore) or "
                      "lunette run --storage PATH, got a %s as argument 3", luaL_typename(L, 3));
  lun_no_extra(L, "ui.AppStorage", 2, 0);
  lua_settop(L, 2);
  lun_storage_check(L, 2, "ui.AppStorage", lua_tostring(L, 1));
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "key");
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, "default");
  return lun_marker_new(L, LUN_MARK_STORAGE, -1);
}

/* Pushes the cells' class, made once: Observable "AppStorage" { key, value }. [-0, +1] */
static void lun_storage_class(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_cellclass) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_createtable(L, 0, 2);
  lua_pushliteral(L, "");
  lun_marker_new(L, LUN_MARK_IGNORED, -1);
  lua_setfield(L, -3, "key");
  lua_pop(L, 1);
  lua_pushnil(L);
  lun_marker_new(L, LUN_MARK_NONE, -1);
  lua_setfield(L, -3, "value");
  lua_pop(L, 1);
  lun_class_define(L, "AppStorage", -1, LUN_CLASS_OBSERVABLE, &lun_storage_hooks);
  lua_remove(L, -2);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_cellclass);
}

/* Raises unless the value at vidx can be stored: nil, a boolean, a number,
 * a string, or a plain table of them with string or integer keys. Each
 * table is checked once (the table at seen keeps those checked): a table
 * shared along many paths costs one visit, not one per path. */
static void lun_storage_check_at(lua_State *L, int vidx, const char *view, const char *name, int depth, int seen) {
  int t = lua_type(L, vidx);
  if (lun_proxy_test(L, vidx)) {                  /* a table the cell holds: its raw contents */
    lua_pushvalue(L, vidx);
    lun_proxy_unwrap(L, -1);
    lun_storage_check_at(L, lua_gettop(L), view, name, depth, seen);
    lua_pop(L, 1);
    return;
  }
  if (t == LUA_TNIL || t == LUA_TBOOLEAN || t == LUA_TNUMBER || t == LUA_TSTRING) return;
  if (t != LUA_TTABLE || lua_getmetatable(L, vidx))
    lun_error_here(L, "%s: appStorage '%s' cannot hold a %s (booleans, numbers, strings and tables of them)",
                   view, name, luaL_typename(L, vidx));
  vidx = lua_absindex(L, vidx);
  lun_nest(L, depth, "a table kept in app storage");
  lua_pushvalue(L, vidx);
  if (lua_rawget(L, seen) != LUA_TNIL) { lua_pop(L, 1); return; }
  lua_pop(L, 1);
  lua_pushvalue(L, vidx);
  lua_pushboolean(L, 1);
  lua_rawset(L, seen);
  lua_pushnil(L);
  while (lua_next(L, vidx)) {
    if (lua_type(L, -2) != LUA_TSTRING && !lua_isinteger(L, -2))
      lun_error_here(L, "%s: appStorage '%s': a stored table may only have string or integer keys, got %s", view,
                     name, luaL_typename(L, -2));
    lun_storage_check_at(L, lua_gettop(L), view, name, depth + 1, seen);
    lua_pop(L, 1);
  }
}

void lun_storage_check(lua_State *L, int vidx, const char *view, const char *name) {
  vidx = lua_absindex(L, vidx);
  if (lua_type(L, vidx) != LUA_TTABLE && !lun_proxy_test(L, vidx)) { lun_storage_check_at(L, vidx, view, name, 0, 0); return; }
  lua_newtable(L);
  lun_storage_check_at(L, vidx, view, name, 0, lua_gettop(L));
  lua_pop(L, 1);
}

/* The type of the value at vidx as app storage keeps it (a tracked table's is "table"). */
static const char *lun_storage_type(lua_State *L, int vidx) {
  return lun_proxy_test(L, vidx) ? "table" : luaL_typename(L, vidx);
}

/* Raises unless the value at vidx can be kept by the cell at cellidx: a
 * value of the type its key's declared default has, or nil (the key goes:
 * its default again) — as @AppStorage's value has its declaration's type. */
static void lun_storage_check_cell(lua_State *L, int cellidx, int vidx) {
  vidx = lua_absindex(L, vidx);
  lua_getfield(L, cellidx, "key");
  lun_storage_check(L, vidx, "app storage", lua_tostring(L, -1));
  if (!lua_isnil(L, vidx)) {
    lun_registry_table(L, &lun_key_types);
    lua_pushvalue(L, -2);
    if (lua_rawget(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -1), lun_storage_type(L, vidx)) != 0)
      lun_error_here(L, "app storage '%s' holds a %s (its declared default is one), got a %s",
                     lua_tostring(L, -3), lua_tostring(L, -1), lun_storage_type(L, vidx));
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
}

/* Notes the type of a key's declared default (key at kidx, default at
 * didx), which its writes keep to; raises if another declaration of the key
 * has a default of another type (its writes were refused with a message
 * about the other's default, and it read the other's values: UserDefaults
 * would give each its own default for a value of the other type). [-0, +0] */
static void lun_storage_note_type(lua_State *L, int kidx, int didx) {
  const char *type;
  if (lua_isnil(L, didx) || lun_is_none(L, didx)) return;
  kidx = lua_absindex(L, kidx);
  didx = lua_absindex(L, didx);
  type = lun_storage_type(L, didx);
  lun_registry_table(L, &lun_key_types);
  lua_pushvalue(L, kidx);
  if (lua_rawget(L, -2) == LUA_TNIL) {
    lua_pushvalue(L, kidx);
    lua_pushstring(L, type);
    lua_rawset(L, -4);
  } else if (strcmp(lua_tostring(L, -1), type) != 0) {
    lun_error_here(L, "storage key '%s' is declared with a %s default here and a %s one elsewhere: a key holds "
                   "one type (give the declarations one default, or use two keys)", lua_tostring(L, kidx), type,
                   lua_tostring(L, -1));
  }
  lua_pop(L, 2);
}

/* Raises for an appStorage or sceneStorage section (named `section`) of
 * the definition at defidx whose defaults cannot be stored. [-0, +0] */
void lun_storage_check_section(lua_State *L, int defidx, const char *section, const char *view) {
  if (lua_getfield(L, defidx, section) != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    int mark = lun_marker_kind(L, -1);
    if (lua_type(L, -2) == LUA_TSTRING && mark && mark != LUN_MARK_STORAGE)
      lun_error_here(L, "%s: %s '%s' takes a default value%s, not a ui.computed, ui.ignored, ui.optional, "
                     "ui.Published or ui.none marker (a name listed alone, { \"%s\" }, starts nil)", view, section,
                     lua_tostring(L, -2), strcmp(section, "appStorage") == 0 ? " or ui.AppStorage(key, default)" : "",
                     lua_tostring(L, -2));
    if (lua_type(L, -2) == LUA_TSTRING && !mark && strcmp(section, "appStorage") == 0)
      lun_app_key_check(L, -2, view);
    if (lua_type(L, -2) == LUA_TSTRING && lua_rawlen(L, -2) == 0)   /* as ui.AppStorage("") */
      lun_error_here(L, "%s: %s takes names that are not empty", view, section);
    if (lua_isinteger(L, -2) && lua_type(L, -1) == LUA_TSTRING) {   /* a name listed alone: not also given a default */
      lua_pushvalue(L, -1);
      if (lua_rawget(L, -4) != LUA_TNIL)
        lun_error_here(L, "%s: %s '%s' is listed alone and given a default: keep one", view, section, lua_tostring(L, -2));
      lua_pop(L, 1);
    }
    if (lua_type(L, -2) == LUA_TSTRING && !mark)
      lun_storage_check(L, -1, view, lua_tostring(L, -2));
    else if (lua_type(L, -2) == LUA_TSTRING && strcmp(section, "sceneStorage") == 0)
      lun_error_here(L, "%s: sceneStorage '%s' takes its default (its name is its key in the scene), not ui.AppStorage",
                     view, lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Bytes being encoded, in a full userdata at stack index `at` (so Lua's
 * allocator, and its cap, pays for them), grown by doubling; and the
 * values encoded so far (a table shared along many paths is encoded once
 * per path, in C, where the budget's hook never fires). */
typedef struct lun_Bytes {
  lua_State *L;
  int at;
  char *p;
  size_t len, cap;
  long visits;
} lun_Bytes;

/* Appends n bytes at s; raises "not enough memory" past the cap (a value
 * the store's writer cannot take waiting is refused there, named). */
static void lun_bytes_add(lun_Bytes *b, const void *s, size_t n) {
  if (n > b->cap - b->len) {
    size_t cap = b->cap;
    char *p;
    while (n > cap - b->len) {
      if (cap > ((size_t)-1) / 2) luaL_error(b->L, "a value too large for app storage");
      cap *= 2;
    }
    p = (char *)lua_newuserdatauv(b->L, cap, 0);
    memcpy(p, b->p, b->len);
    lua_replace(b->L, b->at);
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

static void lun_bytes_byte(lun_Bytes *b, int c) {
  char ch = (char)(unsigned char)c;
  lun_bytes_add(b, &ch, 1);
}

/* Appends the 8 bytes of u, low first. */
static void lun_bytes_u64(lun_Bytes *b, uint64_t u) {
  unsigned char bytes[8];
  int i;
  for (i = 0; i < 8; i++) bytes[i] = (unsigned char)(u >> (8 * i));
  lun_bytes_add(b, bytes, 8);
}

/* Appends n as a varint. */
static void lun_bytes_count(lun_Bytes *b, size_t n) {
  do {
    lun_bytes_byte(b, (int)((n & 0x7f) | (n > 0x7f ? 0x80 : 0)));
    n >>= 7;
  } while (n);
}

/* Appends the encoding of the value at vidx (its table entries in lua_next
 * order); raises for what cannot be kept. */
static void lun_encode_at(lua_State *L, lun_Bytes *b, int vidx, int depth) {
  size_t len;
  const char *str;
  lua_Number d;
  uint64_t u;
  vidx = lua_absindex(L, vidx);
  switch (lua_type(L, vidx)) {
    case LUA_TBOOLEAN: lun_bytes_byte(b, lua_toboolean(L, vidx) ? 'T' : 'F'); return;
    case LUA_TNUMBER:
      if (lua_isinteger(L, vidx)) { lun_bytes_byte(b, 'i'); lun_bytes_u64(b, (uint64_t)lua_tointeger(L, vidx)); return; }
      d = lua_tonumber(L, vidx);
      memcpy(&u, &d, sizeof u);
      lun_bytes_byte(b, 'd');
      lun_bytes_u64(b, u);
      return;
    case LUA_TSTRING:
      str = lua_tolstring(L, vidx, &len);
      lun_bytes_byte(b, 's');
      lun_bytes_count(b, len);
      lun_bytes_add(b, str, len);
      return;
    case LUA_TTABLE: case LUA_TUSERDATA: break;
    default: luaL_error(L, "app storage cannot keep a %s", luaL_typename(L, vidx));
  }
  lun_nest(L, depth, "a table kept in app storage");
  if (lun_proxy_test(L, vidx)) {                  /* a table the cell holds: its raw contents */
    lua_pushvalue(L, vidx);
    lun_proxy_unwrap(L, -1);
    lun_encode_at(L, b, -1, depth + 1);
    lua_pop(L, 1);
    return;
  }
  if (!lua_istable(L, vidx)) luaL_error(L, "app storage cannot keep a %s", luaL_typename(L, vidx));
  len = 0;
  lua_pushnil(L);
  while (lua_next(L, vidx)) { len++; lua_pop(L, 1); }
  lun_bytes_byte(b, '{');
  lun_bytes_count(b, len);
  lua_pushnil(L);
  while (lua_next(L, vidx)) {
    if (++b->visits > LUN_MAX_VISITED)
      lun_error_here(L, "a value kept in app storage has more than %d entries along its paths "
                     "(a table shared many times inside it?)", LUN_MAX_VISITED);
    lun_budget_every(L, (unsigned long)b->visits);
    if (lua_type(L, -2) != LUA_TSTRING && !lua_isinteger(L, -2))
      luaL_error(L, "a stored table may only have string or integer keys, got %s", luaL_typename(L, -2));
    lun_encode_at(L, b, -2, depth + 1);
    lun_encode_at(L, b, -1, depth + 1);
    lua_pop(L, 1);
  }
}

/* Pushes the encoding of the value at vidx, as a string. [-0, +1] */
static void lun_storage_encode(lua_State *L, int vidx) {
  lun_Bytes b;
  vidx = lua_absindex(L, vidx);
  b.L = L;
  b.cap = 64;
  b.len = 0;
  b.visits = 0;
  b.p = (char *)lua_newuserdatauv(L, b.cap, 0);
  b.at = lua_gettop(L);
  lun_bytes_add(&b, "L1", 2);
  lun_encode_at(L, &b, vidx, 0);
  lua_pushlstring(L, b.p, b.len);
  lua_replace(L, b.at);
}

/* Reading an encoding: where it is, and how much is left. */
typedef struct lun_Reader {
  const unsigned char *p;
  size_t left;
} lun_Reader;

/* Raises: the bytes are not an encoding this file wrote. */
static int lun_decode_bad(lua_State *L, const char *why) {
  return luaL_error(L, "the bytes kept are not a value Lunette wrote (%s)", why);
}

static uint64_t lun_read_u64(lua_State *L, lun_Reader *r) {
  uint64_t u = 0;
  int i;
  if (r->left < 8) lun_decode_bad(L, "cut short");
  for (i = 0; i < 8; i++) u |= (uint64_t)r->p[i] << (8 * i);
  r->p += 8;
  r->left -= 8;
  return u;
}

static size_t lun_read_count(lua_State *L, lun_Reader *r) {
  size_t n = 0;
  int shift = 0;
  for (;;) {
    unsigned char c;
    if (!r->left || shift > 56) lun_decode_bad(L, "a bad length");
    c = *r->p++;
    r->left--;
    n |= (size_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) return n;
    shift += 7;
  }
}

/* Pushes the value the reader is at. [-0, +1] */
static void lun_decode_at(lua_State *L, lun_Reader *r, int depth) {
  unsigned char tag;
  size_t n, i;
  uint64_t u;
  lua_Number d;
  if (!r->left) lun_decode_bad(L, "cut short");
  tag = *r->p++;
  r->left--;
  switch (tag) {
    case 'F': case 'T': lua_pushboolean(L, tag == 'T'); return;
    case 'i': lua_pushinteger(L, (lua_Integer)lun_read_u64(L, r)); return;
    case 'd':
      u = lun_read_u64(L, r);
      memcpy(&d, &u, sizeof d);
      lua_pushnumber(L, d);
      return;
    case 's':
      n = lun_read_count(L, r);
      if (n > r->left) lun_decode_bad(L, "cut short");
      lua_pushlstring(L, (const char *)r->p, n);
      r->p += n;
      r->left -= n;
      return;
    case '{':
      lun_nest(L, depth, "a table kept in app storage");
      n = lun_read_count(L, r);
      if (n > r->left / 2) lun_decode_bad(L, "a bad length");   /* each entry takes 2 bytes at least */
      lua_createtable(L, 0, 0);
      for (i = 0; i < n; i++) {
        if (!r->left || (*r->p != 'i' && *r->p != 's')) lun_decode_bad(L, "a bad key");
        lun_decode_at(L, r, depth + 1);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, -3) != LUA_TNIL) lun_decode_bad(L, "a key twice");   /* no encoding has one */
        lua_pop(L, 1);
        lun_decode_at(L, r, depth + 1);
        lua_rawset(L, -3);
      }
      return;
    default: lun_decode_bad(L, "an unknown tag");
  }
}

/* Protected: (bytes' address, their length) -> value. The bytes become a
 * string here, so a value larger than the memory left is a read that
 * failed, naming its key, not an error of the view. */
static int lun_storage_decode_k(lua_State *L) {
  size_t len;
  lun_Reader r;
  lua_pushlstring(L, (const char *)lua_touserdata(L, 1), (size_t)lua_tointeger(L, 2));
  lua_replace(L, 1);
  r.p = (const unsigned char *)lua_tolstring(L, 1, &len);
  r.left = len;
  if (len < 2 || memcmp(r.p, "L1", 2) != 0) lun_decode_bad(L, "no version mark");
  r.p += 2;
  r.left -= 2;
  lun_decode_at(L, &r, 0);
  if (r.left) lun_decode_bad(L, "bytes after the value");
  return 1;
}

/* Pushes what the store keeps for key, decoded, or nil when nothing is
 * kept, the store failed (the host reported it), or the bytes kept are not
 * an encoding or do not fit in memory (reported here; the key is then not
 * written over for the run, as when the store failed: a newer version's
 * value was replaced by the next write). [-0, +1] */
static void lun_storage_read(lua_State *L, const char *key, size_t klen) {
  const char *bytes;
  size_t len;
  lun_State *S = lun_state(L);
  if (lunh(S->rt, storage, read, key, klen, &bytes, &len) <= 0) { lua_pushnil(L); return; }
  lua_pushcfunction(L, lun_storage_decode_k);
  lua_pushlightuserdata(L, (void *)bytes);
  lua_pushinteger(L, (lua_Integer)len);
  if (lua_pcall(L, 2, 1, 0) == LUA_OK) return;
  lua_pushlstring(L, key, klen);                  /* the whole key, as a literal: it may hold a NUL */
  lun_registry_table(L, &lun_key_unreadable);
  lua_pushvalue(L, -2);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lun_push_quoted(L, -1);
  lua_pushfstring(L, "app storage: cannot read %s; it starts from its default, and its changes last until the "
                  "script ends (what was kept is not written over): %s", lua_tostring(L, -1), lua_tostring(L, -3));
  lunh(S->rt, inspect, event_failed, 0, lua_tostring(L, -1), lua_rawlen(L, -1));
  lua_pop(L, 4);
  lua_pushnil(L);
}

/* Pushes a new cell of the storage class for the key at keyidx holding the
 * value at vidx (a table is copied: a value, F04). [-0, +1] */
static void lun_storage_new_cell(lua_State *L, int keyidx, int vidx) {
  keyidx = lua_absindex(L, keyidx);
  vidx = lua_absindex(L, vidx);
  lun_storage_class(L);
  lua_createtable(L, 0, 2);                       /* the initial fields */
  lua_pushvalue(L, keyidx);
  lua_setfield(L, -2, "key");
  lua_pushvalue(L, vidx);
  lua_setfield(L, -2, "value");
  lua_call(L, 1, 1);                              /* AppStorage{ key, value }: a C function, no script runs */
}

/* Pushes the cell of the key at keyidx, made from the store (nil if it
 * holds nothing). [-0, +1] */
void lun_storage_cell(lua_State *L, int keyidx) {
  size_t len;
  const char *key;
  keyidx = lua_absindex(L, keyidx);
  lun_registry_table(L, &lun_key_cells);
  lua_pushvalue(L, keyidx);
  if (lua_rawget(L, -2) != LUA_TNIL) { lua_remove(L, -2); return; }
  lua_pop(L, 1);
  key = lua_tolstring(L, keyidx, &len);
  lun_storage_read(L, key, len);
  lun_storage_new_cell(L, keyidx, -1);
  lua_remove(L, -2);
  lua_pushvalue(L, keyidx);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);
  lua_remove(L, -2);
}

/* Pushes the table of default cells' owners (default cell -> key cell),
 * weak in its keys: a default cell nobody reads any more goes. [-0, +1] */
static void lun_storage_owners(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_owners) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lun_new_weak_table(L, "k");
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_owners);
}

/* Pushes the default cell of the key cell at cellidx for the declared table
 * default at defidx, made on first use; its owner is the key cell. [-0, +1] */
static void lun_storage_default_cell(lua_State *L, int cellidx, int defidx) {
  cellidx = lua_absindex(L, cellidx);
  defidx = lua_absindex(L, defidx);
  lun_registry_table(L, &lun_key_defaults);       /* key cell -> { declared default -> default cell } */
  lua_pushvalue(L, cellidx);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, cellidx);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_remove(L, -2);
  lua_pushvalue(L, defidx);
  if (lua_rawget(L, -2) == LUA_TUSERDATA) { lua_remove(L, -2); return; }
  lua_pop(L, 1);
  lua_getfield(L, cellidx, "key");
  lun_storage_new_cell(L, -1, defidx);
  lua_remove(L, -2);
  lua_pushvalue(L, defidx);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);                              /* defaults[cell][default] = default cell */
  lun_storage_owners(L);
  lua_pushvalue(L, -2);
  lua_pushvalue(L, cellidx);
  lua_rawset(L, -3);                              /* owners[default cell] = key cell */
  lua_pop(L, 1);
  lua_remove(L, -2);
}

/* Pushes the `value` of the cell at cellidx, tracked. [-0, +1] */
static void lun_storage_value(lua_State *L, int cellidx) {
  cellidx = lua_absindex(L, cellidx);
  lua_pushliteral(L, "value");
  lun_object_read(L, cellidx, lun_object_prop(L, cellidx, -1));
  lua_remove(L, -2);
}

/* The default cell at idx is being changed: the key is written. Its table
 * becomes the key cell's value (the change lands in it), the key cell's
 * readers are told, and the declaration's next read starts from its
 * default again. [-0, +0] */
static void lun_storage_adopt(lua_State *L, int idx, int ownidx) {
  int prop;
  lua_pushliteral(L, "value");
  prop = lun_object_prop(L, ownidx, -1);
  lua_pop(L, 1);
  lua_getiuservalue(L, idx, prop);                /* the default cell's table */
  lun_object_notify(L, ownidx, lun_object_test(L, ownidx), prop);
  lua_setiuservalue(L, ownidx, prop);
  lun_registry_table(L, &lun_key_defaults);
  lua_pushvalue(L, ownidx);
  if (lua_rawget(L, -2) == LUA_TTABLE) {          /* forget it: defaults[cell][d] = nil for the d it was made for */
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_rawequal(L, -1, idx)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, -4);
        lua_pop(L, 1);
        break;
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 2);
}

/* The cell at idx changed: it is handed to the store at the end of the
 * flush; a default cell hands its table to its key's cell. [-0, +0] */
static void lun_storage_dirty(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lun_storage_owners(L);
  lua_pushvalue(L, idx);
  if (lua_rawget(L, -2) == LUA_TUSERDATA) {
    lun_storage_adopt(L, idx, lua_gettop(L));
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 2);
  lun_registry_table(L, &lun_key_dirty);
  lun_state(L)->flushWork |= LUN_WORK_STORAGE;
  lua_pushvalue(L, idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* Protected: (cell) -> (); hands the cell's value to the store. */
static int lun_storage_write_k(lua_State *L) {
  size_t len, vlen;
  const char *key, *bytes;
  lua_getfield(L, 1, "key");
  key = lua_tolstring(L, -1, &len);
  lun_registry_table(L, &lun_key_unreadable);
  lua_pushvalue(L, -2);
  if (lua_rawget(L, -2) != LUA_TNIL) return 0;    /* its read failed (said then): what was kept stays */
  lua_pop(L, 2);
  if (lua_getfield(L, 1, "value") == LUA_TNIL) {  /* nil removes the key */
    lunh(lun_state(L)->rt, storage, write, key, len, NULL, 0);
    return 0;
  }
  lun_storage_check(L, -1, "app storage", key);   /* a binding or a held table may have let a function in */
  lun_storage_encode(L, -1);
  bytes = lua_tolstring(L, -1, &vlen);
  lunh(lun_state(L)->rt, storage, write, key, len, bytes, vlen);
  return 0;
}

/* Hands the dirty cells to the store; a value it cannot keep is reported
 * and the others are still written. [-0, +0] */
LUN_HOT void lun_storage_sync(lua_State *L, lun_State *S) {
  if (!(S->flushWork & LUN_WORK_STORAGE)) return;
  S->flushWork &= ~(uint32_t)LUN_WORK_STORAGE;    /* writes during the sync set it again */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_dirty) != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_dirty);   /* writes during the sync wait for the next flush */
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    lua_pushcfunction(L, lun_storage_write_k);
    lua_pushvalue(L, -2);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {      /* any error value (a hook's may be no string): said */
      size_t len;
      const char *msg;
      lun_error_string(L, -1);
      msg = lua_tolstring(L, -1, &len);
      lunh(lun_state(L)->rt, inspect, event_failed, 0, msg, len);
      lua_pop(L, 2);
    }
  }
  lua_pop(L, 1);
}

/* Forgets the types declarations gave keys (a reload: its text declares them again). [-0, +0] */
void lun_storage_forget_types(lua_State *L) {
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_types);
}

/* Forgets every cell (ui.reset): the next read asks the store again. [-0, +0] */
void lun_storage_forget(lua_State *L) {
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_cells);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_defaults);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_owners);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_dirty);
  lun_storage_forget_types(L);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_unreadable);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_mistyped);
}

/* Pushes the key a sceneStorage name (at nidx) is kept under: the scene's
 * name (lun_scene_set; "main" if the host named none), then the name —
 * "scene:<scene>:<name>", so each scene keeps its own (SceneStorage). [-0, +1] */
/* Adds the string at idx to b, every byte kept and none read as the key's
 * own: \ as \\, : as \:, NUL as \0 (a name's "x\0y" and "x\0z" were one
 * key; a ':' in a scene or a name was ambiguous). Text without them is as
 * it was. */
static void lun_scene_key_part(luaL_Buffer *b, lua_State *L, int idx) {
  size_t len, i;
  const char *s = lua_tolstring(L, idx, &len);
  for (i = 0; i < len; i++) {
    if (s[i] == '\\' || s[i] == ':' || s[i] == '\0') luaL_addchar(b, '\\');
    luaL_addchar(b, s[i] == '\0' ? '0' : s[i]);
  }
}

static void lun_scene_key(lua_State *L, int nidx) {
  luaL_Buffer b;
  nidx = lua_absindex(L, nidx);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_scene) != LUA_TSTRING) {
    lua_pop(L, 1);
    lua_pushliteral(L, "main");
  }
  luaL_buffinit(L, &b);
  luaL_addstring(&b, LUN_SCENE_PREFIX);
  lun_scene_key_part(&b, L, -2);
  luaL_addchar(&b, ':');
  lun_scene_key_part(&b, L, nidx);
  luaL_pushresult(&b);
  lua_remove(L, -2);
}

/* Pushes the key and the declared default (nil if none) of the appStorage
 * (or, with scene, sceneStorage) name at nidx of a view type whose section
 * table is at secidx. [-0, +2] */
static void lun_storage_declared(lua_State *L, int secidx, int nidx, int scene) {
  secidx = lua_absindex(L, secidx);
  nidx = lua_absindex(L, nidx);
  lua_pushvalue(L, nidx);
  lua_rawget(L, secidx);                          /* the declared default, or a ui.AppStorage marker */
  if (lun_marker_kind(L, -1) == LUN_MARK_STORAGE) {   /* ui.AppStorage(key, d), or a DynamicProperty's name */
    lua_getiuservalue(L, -1, 2);
    lua_getfield(L, -1, "key");
    if (scene) {
      lun_scene_key(L, lua_gettop(L));
      lua_remove(L, -2);
    }
    lua_getfield(L, -2, "default");              /* marker, fields, key, default */
    lua_replace(L, -4);
    lua_insert(L, -3);
    lua_pop(L, 1);
    lun_storage_note_type(L, -2, -1);
    return;
  }
  if (scene) lun_scene_key(L, nidx); else lua_pushvalue(L, nidx);   /* `count = 0`: stored under its own name */
  lua_insert(L, -2);
  lun_storage_note_type(L, -2, -1);
}

/* Pushes the cell behind the appStorage (or, with scene, sceneStorage) name
 * at nidx of a view type whose section table is at secidx. [-0, +1] */
void lun_storage_section_cell(lua_State *L, int secidx, int nidx, int scene) {
  lun_storage_declared(L, secidx, nidx, scene);
  lua_pop(L, 1);
  lun_storage_cell(L, -1);
  lua_remove(L, -2);
}

/* 1 if the value at vidx, kept under the key at kidx, has another type
 * than the declared default at didx: AppStorage gives the default then (its
 * wrappedValue is "the default value if a value is not specified for the
 * given key", read as the declaration's type), and a write replaces it.
 * Warned once a key, in the view reading it (unit), at the line that read
 * it, naming the key and both types (another script's value under the same
 * key made the view fail with "attempt to add a string"). [-0, +0] */
static int lun_storage_mistyped(lua_State *L, int32_t unit, int kidx, int didx, int vidx) {
  const char *want, *got;
  if (lun_is_none(L, didx)) return 0;
  kidx = lua_absindex(L, kidx);
  want = lun_storage_type(L, didx);
  got = lun_storage_type(L, vidx);
  if (strcmp(want, got) == 0) return 0;
  lun_registry_table(L, &lun_key_mistyped);
  lua_pushvalue(L, kidx);
  if (lua_rawget(L, -2) == LUA_TNIL) {
    lua_pushvalue(L, kidx);
    lua_pushboolean(L, 1);
    lua_rawset(L, -4);
    lua_pushvalue(L, kidx);
    lun_push_quoted(L, -1);
    luaL_where(L, 1);
    lua_pushfstring(L, "%sapp storage: %s holds a %s, and its declaration's default is a %s: it reads as its "
                    "default until a write replaces it", lua_tostring(L, -1), lua_tostring(L, -2), got, want);
    lunh(lun_state(L)->rt, inspect, warned, unit, lua_tostring(L, -1), lua_rawlen(L, -1));
    lua_pop(L, 4);
  }
  lua_pop(L, 2);
  return 1;
}

/* Pushes the value of the appStorage (or sceneStorage) name at nidx as its
 * declaration reads it, tracked: what the key holds, else the declared
 * default (a table through its default cell). [-0, +1] */
void lun_storage_section_read(lua_State *L, int32_t unit, int secidx, int nidx, int scene) {
  lun_storage_declared(L, secidx, nidx, scene);
  lun_storage_cell(L, -2);
  lun_storage_value(L, -1);
  if (!lua_isnil(L, -1) && !lua_isnil(L, -3) && lun_storage_mistyped(L, unit, -4, -3, -1)) {
    lua_pop(L, 1);                                /* another type than the default's: as if none is kept */
    lua_pushnil(L);
  }
  if (!lua_isnil(L, -1) || lua_isnil(L, -3)) { lua_replace(L, -4); lua_pop(L, 2); return; }
  lua_pop(L, 1);
  if (lua_type(L, -2) == LUA_TTABLE) {
    lun_storage_default_cell(L, -1, -2);
    lun_storage_value(L, -1);
    lua_replace(L, -5);
    lua_pop(L, 3);
    return;
  }
  lua_pop(L, 1);
  lua_replace(L, -2);
}

/* Protected part of lun_scene_set: (name) -> (). */
static int lun_scene_set_k(lua_State *L) {
  luaL_checkstring(L, 1);
  lua_pushvalue(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_scene);
  return 0;
}

int lun_scene_set(lua_State *L, const char *name, size_t len) {
  if (!lua_checkstack(L, 4)) return LUN_ERROR;
  lua_pushcfunction(L, lun_scene_set_k);
  lua_pushlstring(L, name, len);
  return lua_pcall(L, 1, 0, 0) == LUA_OK ? LUN_OK : (lua_pop(L, 1), LUN_ERROR);
}

/* os.exit as the script sees it (upvalue: Lua's): (code, close) -> never.
 * A script that ends the process ends it with what it wrote kept: the
 * changes of the running flush go to the store first (they go at its end,
 * which an exit never reaches), and the host waits until the store has
 * them. */
static int lun_storage_exit(lua_State *L) {
  if (!lua_isnoneornil(L, 1) && !lua_isboolean(L, 1)) luaL_checkinteger(L, 1);   /* as Lua's: named at the caller */
  lun_storage_sync(L, lun_state(L));
  lunh(lun_state(L)->rt, storage, keep);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 0);
  return 0;
}

void lun_open_storage(lua_State *L) {
  lua_pushcfunction(L, lun_ui_app_storage);
  lua_setfield(L, -2, "AppStorage");
  if (lua_getglobal(L, LUA_OSLIBNAME) != LUA_TTABLE) { lua_pop(L, 1); return; }
  if (lua_getfield(L, -1, "exit") == LUA_TFUNCTION && lua_tocfunction(L, -1) != lun_storage_exit) {   /* the sandbox has none */
    lua_pushcclosure(L, lun_storage_exit, 1);
    lua_setfield(L, -2, "exit");
  } else lua_pop(L, 1);
  lua_pop(L, 1);
}
