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
 * copy, and animates that view's subtree as the copy says (lun_walktx.c). Transactions are
 * kept by id until the end of the flush that rendered what they changed.
 */
#include "core/core.h"
#include "life/life.h"

#define LUN_MT_TRANSACTION "lunette.Transaction"

typedef struct lun_Transaction {
  int32_t id;
} lun_Transaction;

static const char lun_key_keys = 0, lun_key_byid = 0, lun_key_current = 0, lun_key_nextid = 0;

/* ui.TransactionKey(name, default) -> name: a key transactions carry, with
 * the value read when no transaction set it. */
static int lun_ui_transaction_key(lua_State *L) {
  if (lua_type(L, 1) != LUA_TSTRING) luaL_typeerror(L, 1, "string");   /* a number is no key's name */
  lun_no_extra(L, "ui.TransactionKey", 2, 0);
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
void lun_transaction_new(lua_State *L, int fromidx) {
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
  lun_state(L)->flushWork |= LUN_WORK_TRANSACTIONS;
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
}

/* Pushes a copy of the transaction kept under id (an empty one when none
 * is): what a run changes without touching what started it. [-0, +1] */
void lun_transaction_copy_of(lua_State *L, lua_Integer id) {
  lun_registry_table(L, &lun_key_byid);
  lua_rawgeti(L, -1, id);
  lun_transaction_new(L, -1);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* The description of the animation the transaction at tidx carries ("" for
 * none). disablesAnimations does not take it away: it only keeps
 * :animation(a, value) from adding one (lun_walk_disables), as SwiftUI's
 * flag keeps animation(_:) "from inserting new animations into the
 * transaction"; an explicit withAnimation still animates. Leaves what keeps
 * it alive on the stack: callers restore their top. */
const char *lun_transaction_animation(lua_State *L, int tidx, size_t *len) {
  *len = 0;
  lua_getiuservalue(L, tidx, 1);
  if (lua_getfield(L, -1, "animation") == LUA_TNIL) return "";
  return luaL_tolstring(L, -1, len);
}

/* 1 if the transaction at tidx disables animations. [-0, +0] */
int lun_transaction_disables(lua_State *L, int tidx) {
  int disables;
  lua_getiuservalue(L, tidx, 1);
  lua_getfield(L, -1, "disablesAnimations");
  disables = lua_toboolean(L, -1);
  lua_pop(L, 2);
  return disables;
}

/* Tells the host which transaction is current: its animation and its id;
 * or that none is. The host first takes what the last one made pending,
 * then the graph starts the new one: a change in it reaches units already
 * waiting too — unless it disables animations and has none of its own,
 * which concerns only the changes made in it, so a unit already waiting
 * for another change does not hear of it (withAnimation inside it does:
 * its animation stays). [-0, +0] */
static void lun_transaction_tell(lua_State *L, int tidx) {
  const lun_Host *rt = lun_state(L)->rt;
  int top = lua_gettop(L);
  size_t len = 0;
  const char *desc;
  lun_out_done_send(L, lun_state(L));             /* runs ended before it are not in it (their units take it next run) */
  if (lua_isnil(L, tidx)) {
    lunh(rt, scheduler, transaction_end);
    lun_graph_transaction(lun_state(L)->graph, 0);
    return;
  }
  desc = lun_transaction_animation(L, tidx, &len);
  lunh(rt, scheduler, transaction_begin, desc, len, ((lun_Transaction *)lua_touserdata(L, tidx))->id);
  lua_settop(L, top);
  lun_graph_transaction(lun_state(L)->graph, len > 0 || !lun_transaction_disables(L, tidx));
}

/* Runs the function at fidx with nargs arguments (on top) as the
 * transaction at tidx; errors restore the outer transaction and
 * propagate. [-nargs, +0] */
void lun_transaction_run(lua_State *L, int tidx, int fidx, int nargs) {
  if (lun_transaction_try(L, tidx, fidx, nargs) != LUA_OK) lua_error(L);
}

/* lun_transaction_run, returning the call's status: an error is left on
 * top, the outer transaction restored. [-nargs, +0|1] */
int lun_transaction_try(lua_State *L, int tidx, int fidx, int nargs) {
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
  lua_settop(L, top - 2);                         /* an error stays on top */
  return status;
}

/* Pushes a new transaction, from the current one, with the animation at
 * aidx (nil: none); returns its id. [-0, +1] */
int32_t lun_animation_transaction(lua_State *L, int aidx) {
  int32_t id;
  aidx = lua_absindex(L, aidx);
  lun_transaction_current(L);
  lun_transaction_new(L, -1);
  id = ((lun_Transaction *)lua_touserdata(L, -1))->id;
  lua_getiuservalue(L, -1, 1);
  lua_pushvalue(L, aidx);
  lua_setfield(L, -2, "animation");
  lua_pop(L, 1);
  lua_remove(L, -2);
  return id;
}

/* Runs the function at fidx as a new transaction with the animation at
 * aidx (binding:animation); returns the new transaction's id. [-nargs, +0] */
int32_t lun_animation_run(lua_State *L, int aidx, int fidx, int nargs) {
  int32_t id;
  fidx = lua_absindex(L, fidx);
  id = lun_animation_transaction(L, aidx);
  lua_insert(L, -nargs - 1);                      /* below the arguments */
  lun_transaction_run(L, -nargs - 1, fidx, nargs);
  lua_pop(L, 1);
  return id;
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
  if (lua_type(L, 1) == LUA_TTABLE && lua_gettop(L) == 2)   /* SwiftUI's withTransaction(Transaction(…)) { … } */
    return lun_error_here(L, "ui.withTransaction takes (key, value, fn), not a transaction table: "
                          "ui.withTransaction(\"animation\", a, fn), or ui.withAnimation(a, fn)");
  luaL_checkany(L, 2);
  lun_check_callback(L, 3);
  lun_no_extra(L, "ui.withTransaction", 3, 0);
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

/* The end of a flush: transactions no run can still ask for are dropped;
 * the current ones (a flush inside withTransaction) are kept. [-0, +0] */
LUN_HOT void lun_transaction_forget(lua_State *L, lun_State *S) {
  lua_Integer i, n;
  if (!(S->flushWork & LUN_WORK_TRANSACTIONS)) return;  /* none made since the last time none was kept */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_byid) != LUA_TTABLE || (lua_pushnil(L), !lua_next(L, -2))) {
    lua_pop(L, 1);                                /* none kept: most flushes */
    S->flushWork &= ~(uint32_t)LUN_WORK_TRANSACTIONS;
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
