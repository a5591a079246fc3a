/*
 * lun_submit.c — :onSubmit over a view hierarchy: "A TextField, or
 * SecureField will trigger this action when the user hits the hardware or
 * software return key ... You may set this action on an individual view or
 * an entire view hierarchy"
 * (https://developer.apple.com/documentation/swiftui/view/onsubmit(of:_:)).
 *
 * A node with :onSubmit(fn) has a cell { fn, the cell around it in the same
 * body (or false), its unit } and puts it in the environment of the views
 * inside ("lunette.onSubmit": in its body, and for other bodies as an
 * environment value). A TextField or SecureField submits through its own
 * cell, or the nearest around it in its body, then the cells above its
 * unit, found when it submits (node:submit(), the preview's return key):
 * every action, innermost first. Nothing is read while rendering, so a
 * field's view does not run again when an :onSubmit around it comes, goes
 * or changes, and a submission always finds the actions there are then. A
 * node with :onSubmit that is no field submits through its own chain. A
 * searchable's field does not: its trigger is .search, not .text, the
 * default (SubmitTriggers). One :onSubmit a view value (lun_modifier.c).
 *
 * The cell of a position is the same table render after render (kept in
 * the run's out, lun_walk_kept), its action updated in place: the
 * environment value the views inside see does not change with it.
 */
#include "core/core.h"
#include "life/life.h"
#include "view/view.h"

#define LUN_SUBMIT_KEY "lunette.onSubmit"

/* Pushes the cell above unit (its nearest ancestors' environment), or nil;
 * a look, not a dependency. [-0, +1] */
static void lun_submit_above(lua_State *L, int32_t unit) {
  lun_State *S = lun_state(L);
  int top = lua_gettop(L);
  int32_t saved = S->active;
  lua_pushliteral(L, LUN_SUBMIT_KEY);
  S->active = 0;
  lun_env_read(L, unit, top + 1, LUN_ENV_OPTIONAL, top + 1);   /* may leave what it read through */
  S->active = saved;
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_pushnil(L);
  }
}

/* A submission: () -> (); runs the actions from the cell (upvalue 1, nil
 * if none in the node's body) outward: each body's cells, then the ones
 * above its unit (upvalue 2 to start), innermost first. The whole chain is
 * found before any action runs: an action that unmounts views (and
 * flushes) cannot cut it short, nor send a lookup to a unit gone. */
static int lun_submit_run(lua_State *L) {
  int depth = 0, i;
  int32_t unit = (int32_t)lua_tointeger(L, lua_upvalueindex(2));
  lua_settop(L, 0);
  lua_newtable(L);                                /* 1: the actions, innermost first */
  lua_pushvalue(L, lua_upvalueindex(1));
  for (;;) {
    if (!lua_istable(L, -1)) {                    /* past a body's cells: the ones above its unit */
      lua_pop(L, 1);
      if (!unit) break;                           /* a root: nothing above */
      lun_submit_above(L, unit);
      if (!lua_istable(L, -1)) { lua_pop(L, 1); break; }
    }
    if (depth >= LUN_MAX_TREE_DEPTH) luaL_error(L, "submit: more than %d :onSubmit actions around the field", LUN_MAX_TREE_DEPTH);
    lua_rawgeti(L, -1, 3);
    unit = (int32_t)lua_tointeger(L, -1);         /* where the next lookup starts */
    lua_pop(L, 1);
    lua_rawgeti(L, -1, 1);
    lua_rawseti(L, 1, ++depth);
    lua_rawgeti(L, -1, 2);
    lua_remove(L, -2);
  }
  if (depth == 0) lun_error_here(L, "submit: the field has no :onSubmit on it or around it");
  for (i = 1; i <= depth; i++) {
    lua_rawgeti(L, 1, i);
    lua_call(L, 0, 0);
  }
  return 0;
}

/* Pushes the cell set around the open node in this body, or nil. [-0, +1] */
static void lun_submit_here(lua_State *L, lun_Walk *W) {
  int top = lua_gettop(L);
  if (lua_getfield(L, W->out, "envnow") == LUA_TTABLE && lua_getfield(L, -1, LUN_SUBMIT_KEY) == LUA_TTABLE)
    lua_rawgeti(L, -1, 1);
  else lua_pushnil(L);
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

/* Registers the open node's submission: a closure over the cell on top (or
 * nil) and the walk's unit. [-0, +0] */
static void lun_submit_slot(lua_State *L, lun_Walk *W) {
  lua_pushvalue(L, -1);
  lua_pushinteger(L, W->unit);
  lua_pushcclosure(L, lun_submit_run, 2);
  lun_enabled_slot(L, W, LUN_ROLE_SUBMIT, lun_walk_store(L, W, -1));
  lua_pop(L, 1);
}

/* The open node's :onSubmit(fn), fn at fidx: its submission runs fn and
 * the actions around it; the views inside submit through it. [-0, +0] */
void lun_submit_walk(lua_State *L, lun_Walk *W, int fidx) {
  int32_t slot;
  int top = lua_gettop(L);
  size_t plen;
  const char *path;
  fidx = lua_absindex(L, fidx);
  path = lun_out_path(L, &plen);
  lua_pushlstring(L, path, plen);                 /* top + 1 */
  lun_walk_kept(L, W, "submitCells", top + 1);    /* the last render's cell here, or nil */
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_createtable(L, 3, 0);
  }
  lua_pushvalue(L, -1);
  lun_walk_keep(L, W, "submitCells", top + 1);
  lua_remove(L, top + 1);                         /* top + 1: the cell */
  lua_pushvalue(L, fidx);
  lua_rawseti(L, -2, 1);
  lun_submit_here(L, W);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 0);
  }
  lua_rawseti(L, -2, 2);
  lua_pushinteger(L, W->unit);
  lua_rawseti(L, -2, 3);
  lun_submit_slot(L, W);
  slot = lun_walk_store(L, W, -1);                /* for the views inside, in this body and in others */
  lua_pushliteral(L, LUN_SUBMIT_KEY);
  lun_envwalk_set(L, W, -1, -2);
  lua_settop(L, top);
  lun_walk_env_entry(L, W, LUN_SUBMIT_KEY, sizeof LUN_SUBMIT_KEY - 1, slot);
  W->submitOpen = W->open;
}

/* A TextField or SecureField (the open node, its view value at v) without
 * an :onSubmit of its own submits through the ones around it (found when
 * it submits); a searchable's field does not. [-0, +0] */
void lun_submit_field(lua_State *L, lun_Walk *W, int v) {
  int top = lua_gettop(L), search = 0;
  if (W->submitOpen == W->open) return;           /* its own (lun_submit_walk) */
  if (lun_rawfield(L, v, "attrs") == LUA_TTABLE) search = lua_getfield(L, -1, "searchable") == LUA_TBOOLEAN;
  lua_settop(L, top);
  if (search) return;
  lun_submit_here(L, W);
  lun_submit_slot(L, W);
  lua_pop(L, 1);
}
