/*
 * lun_transaction.c — transactions (T02): what a change carries to the
 * re-renders it causes, as SwiftUI's Transaction.
 *
 *   ui.TransactionKey("fromSwipe", false)
 *   ui.withTransaction("fromSwipe", true, function() card.offset = 0 end)
 *   view:transaction(function(t) if t.fromSwipe then t.animation = ui.Animation.spring() end end)
 *
 * A transaction is a userdata whose user value holds its fields: the
 * animation, disablesAnimations and the values of declared keys. While
 * ui.withAnimation or ui.withTransaction runs its function, its transaction
 * is the current one (they nest: a new one starts from the current); the
 * host is told its animation and its id, and a unit made stale carries
 * the id to its next run. The walker asks for the run's transaction
 * (output.transaction) when a view has `:transaction(fn)`, calls fn with a
 * copy, and animates that view's subtree as the copy says. Transactions are
 * kept by id until the end of the flush that rendered what they changed.
 */
#include "lun_internal.h"

#define LUN_MT_TRANSACTION "lunette.Transaction"

typedef struct lun_Transaction {
  int32_t id;
} lun_Transaction;

static const char lun_key_keys = 0, lun_key_byid = 0, lun_key_current = 0, lun_key_nextid = 0;

/* ui.TransactionKey(name, default) -> name: a key transactions carry, with
 * the value read when no transaction set it. */
static int lun_ui_transaction_key(lua_State *L) {
  luaL_checkstring(L, 1);
  if (strcmp(lua_tostring(L, 1), "animation") == 0 || strcmp(lua_tostring(L, 1), "disablesAnimations") == 0)
    luaL_argerror(L, 1, "'animation' and 'disablesAnimations' are a transaction's own fields");
  lua_settop(L, 2);
  lun_registry_table(L, &lun_key_keys);
  lua_pushvalue(L, 1);
  lua_createtable(L, 1, 0);                       /* { default }: a nil default is still declared */
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  lua_rawset(L, -3);
  lua_settop(L, 1);
  return 1;
}

/* Pushes the current transaction, or nil. [-0, +1] */
static void lun_transaction_current(lua_State *L) {
  lun_registry_table(L, &lun_key_current);
  lua_rawgeti(L, -1, (lua_Integer)lua_rawlen(L, -1));
  lua_remove(L, -2);
}

/* Pushes a new transaction with the fields of the one at fromidx (0 or nil:
 * none), kept by its id. [-0, +1] */
static void lun_transaction_new(lua_State *L, int fromidx) {
  lun_Transaction *t;
  lua_Integer id;
  if (fromidx) fromidx = lua_absindex(L, fromidx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_nextid);
  id = lua_tointeger(L, -1) % INT32_MAX + 1;
  lua_pop(L, 1);
  lua_pushinteger(L, id);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_nextid);
  t = (lun_Transaction *)lua_newuserdatauv(L, sizeof(lun_Transaction), 1);
  t->id = (int32_t)id;
  lua_newtable(L);
  if (fromidx && luaL_testudata(L, fromidx, LUN_MT_TRANSACTION)) {
    lua_getiuservalue(L, fromidx, 1);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, -5);
    }
    lua_pop(L, 1);
  }
  lua_setiuservalue(L, -2, 1);
  luaL_setmetatable(L, LUN_MT_TRANSACTION);
  lun_registry_table(L, &lun_key_byid);
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
}

/* The description of the animation the transaction at tidx carries ("" for
 * none, or when it disables animations). Leaves what keeps it alive on the
 * stack: callers restore their top. */
static const char *lun_transaction_animation(lua_State *L, int tidx, size_t *len) {
  *len = 0;
  lua_getiuservalue(L, tidx, 1);
  lua_getfield(L, -1, "disablesAnimations");
  if (lua_toboolean(L, -1) || lua_getfield(L, -2, "animation") == LUA_TNIL) return "";
  return luaL_tolstring(L, -1, len);
}

/* Tells the host which transaction is current: its animation (none when
 * disabled) and its id; or that none is. [-0, +0] */
static void lun_transaction_tell(lua_State *L, int tidx) {
  const lun_Host *rt = lun_state(L)->rt;
  int top = lua_gettop(L);
  size_t len = 0;
  const char *desc;
  if (lua_isnil(L, tidx)) { lunh(rt, scheduler, transaction_end); return; }
  desc = lun_transaction_animation(L, tidx, &len);
  lunh(rt, scheduler, transaction_begin, desc, len, ((lun_Transaction *)lua_touserdata(L, tidx))->id);
  lua_settop(L, top);
}

/* Runs the function at fidx with nargs arguments (on top) as the
 * transaction at tidx; errors restore the outer transaction and
 * propagate. [-nargs, +0] */
void lun_transaction_run(lua_State *L, int tidx, int fidx, int nargs) {
  int status, top;
  tidx = lua_absindex(L, tidx);
  fidx = lua_absindex(L, fidx);
  lun_registry_table(L, &lun_key_current);
  lua_pushvalue(L, tidx);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_pop(L, 1);
  top = lua_gettop(L);
  lun_transaction_tell(L, tidx);
  lua_settop(L, top);
  lua_pushvalue(L, fidx);
  lua_insert(L, -nargs - 1);
  status = lua_pcall(L, nargs, 0, 0);
  lun_registry_table(L, &lun_key_current);
  lua_pushnil(L);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2));
  lua_rawgeti(L, -1, (lua_Integer)lua_rawlen(L, -1));   /* the outer one, or nil */
  top = lua_gettop(L);
  lun_transaction_tell(L, top);
  lua_settop(L, top - 2);
  if (status != LUA_OK) lua_error(L);
}

/* Runs the function at fidx as a new transaction, from the current one,
 * with the animation at aidx (ui.withAnimation, binding:animation). [-nargs, +0] */
void lun_animation_run(lua_State *L, int aidx, int fidx, int nargs) {
  aidx = lua_absindex(L, aidx);
  fidx = lua_absindex(L, fidx);
  lun_transaction_current(L);
  lun_transaction_new(L, -1);
  lua_getiuservalue(L, -1, 1);
  lua_pushvalue(L, aidx);
  lua_setfield(L, -2, "animation");
  lua_pop(L, 1);
  lua_remove(L, -2);
  lua_insert(L, -nargs - 1);                      /* below the arguments */
  lun_transaction_run(L, -nargs - 1, fidx, nargs);
  lua_pop(L, 1);
}

/* Checks that the key at kidx may be set to the value at vidx: an animation
 * (or nil), a boolean, or a declared key. Raises otherwise. */
static void lun_transaction_check(lua_State *L, int kidx, int vidx) {
  const char *key = lua_tostring(L, kidx);
  if (lua_type(L, kidx) != LUA_TSTRING) luaL_typeerror(L, kidx, "string (a transaction key)");
  if (strcmp(key, "animation") == 0) {
    if (!lua_isnil(L, vidx) && !lun_animation_test(L, vidx))
      lun_error_here(L, "a transaction's animation must be an animation or nil, got %s", luaL_typename(L, vidx));
    return;
  }
  if (strcmp(key, "disablesAnimations") == 0) {
    if (!lua_isboolean(L, vidx))
      lun_error_here(L, "a transaction's disablesAnimations must be a boolean, got %s", luaL_typename(L, vidx));
    return;
  }
  lun_registry_table(L, &lun_key_keys);
  lua_pushvalue(L, kidx);
  if (lua_rawget(L, -2) == LUA_TNIL) {
    lun_push_key_suggestion(L, key, -2, 0);
    lun_error_here(L, "no transaction key '%s'%s (declare it with ui.TransactionKey(\"%s\", default))", key,
                   lua_tostring(L, -1), key);
  }
  lua_pop(L, 2);
}

/* __index of transactions: (t, key) -> its value, or the key's default. */
static int lun_transaction_index(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_TRANSACTION);
  lua_settop(L, 2);
  lua_getiuservalue(L, 1, 1);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, -2) != LUA_TNIL) return 1;
  if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "disablesAnimations") == 0) {
    lua_pushboolean(L, 0);
    return 1;
  }
  if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "animation") == 0) return 1;
  lun_transaction_check(L, 2, 4);                 /* raises for an undeclared key */
  lun_registry_table(L, &lun_key_keys);
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  lua_rawgeti(L, -1, 1);                          /* its default */
  return 1;
}

/* __newindex of transactions: (t, key, value) -> (). */
static int lun_transaction_newindex(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_TRANSACTION);
  lua_settop(L, 3);
  lun_transaction_check(L, 2, 3);
  lua_getiuservalue(L, 1, 1);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_rawset(L, -3);
  return 0;
}

/* __tostring of transactions: "Transaction { animation = easeInOut 0.35s, fromSwipe = true }". */
static int lun_transaction_tostring(lua_State *L) {
  luaL_Buffer b;
  int first = 1;
  luaL_checkudata(L, 1, LUN_MT_TRANSACTION);
  lua_settop(L, 1);
  lua_getiuservalue(L, 1, 1);
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "Transaction {");
  lua_pushnil(L);
  while (lua_next(L, 2)) {
    if (lua_type(L, -2) == LUA_TSTRING) {
      luaL_addstring(&b, first ? " " : ", ");
      first = 0;
      lua_pushvalue(L, -2);
      luaL_addvalue(&b);
      luaL_addstring(&b, " = ");
      luaL_tolstring(L, -1, NULL);
      luaL_addvalue(&b);
    }
    lua_pop(L, 1);
  }
  luaL_addstring(&b, first ? "}" : " }");
  luaL_pushresult(&b);
  return 1;
}

/* ui.withTransaction(key, value, fn) -> (): fn's changes carry key = value
 * (and the current transaction's other fields) to the re-renders they cause. */
static int lun_ui_with_transaction(lua_State *L) {
  luaL_checkany(L, 2);
  luaL_checktype(L, 3, LUA_TFUNCTION);
  lua_settop(L, 3);
  lun_transaction_check(L, 1, 2);
  lun_transaction_current(L);
  lun_transaction_new(L, -1);                     /* 5 */
  lua_getiuservalue(L, 5, 1);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lun_transaction_run(L, 5, 3, 0);
  return 0;
}

/* The walker's part (D06). A view's :transaction(fn) applies to every
 * animation within it, in its own body and in the bodies of views inside
 * it. The walk keeps the transaction in effect where it is (W->tx: the
 * run's, or an empty one, as the :transaction modifiers around changed it)
 * and the chain of those modifiers (W->txcell). A chain is a cell
 * { fn, parent } per modifier, kept by the unit's record per node so it is
 * the same table render after render; it is put in the environment
 * ("lunette.transaction"), where the bodies inside find it. */

static const char lun_key_modifies = 0;   /* true once a view has had :transaction */

/* Pushes the chain of :transaction modifiers in effect where the walk is
 * (a cell, or nil): the walk's own, else the one around the unit, from its
 * environment. [-0, +1] */
static void lun_walk_txcell(lua_State *L, lun_Walk *W) {
  int top = lua_gettop(L);
  int32_t unit;
  if (W->txcell) {
    lua_rawgeti(L, W->out, W->txcell);
    if (!lua_toboolean(L, -1)) { lua_pop(L, 1); lua_pushnil(L); }
    return;
  }
  lua_pushboolean(L, 0);                          /* none */
  lua_getfield(L, W->record, "unit");
  unit = lua_isinteger(L, -1) ? (int32_t)lua_tointeger(L, -1) : 0;
  if (unit && lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_modifies) == LUA_TBOOLEAN) {
    lua_pushliteral(L, "lunette.transaction");
    lun_env_read(L, unit, lua_gettop(L), LUN_ENV_OPTIONAL, lua_gettop(L));
    if (lua_istable(L, -1)) lua_replace(L, top + 1);
  }
  lua_settop(L, top + 1);
  lua_pushvalue(L, -1);
  lua_rawseti(L, W->out, ++W->slots);
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
  lun_registry_table(L, &lun_key_byid);
  lua_rawgeti(L, -1, lunh(W->rt, output, transaction));
  lun_transaction_new(L, -1);
  t = lua_gettop(L);
  lua_pushvalue(L, top + 1);
  while (lua_istable(L, -1)) {                    /* the chain's functions, innermost first */
    if (++depth > LUN_MAX_TREE_DEPTH) luaL_error(L, "too many :transaction modifiers around a view");
    luaL_checkstack(L, 4, "applying :transaction modifiers");
    lua_getfield(L, -1, "fn");
    lua_insert(L, -2);
    lua_getfield(L, -1, "parent");
    lua_replace(L, -2);
  }
  lua_pop(L, 1);
  while (lua_gettop(L) > t) {                     /* called outermost first */
    lua_pushvalue(L, t);
    lua_call(L, 1, 0);
  }
  lua_pushvalue(L, t);
  lua_rawseti(L, W->out, ++W->slots);
  W->tx = W->slots;
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

/* Animates the open node as the transaction on top says (no animation
 * when it has none, or disables animations). [-1, +0] */
static void lun_walk_animate(lua_State *L, lun_Walk *W) {
  int top = lua_gettop(L);
  size_t len;
  const char *desc = lun_transaction_animation(L, top, &len);
  lun_out_animate(L, desc, len);
  lua_settop(L, top - 1);
}

/* At a top-level node of a body: the :transaction modifiers of views
 * around the unit apply to its animations. [-0, +0] */
void lun_walk_inherited(lua_State *L, lun_Walk *W) {
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
  lua_getiuservalue(L, -1, 1);
  lua_getfield(L, -1, "disablesAnimations");
  disables = lua_toboolean(L, -1);
  lua_pop(L, 3);
  return disables;
}

/* Pushes the cell of the view's :transaction(fn) at fidx, the one its node
 * had last render (record.txcells[path]) or a new one, with fn and the
 * chain around it as parent. [-0, +1] */
static void lun_walk_newcell(lua_State *L, lun_Walk *W, int fidx) {
  size_t plen;
  const char *path = lun_out_path(L, &plen);
  if (lua_getfield(L, W->record, "txcells") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, W->record, "txcells");
  }
  lua_pushlstring(L, path, plen);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushlstring(L, path, plen);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_remove(L, -2);
  lua_pushvalue(L, fidx);
  lua_setfield(L, -2, "fn");
  lun_walk_txcell(L, W);
  lua_setfield(L, -2, "parent");
}

/* The view at v has `:transaction(fn)`: fn changes a copy of the
 * transaction in effect, which animates the view's node (and so its
 * subtree) and holds for the views inside it, through the environment for
 * other bodies. Runs inside the body's run. [-0, +0] */
void lun_walk_transaction(lua_State *L, lun_Walk *W, int v) {
  int top = lua_gettop(L);
  int32_t old;
  if (lun_rawfield(L, v, "transaction") != LUA_TFUNCTION) { lua_pop(L, 1); return; }
  lua_pushboolean(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_modifies);
  lun_walk_tx(L, W);
  lun_transaction_new(L, -1);                     /* fn, around, copy */
  lua_pushvalue(L, top + 1);
  lua_pushvalue(L, -2);
  lua_call(L, 1, 0);
  lua_pushvalue(L, -1);
  lua_rawseti(L, W->out, ++W->slots);
  W->tx = W->slots;
  lun_walk_animate(L, W);
  lun_walk_newcell(L, W, top + 1);
  lua_rawseti(L, W->out, ++W->slots);
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

/* The end of a flush: transactions no run can still ask for are dropped;
 * the current ones (a flush inside withTransaction) are kept. [-0, +0] */
void lun_transaction_forget(lua_State *L) {
  lua_Integer i, n;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_byid) != LUA_TTABLE || (lua_pushnil(L), !lua_next(L, -2))) {
    lua_pop(L, 1);                                /* none kept: most flushes */
    return;
  }
  lua_pop(L, 3);
  lua_newtable(L);
  lun_registry_table(L, &lun_key_current);
  n = (lua_Integer)lua_rawlen(L, -1);
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, i);
    lua_rawseti(L, -3, ((lun_Transaction *)lua_touserdata(L, -1))->id);
  }
  lua_pop(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_byid);
}

void lun_open_transaction(lua_State *L) {
  lun_newmetatable(L, LUN_MT_TRANSACTION);
  lua_pushcfunction(L, lun_transaction_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, lun_transaction_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, lun_transaction_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  lua_pushcfunction(L, lun_ui_transaction_key);
  lua_setfield(L, -2, "TransactionKey");
  lua_pushcfunction(L, lun_ui_with_transaction);
  lua_setfield(L, -2, "withTransaction");
}
