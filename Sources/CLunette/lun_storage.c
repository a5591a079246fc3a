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
 * store (lunh_storage_read) or from its default; a write marks it dirty
 * (lun_object_notify), and the dirty cells are handed to the store at the
 * end of each flush (lun_storage_sync). The store itself — where, how, and
 * what a failure means — is the host's.
 */
#include "lun_internal.h"

static const char lun_key_cells = 0, lun_key_dirty = 0, lun_key_cellclass = 0;

/* ui.AppStorage(key, default) -> marker: the value stored under `key`. */
static int lun_ui_app_storage(lua_State *L) {
  if (lua_type(L, 1) != LUA_TSTRING || lua_rawlen(L, 1) == 0)
    luaL_typeerror(L, 1, "a non-empty string (the key the value is stored under)");
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
  lun_class_define(L, "AppStorage", -1, LUN_CLASS_STORAGE);
  lua_remove(L, -2);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_cellclass);
}

/* Raises unless the value at vidx can be stored: nil, a boolean, a number,
 * a string, or a plain table of them with string or integer keys. */
static void lun_storage_check_at(lua_State *L, int vidx, const char *view, const char *name, int depth) {
  int t = lua_type(L, vidx);
  if (lun_proxy_test(L, vidx)) {                  /* a table the cell holds: its raw contents */
    lua_pushvalue(L, vidx);
    lun_proxy_unwrap(L, -1);
    lun_storage_check_at(L, lua_gettop(L), view, name, depth);
    lua_pop(L, 1);
    return;
  }
  if (t == LUA_TNIL || t == LUA_TBOOLEAN || t == LUA_TNUMBER || t == LUA_TSTRING) return;
  if (t != LUA_TTABLE || lua_getmetatable(L, vidx))
    lun_error_here(L, "%s: appStorage '%s' cannot hold a %s (booleans, numbers, strings and tables of them)",
                   view, name, luaL_typename(L, vidx));
  vidx = lua_absindex(L, vidx);
  lun_nest(L, depth, "a table kept in app storage");
  lua_pushnil(L);
  while (lua_next(L, vidx)) {
    if (lua_type(L, -2) != LUA_TSTRING && !lua_isinteger(L, -2))
      lun_error_here(L, "%s: appStorage '%s': a stored table may only have string or integer keys, got %s", view,
                     name, luaL_typename(L, -2));
    lun_storage_check_at(L, lua_gettop(L), view, name, depth + 1);
    lua_pop(L, 1);
  }
}

void lun_storage_check(lua_State *L, int vidx, const char *view, const char *name) {
  lun_storage_check_at(L, lua_absindex(L, vidx), view, name, 0);
}

/* Raises unless the value at vidx can be kept by the cell at cellidx. */
void lun_storage_check_cell(lua_State *L, int cellidx, int vidx) {
  vidx = lua_absindex(L, vidx);
  lua_getfield(L, cellidx, "key");
  lun_storage_check(L, vidx, "app storage", lua_tostring(L, -1));
  lua_pop(L, 1);
}

/* Raises for an appStorage section of the definition at defidx whose
 * defaults cannot be stored. [-0, +0] */
void lun_storage_check_section(lua_State *L, int defidx, const char *view) {
  if (lua_getfield(L, defidx, "appStorage") != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_type(L, -2) == LUA_TSTRING && !luaL_testudata(L, -1, LUN_MT_MARKER))
      lun_storage_check(L, -1, view, lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Pushes the cell of the key at keyidx, made from the store or else from
 * the default at defidx. [-0, +1] */
void lun_storage_cell(lua_State *L, int keyidx, int defidx) {
  lun_HostValue v;
  size_t len;
  const char *key;
  keyidx = lua_absindex(L, keyidx);
  defidx = lua_absindex(L, defidx);
  lun_registry_table(L, &lun_key_cells);
  lua_pushvalue(L, keyidx);
  if (lua_rawget(L, -2) != LUA_TNIL) { lua_remove(L, -2); return; }
  lua_pop(L, 1);
  lun_storage_class(L);
  lua_createtable(L, 0, 2);                       /* the initial fields */
  lua_pushvalue(L, keyidx);
  lua_setfield(L, -2, "key");
  key = lua_tolstring(L, keyidx, &len);
  if (lunh_storage_read(lun_state(L)->rt, key, len, &v)) lun_host_push_value(L, &v);   /* what the store kept */
  else lua_pushvalue(L, defidx);                  /* nothing kept, or the store failed (the host warned) */
  lua_setfield(L, -2, "value");
  lua_call(L, 1, 1);                              /* AppStorage{ key, value }: a C function, no script runs */
  lua_pushvalue(L, keyidx);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);
  lua_remove(L, -2);
}

/* The cell at idx changed: it is handed to the store at the end of the flush. [-0, +0] */
void lun_storage_dirty(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lun_registry_table(L, &lun_key_dirty);
  lua_pushvalue(L, idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* Protected: (cell) -> (); hands the cell's value to the store. */
static int lun_storage_write_k(lua_State *L) {
  lun_HostValue v;
  size_t len;
  const char *key;
  lua_getfield(L, 1, "key");
  key = lua_tolstring(L, -1, &len);
  lua_getfield(L, 1, "value");
  lun_storage_check(L, -1, "app storage", key);   /* a binding or a held table may have let a function in */
  lun_host_to_value(L, -1, &v);
  lunh_storage_write(lun_state(L)->rt, key, len, &v);
  return 0;
}

/* Hands the dirty cells to the store; a value it cannot keep is reported
 * and the others are still written. [-0, +0] */
void lun_storage_sync(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_dirty) != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_dirty);   /* writes during the sync wait for the next flush */
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    lua_pushcfunction(L, lun_storage_write_k);
    lua_pushvalue(L, -2);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
      size_t len;
      const char *msg = lua_tolstring(L, -1, &len);
      if (msg) lunh_event_failed(lun_state(L)->rt, 0, msg, len);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

/* Forgets every cell (ui.reset): the next read asks the store again. [-0, +0] */
void lun_storage_forget(lua_State *L) {
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_cells);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_dirty);
}

/* Pushes the cell behind appStorage name (at nidx) of a view type whose
 * section table is at secidx. [-0, +1] */
void lun_storage_section_cell(lua_State *L, int secidx, int nidx) {
  secidx = lua_absindex(L, secidx);
  nidx = lua_absindex(L, nidx);
  lua_pushvalue(L, nidx);
  lua_rawget(L, secidx);                          /* the declared default, or a ui.AppStorage marker */
  if (luaL_testudata(L, -1, LUN_MT_MARKER)) {
    lua_getiuservalue(L, -1, 2);
    lua_getfield(L, -1, "key");
    lua_getfield(L, -2, "default");
    lun_storage_cell(L, -2, -1);
    lua_replace(L, -5);
    lua_pop(L, 3);
    return;
  }
  lun_storage_cell(L, nidx, -1);                  /* `count = 0`: stored under its own name */
  lua_remove(L, -2);
}

void lun_open_storage(lua_State *L) {
  lua_pushcfunction(L, lun_ui_app_storage);
  lua_setfield(L, -2, "AppStorage");
}
