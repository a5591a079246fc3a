/*
 * lun_inspect.c — a view's state, read and written from outside its body:
 * the REPL's :state and :set (and any host that inspects).
 *
 * Writes go through the view's own `self`, so they take the normal path:
 * checked against its declarations, copied as values, notifying readers.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#include "drive/drive.h"

static const char lun_key_inspected = 0;

/* Protected part of lun_unit_state: (record ref) -> (). Keeps "name = value" lines. */
static int lun_unit_state_k(lua_State *L) {
  int lines, n = 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)lua_tointeger(L, 1));
  if (!lua_istable(L, -1)) return luaL_error(L, "the view is no longer rendered");
  lua_getfield(L, -1, "info");
  lua_getfield(L, -1, "state");                   /* 4: the declared names */
  lua_getfield(L, -3, "self");                    /* 5 */
  lua_newtable(L);                                /* 6: the lines */
  lines = lua_gettop(L);
  if (lua_istable(L, 4)) {
    lua_pushnil(L);
    while (lua_next(L, 4)) {
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING) continue;
      lua_pushvalue(L, -1);
      lua_gettable(L, 5);                         /* self[name] */
      lun_describe(L, -1, 2);
      lua_getfield(L, 2, "state");                /* the view's state, as its bindings reach it */
      if (lun_secret_prop(L, -1, -4)) {           /* a SecureField's text (lun_secret.c) */
        lua_pop(L, 2);
        lun_secret_describe(L, -1, "", "");
      } else lua_pop(L, 1);
      lun_push_key(L, -3);                        /* a name as Lua writes it: one line, read back by the page */
      lua_pushfstring(L, "%s = %s", lua_tostring(L, -1), lua_tostring(L, -2));
      lua_remove(L, -2);
      lua_rawseti(L, lines, ++n);
      lua_pop(L, 2);
    }
  }
  lua_settop(L, lines);
  lun_sort_strings(L, lines, n);                  /* sorted, one a line */
  lua_pushliteral(L, "");
  for (int i = 1; i <= n; i++) {
    if (i > 1) lua_pushliteral(L, "\n");
    lua_rawgeti(L, lines, i);
    lua_concat(L, i > 1 ? 3 : 2);
  }
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_inspected);
  return 0;
}

/* Protected part of lun_unit_inputs: (record ref) -> (). Keeps "name = value" lines. */
static int lun_unit_inputs_k(lua_State *L) {
  int n = 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)lua_tointeger(L, 1));
  if (!lua_istable(L, -1)) return luaL_error(L, "the view is no longer rendered");
  lua_getfield(L, -1, "inputs");                  /* 3 */
  lua_pushliteral(L, "");                         /* 4: the text */
  if (lua_istable(L, 3)) {
    lua_pushnil(L);
    while (lua_next(L, 3)) {
      if (lua_type(L, -2) == LUA_TSTRING) {
        lun_describe(L, -1, 2);                   /* a Binding hides a SecureField's text itself */
        lun_push_key(L, -3);
        lua_pushfstring(L, "%s%s = %s", n++ ? "\n" : "", lua_tostring(L, -1), lua_tostring(L, -2));
        lua_remove(L, -2);
        lua_remove(L, -2);
        lua_pushvalue(L, 4);
        lua_insert(L, -2);
        lua_concat(L, 2);
        lua_replace(L, 4);
      }
      lua_pop(L, 1);
    }
  }
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_inspected);
  return 0;
}

int lun_unit_inputs(lua_State *L, int recordRef, const char **text, size_t *len) {
  *text = "";
  *len = 0;
  if (!lua_checkstack(L, 8)) return LUN_ERROR;
  lua_pushcfunction(L, lun_unit_inputs_k);
  lua_pushinteger(L, recordRef);
  if (lun_protect(L, 1, 0) != LUN_OK) return LUN_ERROR;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_inspected);
  *text = lua_tolstring(L, -1, len);
  lua_pop(L, 1);
  return LUN_OK;
}

int lun_unit_state(lua_State *L, int recordRef, const char **text, size_t *len) {
  *text = "";
  *len = 0;
  if (!lua_checkstack(L, 8)) return LUN_ERROR;
  lua_pushcfunction(L, lun_unit_state_k);
  lua_pushinteger(L, recordRef);
  if (lun_protect(L, 1, 0) != LUN_OK) return LUN_ERROR;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_inspected);
  *text = lua_tolstring(L, -1, len);              /* kept alive in the registry */
  lua_pop(L, 1);
  return LUN_OK;
}

/* Protected part of lun_unit_set: (record ref, name, chunk) -> (). */
static int lun_unit_set_k(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)lua_tointeger(L, 1));
  if (!lua_istable(L, -1)) return luaL_error(L, "the view is no longer rendered");
  lua_getfield(L, -1, "self");
  lua_pushvalue(L, 3);
  lua_call(L, 0, 1);                              /* the value */
  lua_setfield(L, -2, lua_tostring(L, 2));        /* self[name] = value: the normal write path */
  return 0;
}

int lun_unit_set(lua_State *L, int recordRef, const char *name, const char *expression, size_t len) {
  if (!lua_checkstack(L, 8)) return LUN_ERROR;
  lua_pushcfunction(L, lun_unit_set_k);
  lua_pushinteger(L, recordRef);
  lua_pushstring(L, name);
  lua_pushliteral(L, "return ");
  lua_pushlstring(L, expression, len);
  lua_concat(L, 2);
  if (luaL_loadbufferx(L, lua_tostring(L, -1), lua_rawlen(L, -1), "=value", "t") != LUA_OK) {
    lua_remove(L, -2);
    lua_pop(L, 3);
    return LUN_SYNTAX;
  }
  lua_remove(L, -2);
  return lun_protect(L, 3, 0);
}

/* Protected part of lun_slot_binding: (record ref, slot, text?, secure,
 * focus slot) -> (). A Toggle's binding flips; a TextField's takes the
 * text — once it is known to fit, the field takes the focus first (its
 * focus slot, 0: none), as node:setText does. */
static int lun_slot_binding_k(lua_State *L) {
  int bidx, out;
  lua_Integer focus = lua_tointeger(L, 5);
  lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)lua_tointeger(L, 1));
  if (!lua_istable(L, -1)) return luaL_error(L, "the view is no longer rendered");
  lua_getfield(L, -1, "out");
  out = lua_gettop(L);
  lua_rawgeti(L, out, lua_tointeger(L, 2));
  bidx = lua_gettop(L);
  if (!lun_binding_test(L, bidx)) return luaL_error(L, "the node holds no binding");
  if (lua_isnil(L, 3)) { lun_binding_toggle(L, bidx, "toggle"); return 0; }
  lun_binding_typed(L, bidx, 3, lua_toboolean(L, 4), "setText");
  if (focus > 0 && lua_rawgeti(L, out, focus) == LUA_TFUNCTION) lun_node_act_call(L, 0);
  else if (focus > 0) lua_pop(L, 1);
  lun_binding_set(L, bidx, -1);
  return 0;
}

int lun_slot_binding(lua_State *L, int recordRef, int slot, const char *text, size_t len, int hasText, int focusSlot) {
  if (!lua_checkstack(L, 8)) return LUN_ERROR;
  lua_pushcfunction(L, lun_slot_binding_k);
  lua_pushinteger(L, recordRef);
  lua_pushinteger(L, slot);
  if (hasText) lua_pushlstring(L, text, len); else lua_pushnil(L);
  lua_pushboolean(L, hasText == 2);               /* a SecureField's: its text goes in as text */
  lua_pushinteger(L, focusSlot);
  return lun_protect(L, 5, 0);
}

/* Protected part of lun_list_scroll: (record ref, row) -> (). */
static int lun_list_scroll_k(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, (lua_Integer)lua_tointeger(L, 1));
  if (!lua_istable(L, -1)) return luaL_error(L, "the List is no longer rendered");
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, "first");                  /* lun_run_rows keeps it within the rows */
  return 0;
}

int lun_list_scroll(lua_State *L, int recordRef, int64_t row) {
  if (!lua_checkstack(L, 4)) return LUN_ERROR;
  lua_pushcfunction(L, lun_list_scroll_k);
  lua_pushinteger(L, recordRef);
  lua_pushinteger(L, (lua_Integer)(row < 1 ? 1 : row));
  return lun_protect(L, 2, 0);
}
