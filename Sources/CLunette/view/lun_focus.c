/*
 * lun_focus.c — focus (T05, D01): :focused(binding[, value]), node:focus()
 * and the focusState section, as SwiftUI's FocusState.
 *
 * Focus is one per scene (here, per runtime): the registry keeps the focus
 * state that holds it, { target, key, value } — what its binding reaches
 * (a view's self and a focusState name, or an object and a property).
 * Whenever a focus state is given a field's value (by a person's
 * node:focus(), or by code writing a focusState name), the one that held
 * focus before lets it go: it becomes nil, or false for a Bool one
 * (lun_focus_claim). A field that leaves the tree while focused lets it go
 * too: the walker gives a focused field an onDisappear of its own
 * (lun_focus_gone), which clears the state if it still names that field.
 *
 * A state given a value no bound field has does not keep it: "When focus
 * is not in any view that is bound to this state, the wrapped value will
 * be nil" (FocusState.wrappedValue). A claim that changes the holder
 * leaves a pending record { target, key, value, seen }; the walk marks it
 * seen when a field bound to that state with that value renders (every
 * such field reads the state, so it renders again in the update that
 * follows the write); after that update, an unseen record sets the state
 * nil, or false (lun_focus_settle).
 */
#include "core/core.h"
#include "life/life.h"
#include "view/view.h"

static const char lun_key_focus = 0, lun_key_pending = 0;

static int lun_focus_is(lua_State *L, int hidx, int tidx, int kidx);

/* After the update that followed a claim (upvalue: its pending record):
 * unless a field bound to the state with its value rendered focused, no
 * field has focus, so the state becomes nil (false for a Bool one).
 * () -> (). */
static int lun_focus_settle(lua_State *L) {
  int p = lua_upvalueindex(1), holder;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_pending);
  if (!lua_rawequal(L, -1, p)) return 0;          /* a later claim has its own check */
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_pending);
  if (lua_rawgeti(L, p, 4) != LUA_TNIL) return 0; /* seen: a field has it */
  lua_settop(L, 0);
  lua_rawgeti(L, p, 1);                           /* 1 target */
  lua_rawgeti(L, p, 2);                           /* 2 key */
  lua_rawgeti(L, p, 3);                           /* 3 value */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_focus);
  holder = lua_gettop(L);
  if (!lun_focus_is(L, holder, 1, 2)) return 0;   /* focus moved on since */
  lua_rawgeti(L, holder, 3);
  if (!lua_rawequal(L, -1, 3)) return 0;
  lua_pushnil(L);                                 /* no field holds focus */
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_focus);
  if (lua_isboolean(L, 3)) lua_pushboolean(L, 0); else lua_pushnil(L);
  if (lua_isnil(L, 2)) lun_binding_set(L, 1, -1); /* reached through a binding of another kind */
  else {
    lua_pushvalue(L, 2);
    lua_insert(L, -2);
    lua_settable(L, 1);                           /* through its self or object: its readers re-render */
  }
  return 0;
}

/* The holder at hidx (target, key, value) is new: checks after the update
 * that a field bound to it has its value (lun_focus_settle). [-0, +0] */
static void lun_focus_pending(lua_State *L, int hidx) {
  lua_createtable(L, 4, 0);
  lua_rawgeti(L, hidx, 1);
  lua_rawseti(L, -2, 1);
  lua_rawgeti(L, hidx, 2);
  lua_rawseti(L, -2, 2);
  lua_rawgeti(L, hidx, 3);
  lua_rawseti(L, -2, 3);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_pending);
  lua_pushcclosure(L, lun_focus_settle, 1);
  lun_life_after_update(L, 0);
}

/* The walk met a focused field (its binding at bidx holds its value at
 * vidx): a pending claim of that state and value is seen. [-0, +0] */
static void lun_focus_seen(lua_State *L, int bidx, int vidx) {
  int top = lua_gettop(L);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_pending) != LUA_TTABLE) { lua_settop(L, top); return; }
  if (lua_rawgeti(L, -1, 4) != LUA_TNIL) { lua_settop(L, top); return; }
  lun_binding_target(L, bidx);                    /* top + 3 target, top + 4 key */
  lua_rawgeti(L, top + 1, 1);
  lua_rawgeti(L, top + 1, 2);
  lua_rawgeti(L, top + 1, 3);
  if (lua_rawequal(L, top + 3, top + 5) && lua_rawequal(L, top + 4, top + 6) && lua_rawequal(L, vidx, top + 7)) {
    lua_pushboolean(L, 1);
    lua_rawseti(L, top + 1, 4);
  }
  lua_settop(L, top);
}

/* 1 if the focus holder at hidx (a table, or nil) is the state at target
 * tidx, key kidx. [-0, +0] */
static int lun_focus_is(lua_State *L, int hidx, int tidx, int kidx) {
  int is;
  if (!lua_istable(L, hidx)) return 0;
  lua_rawgeti(L, hidx, 1);
  lua_rawgeti(L, hidx, 2);
  is = lua_rawequal(L, -2, tidx) && lua_rawequal(L, -1, kidx);
  lua_pop(L, 2);
  return is;
}

/* Focus state (target at tidx, key at kidx) is about to hold the value at
 * vidx: a value takes the scene's focus from whichever other state held
 * it, which becomes nil (false for a Bool one); nil or false gives it up.
 * [-0, +0] */
void lun_focus_claim(lua_State *L, int tidx, int kidx, int vidx) {
  int holder, same, again;
  tidx = lua_absindex(L, tidx);
  kidx = lua_absindex(L, kidx);
  vidx = lua_absindex(L, vidx);
  luaL_checkstack(L, 8, "moving focus");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_focus);
  holder = lua_gettop(L);
  same = lun_focus_is(L, holder, tidx, kidx);
  if (!lua_toboolean(L, vidx)) {                  /* dismissed: no field has focus */
    if (same) { lua_pushnil(L); lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_focus); }
    lua_pop(L, 1);
    return;
  }
  again = 0;
  if (same) {                                     /* the value it holds already: no change */
    lua_rawgeti(L, holder, 3);
    again = lua_rawequal(L, -1, vidx);
    lua_pop(L, 1);
  }
  lua_createtable(L, 3, 0);                       /* the new holder */
  lua_pushvalue(L, tidx);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, kidx);
  lua_rawseti(L, -2, 2);
  lua_pushvalue(L, vidx);
  lua_rawseti(L, -2, 3);
  if (!again) lun_focus_pending(L, lua_gettop(L));
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_focus);
  if (lua_istable(L, holder) && !same) {          /* the one that held it lets it go */
    lua_rawgeti(L, holder, 1);
    lua_rawgeti(L, holder, 3);
    if (lua_isboolean(L, -1)) lua_pushboolean(L, 0); else lua_pushnil(L);   /* a Bool one: false */
    lua_replace(L, -2);                           /* target, its new value */
    if (lua_rawgeti(L, holder, 2) == LUA_TNIL) {  /* reached through a binding of another kind */
      lua_pop(L, 1);
      lun_binding_set(L, -2, -1);
      lua_pop(L, 2);
    } else {
      lua_insert(L, -2);
      lua_settable(L, -3);                        /* through its self or object: its readers re-render */
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

/* Moves focus through the binding at bidx to the value at vidx, as a
 * person does: the scene's focus first, then the binding. [-0, +0] */
void lun_focus_write(lua_State *L, int bidx, int vidx) {
  bidx = lua_absindex(L, bidx);
  vidx = lua_absindex(L, vidx);
  lun_binding_target(L, bidx);
  lun_focus_claim(L, -2, -1, vidx);
  lua_pop(L, 2);
  lun_binding_set(L, bidx, vidx);
}

/* A field's focus setter: () -> (), node:focus(). Upvalues: binding, value. */
static int lun_focus_set(lua_State *L) {
  lun_focus_write(L, lua_upvalueindex(1), lua_upvalueindex(2));
  return 0;
}

/* A focused field left the tree (its onDisappear): () -> (). If its state
 * still names it, no field has focus: nil, or false for a Bool one.
 * Upvalues: binding, value. */
static int lun_focus_gone(lua_State *L) {
  lun_binding_get(L, lua_upvalueindex(1));
  if (!lua_rawequal(L, -1, lua_upvalueindex(2))) return 0;
  if (lua_isboolean(L, lua_upvalueindex(2))) lua_pushboolean(L, 0); else lua_pushnil(L);
  lun_focus_write(L, lua_upvalueindex(1), -1);
  return 0;
}

/* The walker's part: reports :focused(binding, value) of the open node
 * (record at fidx): whether it is focused (a tracked read of the binding),
 * a setter for node:focus(), and, while focused, an onDisappear that
 * clears the state if the field leaves the tree. */
void lun_focus_walk(lua_State *L, lun_Walk *W, int fidx) {
  int equal;
  fidx = lua_absindex(L, fidx);
  if (!lua_istable(L, fidx)) luaL_error(L, "a view value was altered: its field 'focus' holds what Lunette did not put there");
  lua_rawgeti(L, fidx, 1);
  if (!lun_binding_test(L, -1))
    luaL_error(L, "a view value was altered: its field 'focus' holds what Lunette did not put there");
  lua_rawgeti(L, fidx, 2);
  lun_binding_get(L, -2);
  equal = lua_rawequal(L, -1, -2);
  lua_pop(L, 1);
  if (equal) lun_focus_seen(L, lua_gettop(L) - 1, lua_gettop(L));
  lun_out_attr(L, "focused", 7, equal ? "true" : "false", equal ? 4 : 5);
  if (equal && W->life) {
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, LUN_ON_DISAPPEAR);
    lua_rawseti(L, -2, LUN_LIFE_KIND);
    lua_pushvalue(L, -3);
    lua_pushvalue(L, -3);
    lua_pushcclosure(L, lun_focus_gone, 2);
    lua_rawseti(L, -2, LUN_LIFE_FN);
    lun_life_add(L, W->life);
    lua_pop(L, 1);
  }
  lua_pushcclosure(L, lun_focus_set, 2);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  lun_enabled_slot(L, W, LUN_ROLE_FOCUS, W->slots);
}
