/*
 * lun_walktx.c — the walker's part of transactions (D06).
 *
 * A view's :transaction(fn) applies to every animation within it, in its
 * own body and in the bodies of views inside it. The walk keeps the transaction in effect where it is (W->tx: the
 * run's, or an empty one, as the :transaction modifiers around changed it)
 * and the chain of those modifiers (W->txcell). A chain is a cell
 * { fn, parent } per modifier, kept by the unit's record per node so it is
 * the same table render after render; it is put in the environment
 * ("lunette.transaction"), where the bodies inside find it.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"


/* Pushes the chain of :transaction modifiers in effect where the walk is
 * (a cell, or nil): the walk's own, else the one around the unit, from its
 * environment. [-0, +1] */
static void lun_walk_txcell(lua_State *L, lun_Walk *W) {
  int top = lua_gettop(L);
  int32_t unit = W->unit;
  if (W->txcell) {
    lua_rawgeti(L, W->out, W->txcell);
    if (!lua_toboolean(L, -1)) { lua_pop(L, 1); lua_pushnil(L); }
    return;
  }
  lua_pushboolean(L, 0);                          /* none */
  if (unit && lun_state(L)->txSeen) {
    lua_pushliteral(L, "lunette.transaction");
    lun_env_read(L, unit, lua_gettop(L), LUN_ENV_OPTIONAL, lua_gettop(L));
    if (lua_istable(L, -1)) lua_replace(L, top + 1);
  }
  lua_settop(L, top + 1);
  lua_pushvalue(L, -1);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  W->txcell = W->slots;
  if (!lua_toboolean(L, -1)) { lua_pop(L, 1); lua_pushnil(L); }
}

/* Pushes the transaction in effect where the walk is: a copy of the run's
 * (an empty one when it has none) that the :transaction modifiers around
 * have changed, outermost first. [-0, +1] */
static void lun_walk_tx(lua_State *L, lun_Walk *W) {
  int top = lua_gettop(L), t, depth = 0;
  if (W->tx) { lua_rawgeti(L, W->out, W->tx); return; }
  lun_walk_txcell(L, W);                          /* top + 1 */
  lun_out_begun(L, lun_state(L));                 /* the run's transaction is the host's to say */
  lun_transaction_copy_of(L, lunh(W->rt, output, transaction));
  t = lua_gettop(L);
  lua_pushvalue(L, top + 1);
  while (lua_istable(L, -1)) {                    /* the chain's functions, innermost first */
    if (++depth > LUN_MAX_TREE_DEPTH) luaL_error(L, "too many :transaction modifiers around a view");
    luaL_checkstack(L, 4, "applying :transaction modifiers");
    if (lua_getfield(L, -1, "only") == LUA_TNUMBER &&   /* { value = v }: only in the flush v changed in */
        (uint32_t)lua_tointeger(L, -1) != lun_state(L)->flushes) {
      lua_pop(L, 1);
    } else {
      lua_pop(L, 1);
      lua_getfield(L, -1, "fn");
      lua_insert(L, -2);
    }
    lua_getfield(L, -1, "parent");
    lua_replace(L, -2);
  }
  lua_pop(L, 1);
  while (lua_gettop(L) > t) {                     /* called outermost first */
    lua_pushvalue(L, t);
    lua_call(L, 1, 0);
  }
  lua_pushvalue(L, t);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  W->tx = W->slots;
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

/* Animates the open node as the transaction on top says (no animation
 * when it has none; disablesAnimations does not remove it). [-1, +0] */
static void lun_walk_animate(lua_State *L, lun_Walk *W) {
  int top = lua_gettop(L);
  size_t len;
  const char *desc = lun_transaction_animation(L, top, &len);
  lun_out_animate(L, desc, len);
  if (W->open > 1 && len > 0) W->animInner = 1;   /* a node inside animates (lun_walk_note) */
  lua_settop(L, top - 1);
}

/* The transaction in effect where the walk is becomes a copy of it
 * carrying the animation at aidx (an outer :animation(a, value) whose value
 * changed), for the view's :transaction and the views inside. [-0, +0] */
void lun_walk_tx_with(lua_State *L, lun_Walk *W, int aidx) {
  aidx = lua_absindex(L, aidx);
  lun_walk_tx(L, W);
  lun_transaction_new(L, -1);
  lua_getiuservalue(L, -1, 1);
  lua_pushvalue(L, aidx);
  lua_setfield(L, -2, "animation");
  lua_pop(L, 1);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  W->tx = W->slots;
  lua_pop(L, 1);
}

/* While a withAnimation completion waits for the flush (lun_completion.c),
 * at a top-level node of a body, its own :transaction and :animation
 * applied: the run's transaction reaches the node with the animation of the
 * transaction in effect here, or with none (taken away). [-0, +0] */
void lun_walk_note(lua_State *L, lun_Walk *W) {
  int top = lua_gettop(L);
  size_t len;
  int32_t id;
  lun_out_begun(L, lun_state(L));                 /* the run's transaction is the host's to say */
  id = lunh(W->rt, output, transaction);
  if (!id) return;
  lun_walk_tx(L, W);
  lun_transaction_animation(L, lua_gettop(L), &len);
  lua_settop(L, top);
  lun_completion_animated(L, id, W->animNone ? W->animInner : len > 0);
}

/* At a top-level node of a body: the :transaction modifiers of views
 * around the unit apply to its animations. [-0, +0] */
LUN_HOT void lun_walk_inherited(lua_State *L, lun_Walk *W) {
  if (!lun_state(L)->txSeen) return;              /* no view has had :transaction: nothing around */
  lun_walk_txcell(L, W);
  if (lua_isnil(L, -1)) { lua_pop(L, 1); return; }
  lua_pop(L, 1);
  lun_walk_tx(L, W);
  lun_walk_animate(L, W);
}

/* 1 if the transaction in effect where the walk is disables animations:
 * then :animation(a, value) adds none. */
int lun_walk_disables(lua_State *L, lun_Walk *W) {
  int disables;
  lun_walk_tx(L, W);
  disables = lun_transaction_disables(L, lua_gettop(L));
  lua_pop(L, 1);
  return disables;
}

/* Pushes the cell of the view's :transaction(fn) at fidx, the one its node
 * had last render (lun_walk_kept) or a new one, with fn and the
 * chain around it as parent; with a value (gate 1: it changed now, 2: it
 * did not), `only` names the flush fn applies in, for the bodies inside
 * that render later. [-0, +1] */
static void lun_walk_newcell(lua_State *L, lun_Walk *W, int fidx, int gate) {
  int top = lua_gettop(L);
  size_t plen;
  const char *path = lun_out_path(L, &plen);
  lua_pushlstring(L, path, plen);                 /* top + 1 */
  lun_walk_kept(L, W, "txcells", top + 1);        /* last render's cell here: the same table, so the */
  if (!lua_istable(L, -1)) {                      /* views inside see no change */
    lua_pop(L, 1);
    lua_createtable(L, 0, 3);
  }
  lua_pushvalue(L, -1);
  lun_walk_keep(L, W, "txcells", top + 1);
  lua_remove(L, top + 1);                         /* the cell */
  lua_pushvalue(L, fidx);
  lua_setfield(L, -2, "fn");
  if (gate) lua_pushinteger(L, gate == 1 ? (lua_Integer)lun_state(L)->flushes : -1);
  else lua_pushnil(L);
  lua_setfield(L, -2, "only");
  lun_walk_txcell(L, W);
  lua_setfield(L, -2, "parent");
}

/* For :transaction(fn, { value = v }) on the view at v: 1 if v's value
 * changed since the last render of this position (by contents, D03), 2 if
 * not (the first render is no change), 0 without a value (kept by
 * lun_walk_keep). [-0, +0] */
static int lun_walk_tx_value_changed(lua_State *L, lun_Walk *W, int v) {
  int top = lua_gettop(L), changed = 0;
  size_t plen;
  const char *path;
  if (lun_rawfield(L, v, "txval") != LUA_TTABLE) { lua_settop(L, top); return 0; }   /* top + 1 */
  path = lun_out_path(L, &plen);
  lua_pushlstring(L, path, plen);                 /* top + 2 */
  lun_walk_kept(L, W, "txValues", top + 2);       /* { previous value }, or nil */
  if (lua_istable(L, -1)) {
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, top + 1, 1);
    changed = !lun_values_equal(L, -1, -2);
  }
  lua_settop(L, top + 2);
  lua_pushvalue(L, top + 1);                      /* this render's, for the next */
  lun_walk_keep(L, W, "txValues", top + 2);
  lua_settop(L, top);
  return changed ? 1 : 2;
}

/* The view at v has `:transaction(fn)`: fn changes a copy of the
 * transaction in effect, which animates the view's node (and so its
 * subtree) and holds for the views inside it, through the environment for
 * other bodies. Runs inside the body's run. [-0, +0] */
void lun_walk_transaction(lua_State *L, lun_Walk *W, int v) {
  int top = lua_gettop(L), apply, gate;
  int32_t old;
  if (lun_rawfield(L, v, "txfn") != LUA_TFUNCTION) { lua_pop(L, 1); return; }
  lun_state(L)->txSeen = 1;
  gate = lun_walk_tx_value_changed(L, W, v);      /* 0: no value; 1: it changed; 2: it did not */
  apply = gate != 2;
  lun_walk_tx(L, W);
  lun_transaction_new(L, -1);                     /* fn, around, copy */
  lua_pushvalue(L, top + 1);
  lua_pushvalue(L, -2);
  if (apply) lua_call(L, 1, 0);                   /* with a value that did not change: the transaction passes */
  else lua_pop(L, 2);
  lua_pushvalue(L, -1);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  W->tx = W->slots;
  lun_walk_animate(L, W);
  lun_walk_newcell(L, W, top + 1, gate);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  W->txcell = W->slots;
  old = lun_out_env(L, "lunette.transaction", 19, W->slots);
  if (old) {                                      /* the same cell as last render, unless the node is new */
    lua_getfield(L, W->record, "out");
    lua_rawgeti(L, -1, old);
    lua_rawgeti(L, W->out, W->txcell);
    if (!lua_rawequal(L, -1, -2)) lun_out_env_changed(L);
  }
  lua_settop(L, top);
}
