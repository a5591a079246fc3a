/*
 * lun_submit.c — :onSubmit over a view hierarchy: "A TextField, or
 * SecureField will trigger this action when the user hits the hardware or
 * software return key ... You may set this action on an individual view or
 * an entire view hierarchy"
 * (https://developer.apple.com/documentation/swiftui/view/onsubmit(of:_:)).
 *
 * A node with :onSubmit(fn) puts a cell { fn, parent } in the environment of
 * the views inside it ("lunette.onSubmit", in its body and in others), its
 * parent the cell around it. A TextField or SecureField submits through the
 * cell it sees — its own :onSubmit's, or the nearest around it — running fn
 * and every action around it, innermost first (node:submit(), the
 * preview's return key). A node with :onSubmit that is no field submits as
 * before (node:submit() on it). A searchable's field does not: its trigger
 * is .search, not .text, the default (SubmitTriggers). One :onSubmit a view
 * value (lun_modifier.c), so a chain is at most as long as the tree is deep.
 *
 * The cell of a position is the same table render after render (kept in
 * the run's out, lun_walk_kept), its action and parent updated in place:
 * the views inside see no new environment value, so a parent's run does
 * not re-run them, and a field's submission finds the newest action.
 */
#include "core/core.h"
#include "life/life.h"
#include "view/view.h"

#define LUN_SUBMIT_KEY "lunette.onSubmit"

/* A submission: () -> (); runs the cell's action (upvalue 1) and each one
 * around it, innermost first (a chain as deep as the tree, at most). */
static int lun_submit_run(lua_State *L) {
  int depth = 0;
  lua_pushvalue(L, lua_upvalueindex(1));
  while (lua_istable(L, -1)) {
    if (depth++ >= LUN_MAX_TREE_DEPTH) luaL_error(L, "submit: more than %d :onSubmit actions around the field", LUN_MAX_TREE_DEPTH);
    lua_rawgeti(L, -1, 1);
    lua_call(L, 0, 0);
    lua_rawgeti(L, -1, 2);
    lua_remove(L, -2);
  }
  return 0;
}

/* Pushes the cell the open node inherits (nil if none). [-0, +1] */
static void lun_submit_inherited(lua_State *L, lun_Walk *W) {
  lua_pushliteral(L, LUN_SUBMIT_KEY);
  lun_envwalk_inherited_as(L, W, lua_gettop(L), LUN_ENV_OPTIONAL);
  lua_remove(L, -2);
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
    lua_createtable(L, 2, 0);
  }
  lua_pushvalue(L, -1);
  lun_walk_keep(L, W, "submitCells", top + 1);
  lua_remove(L, top + 1);                         /* the cell */
  lua_pushvalue(L, fidx);
  lua_rawseti(L, -2, 1);
  lun_submit_inherited(L, W);
  lua_rawseti(L, -2, 2);
  lua_pushvalue(L, -1);
  lua_pushcclosure(L, lun_submit_run, 1);
  lun_enabled_slot(L, W, LUN_ROLE_SUBMIT, lun_walk_store(L, W, -1));
  lua_pop(L, 1);
  slot = lun_walk_store(L, W, -1);                /* for the views inside, in this body and in others */
  lua_pushliteral(L, LUN_SUBMIT_KEY);
  lun_envwalk_set(L, W, -1, -2);
  lua_pop(L, 2);
  lun_walk_env_entry(L, W, LUN_SUBMIT_KEY, sizeof LUN_SUBMIT_KEY - 1, slot);
  W->submitOpen = W->open;
}

/* A TextField or SecureField (the open node, its view value at v) without
 * an :onSubmit of its own submits through the nearest around it, if any;
 * a searchable's field does not. [-0, +0] */
void lun_submit_field(lua_State *L, lun_Walk *W, int v) {
  int top = lua_gettop(L), search = 0;
  if (W->submitOpen == W->open) return;           /* its own (lun_submit_walk) */
  if (lun_rawfield(L, v, "attrs") == LUA_TTABLE) search = lua_getfield(L, -1, "searchable") == LUA_TBOOLEAN;
  lua_settop(L, top);
  if (search) return;
  lun_submit_inherited(L, W);
  if (lua_istable(L, -1)) {
    lua_pushcclosure(L, lun_submit_run, 1);
    lun_enabled_slot(L, W, LUN_ROLE_SUBMIT, lun_walk_store(L, W, -1));
  }
  lua_pop(L, 1);
}
