/*
 * lun_focus.c — focus (T05, D01): :focused(binding[, value]), node:focus()
 * and the focusState section, as SwiftUI's FocusState.
 *
 * Focus is one per scene: a mounted app is one (issue 19, session 9:
 * FocusState "updates as the placement of focus within the scene
 * changes", https://developer.apple.com/documentation/swiftui/focusstate).
 * An app's root gives the views inside a scene token in the environment
 * ("lunette.scene", lun_focus_scene_walk); a focus state's scene is its
 * view's (a state not held by a view's self: the runtime's). Per scene the
 * registry keeps the focus state that holds it, { target, key, value } —
 * what its binding reaches (a view's self and a focusState name, or an
 * object and a property).
 * Whenever a focus state is given a field's value (by a person's
 * node:focus(), or by code writing a focusState name), the one that held
 * focus before lets it go: it becomes nil, or false for a Bool one
 * (lun_focus_claim). A field that leaves the tree while focused lets it go
 * too: the walker gives a focused field an onDisappear of its own
 * (lun_focus_gone), which clears the state if it still names that field.
 *
 * Focus is one field, not one value: two fields bound to one state with
 * one value (two fields of a Bool FocusState) are not both focused. The
 * holder also names its field, { ..., unit, place } — the unit whose body
 * has it and its node's place in that body's output (kept when a sibling
 * comes or goes, F02) — when a person focused it (node:focus()); a value
 * set by code names none. Only a field that shows its state's value asks
 * for its place (a path costs the run its plain ending): a field's setter
 * names it by its number among the body's :focused fields, and the next
 * walk of its view, which follows at once, names it by its place.
 * When the holder names none,
 * the first field rendered showing that value takes it (lun_focus_mine:
 * the walks run parents first, SwiftUI does not say which of two such
 * fields gets focus). A person focusing another field of the same value
 * moves the name, and both fields' views render again.
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
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

static const char lun_key_focus = 0, lun_key_pending = 0;   /* scene -> holder, scene -> pending record (weak keys) */
static const char lun_key_scenes = 0;                        /* root unit -> its scene (weak values) */

static int lun_focus_is(lua_State *L, int hidx, int tidx, int kidx);
static int lun_focus_same(lua_State *L, int a, int b, int32_t unit);
static void lun_focus_claim_field(lua_State *L, int tidx, int kidx, int vidx, int32_t unit, int pidx);
static int lun_focus_elsewhere(lua_State *L, int bidx, int32_t unit, int pidx);
static void lun_focus_let_go(lua_State *L, int hidx);

/* Pushes the scene of the focus state whose target is at tidx: the token
 * the app's root put in the environment of its view (kept in the view's
 * record once found), or "runtime" for a target that is no view's self. [-0, +1] */
static void lun_focus_scene(lua_State *L, int tidx) {
  lun_State *S = lun_state(L);
  int32_t unit = lun_self_unit(L, tidx), saved;
  int top = lua_gettop(L);
  if (!unit) { lua_pushliteral(L, "runtime"); return; }
  lua_getiuservalue(L, tidx, 1);                  /* top + 1: the record */
  if (lua_getfield(L, top + 1, "scene") != LUA_TNIL) { lua_remove(L, top + 1); return; }
  lua_pushliteral(L, "lunette.scene");            /* top + 3 */
  saved = S->active;
  S->active = 0;                                  /* a look, not a dependency */
  lun_env_read(L, unit, top + 3, LUN_ENV_OPTIONAL, top + 3);
  S->active = saved;
  if (!lua_istable(L, -1)) { lua_settop(L, top); lua_pushliteral(L, "runtime"); return; }
  lua_pushvalue(L, -1);
  lua_setfield(L, top + 1, "scene");
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

/* Pushes registry[key][scene at sidx] (nil if none). [-0, +1] */
static int lun_focus_get(lua_State *L, const void *key, int sidx) {
  sidx = lua_absindex(L, sidx);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) != LUA_TTABLE) return LUA_TNIL;   /* nil: pushed */
  lua_pushvalue(L, sidx);
  lua_rawget(L, -2);
  lua_remove(L, -2);
  return lua_type(L, -1);
}

/* Pushes registry[key], a table weak by mode ("k", "v") made on first use. [-0, +1] */
static void lun_focus_table(lua_State *L, const void *key, const char *mode) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lun_new_weak_table(L, mode);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* registry[key][scene at sidx] = the value on top (made weak-keyed on first use). [-1, +0] */
static void lun_focus_put(lua_State *L, const void *key, int sidx) {
  sidx = lua_absindex(L, sidx);
  lun_focus_table(L, key, "k");
  lua_pushvalue(L, sidx);
  lua_pushvalue(L, -3);
  lua_rawset(L, -3);
  lua_pop(L, 2);
}

/* At a top-level node of an app's root (the walk of a root unit): the app
 * is a scene; its token (record.scene, the same table render after render)
 * goes in the environment. A reload gives the root a new record: the token
 * is found again by the root's unit (registry, weak values: an unmounted
 * app's goes with the last record that held it), so the views a reload
 * keeps and the ones it adds are in one scene. [-0, +0] */
LUN_HOT void lun_focus_scene_walk(lua_State *L, lun_Walk *W) {
  int32_t slot;
  if (!W->root) return;
  if (lua_getfield(L, W->record, "scene") != LUA_TTABLE) {
    lua_pop(L, 1);
    lun_focus_table(L, &lun_key_scenes, "v");
    if (lua_rawgeti(L, -1, W->running) != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_newtable(L);
      lua_pushvalue(L, -1);
      lua_rawseti(L, -3, W->running);
    }
    lua_remove(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, W->record, "scene");
  }
  slot = lun_walk_store(L, W, -1);
  lua_pop(L, 1);
  lun_out_env(L, "lunette.scene", 13, slot);      /* the same token each render: no change to report */
}

/* After the update that followed a claim (upvalue: its pending record):
 * unless a field bound to the state with its value rendered focused, no
 * field has focus, so the state becomes nil (false for a Bool one).
 * () -> (). */
static int lun_focus_settle(lua_State *L) {
  int p = lua_upvalueindex(1), holder;
  lua_settop(L, 0);
  lua_rawgeti(L, p, 5);                           /* 1 the scene */
  lun_focus_get(L, &lun_key_pending, 1);
  if (!lua_rawequal(L, -1, p)) return 0;          /* a later claim has its own check */
  lua_pushnil(L);
  lun_focus_put(L, &lun_key_pending, 1);
  if (lua_rawgeti(L, p, 4) != LUA_TNIL) return 0; /* seen: a field has it */
  lua_settop(L, 1);
  lua_rawgeti(L, p, 1);                           /* 2 target */
  lua_rawgeti(L, p, 2);                           /* 3 key */
  lua_rawgeti(L, p, 3);                           /* 4 value */
  lun_focus_get(L, &lun_key_focus, 1);
  holder = lua_gettop(L);
  if (!lun_focus_is(L, holder, 2, 3)) return 0;   /* focus moved on since */
  lua_rawgeti(L, holder, 3);
  if (!lun_focus_same(L, -1, 4, 0)) return 0;
  lua_pushnil(L);                                 /* no field holds focus */
  lun_focus_put(L, &lun_key_focus, 1);
  if (lua_isboolean(L, 4)) lua_pushboolean(L, 0); else lua_pushnil(L);
  if (lua_isnil(L, 3)) lun_binding_set(L, 2, -1); /* reached through a binding of another kind */
  else {
    lua_pushvalue(L, 3);
    lua_insert(L, -2);
    lua_settable(L, 2);                           /* through its self or object: its readers re-render */
  }
  return 0;
}

/* The holder at hidx (target, key, value) is new: checks after the update
 * that a field bound to it has its value (lun_focus_settle). [-0, +0] */
static void lun_focus_pending(lua_State *L, int hidx, int sidx) {
  sidx = lua_absindex(L, sidx);
  lua_createtable(L, 5, 0);
  lua_rawgeti(L, hidx, 1);
  lua_rawseti(L, -2, 1);
  lua_rawgeti(L, hidx, 2);
  lua_rawseti(L, -2, 2);
  lua_rawgeti(L, hidx, 3);
  lua_rawseti(L, -2, 3);
  lua_pushvalue(L, sidx);
  lua_rawseti(L, -2, 5);
  lua_pushvalue(L, -1);
  lun_focus_put(L, &lun_key_pending, sidx);
  lua_pushcclosure(L, lun_focus_settle, 1);
  lun_life_after_update(L, 0);
}

/* The walk met a focused field (its binding at bidx holds its value at
 * vidx): a pending claim of that state and value is seen. [-0, +0] */
static void lun_focus_seen(lua_State *L, int bidx, int vidx) {
  int top = lua_gettop(L);
  vidx = lua_absindex(L, vidx);
  lun_binding_target(L, bidx);                    /* top + 1 target, top + 2 key */
  lun_focus_scene(L, top + 1);                    /* top + 3 */
  if (lun_focus_get(L, &lun_key_pending, top + 3) != LUA_TTABLE) { lua_settop(L, top); return; }   /* top + 4 */
  if (lua_rawgeti(L, top + 4, 4) != LUA_TNIL) { lua_settop(L, top); return; }
  lua_rawgeti(L, top + 4, 1);                     /* top + 6 */
  lua_rawgeti(L, top + 4, 2);
  lua_rawgeti(L, top + 4, 3);
  if (lua_rawequal(L, top + 1, top + 6) && lua_rawequal(L, top + 2, top + 7) && lun_focus_same(L, vidx, top + 8, 0)) {
    lua_pushboolean(L, 1);
    lua_rawseti(L, top + 4, 4);
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

/* The most entries a focus value compared by contents may visit: it is
 * compared for every focused field of every render. */
#define LUN_MAX_FOCUS_VISITED 256

/* Protected part of lun_focus_same: (a, b) -> whether they are one value. */
static int lun_focus_same_k(lua_State *L) {
  lua_pushboolean(L, lun_values_same(L, 1, 2, LUN_MAX_FOCUS_VISITED, "a focus value"));
  return 1;
}

/* 1 if the focus values at a and b are one value: plain tables (or a
 * state's proxy of one) by their contents, as FocusState's Hashable value
 * (D03; a state keeps a copy of a table it is given, F04), anything else
 * by identity. A comparison that cannot finish (past LUN_MAX_FOCUS_VISITED
 * entries, nested too deep) finds them different and warns, for unit (0:
 * none): an error would stand for one update only — the state, unseen,
 * becomes nil after it — and vanish. [-0, +0] */
static int lun_focus_same(lua_State *L, int a, int b, int32_t unit) {
  int same;
  if (lua_rawequal(L, a, b)) return 1;
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  lua_pushcfunction(L, lun_focus_same_k);
  lua_pushvalue(L, a);
  lun_proxy_unwrap(L, -1);
  lua_pushvalue(L, b);
  lun_proxy_unwrap(L, -1);
  if (!lun_is_plain_table(L, -2) || !lun_is_plain_table(L, -1)) { lua_pop(L, 3); return 0; }
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
    if (lun_budget_stopping(lun_state(L))) lua_error(L);   /* a run stopped (its budget) stays stopped */
    if (lua_type(L, -1) == LUA_TSTRING)
      lunh(lun_state(L)->rt, inspect, warned, unit, lua_tostring(L, -1), lua_rawlen(L, -1));
    lua_pop(L, 1);
    return 0;
  }
  same = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return same;
}

/* The holder at hidx already holds its value: a person focused another
 * field showing it (unit, its name at pidx: a setter's number), which
 * takes the name; the views of the field that had it and of this one
 * render again (the walk names it by its place). [-0, +0] */
static void lun_focus_move(lua_State *L, int hidx, int32_t unit, int pidx) {
  lun_State *S = lun_state(L);
  int32_t old;
  lua_rawgeti(L, hidx, 4);
  lua_rawgeti(L, hidx, 5);
  old = (int32_t)lua_tointeger(L, -2);
  if (old == unit && lua_rawequal(L, -1, pidx)) { lua_pop(L, 2); return; }
  lua_pop(L, 2);
  lua_pushinteger(L, unit);
  lua_rawseti(L, hidx, 4);
  lua_pushvalue(L, pidx);
  lua_rawseti(L, hidx, 5);
  lun_out_done_send(L, S);                        /* runs that ended first, so they run again */
  if (old > 0) lunh(S->rt, scheduler, unit_invalidate, old);
  if (unit != old) lunh(S->rt, scheduler, unit_invalidate, unit);
}

/* Focus state (target at tidx, key at kidx) is about to hold the value at
 * vidx: a value takes the scene's focus from whichever other state held
 * it, which becomes nil (false for a Bool one); nil or false gives it up.
 * [-0, +0] */
void lun_focus_claim(lua_State *L, int tidx, int kidx, int vidx) {
  lun_focus_claim_field(L, tidx, kidx, vidx, 0, 0);
}

/* lun_focus_claim by a person focusing a field (unit, its name at pidx;
 * unit 0: by code, naming no field). [-0, +0] */
static void lun_focus_claim_field(lua_State *L, int tidx, int kidx, int vidx, int32_t unit, int pidx) {
  int holder, same, again, scene;
  tidx = lua_absindex(L, tidx);
  kidx = lua_absindex(L, kidx);
  vidx = lua_absindex(L, vidx);
  if (unit) pidx = lua_absindex(L, pidx);
  luaL_checkstack(L, 10, "moving focus");
  lun_focus_scene(L, tidx);
  scene = lua_gettop(L);
  lun_focus_get(L, &lun_key_focus, scene);
  holder = lua_gettop(L);
  same = lun_focus_is(L, holder, tidx, kidx);
  if (!lua_toboolean(L, vidx)) {                  /* dismissed: no field has focus */
    if (same) { lua_pushnil(L); lun_focus_put(L, &lun_key_focus, scene); }
    lua_pop(L, 2);
    return;
  }
  again = 0;
  if (same) {                                     /* the value it holds already: no change */
    lua_rawgeti(L, holder, 3);
    again = lun_focus_same(L, -1, vidx, 0);
    lua_pop(L, 1);
  }
  if (again) {                                    /* but for the field that shows it, if a person chose one */
    if (unit) lun_focus_move(L, holder, unit, pidx);
    lua_pop(L, 2);
    return;
  }
  lua_createtable(L, 5, 0);                       /* the new holder */
  lua_pushvalue(L, tidx);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, kidx);
  lua_rawseti(L, -2, 2);
  lua_pushvalue(L, vidx);
  lun_snapshot(L, -1, "a focus value");           /* as the state keeps it: a table the script changes later is not this one */
  lua_rawseti(L, -2, 3);
  if (unit) {
    lua_pushinteger(L, unit);
    lua_rawseti(L, -2, 4);
    lua_pushvalue(L, pidx);
    lua_rawseti(L, -2, 5);
  }
  lun_focus_pending(L, lua_gettop(L), scene);
  lun_focus_put(L, &lun_key_focus, scene);
  if (lua_istable(L, holder) && !same) lun_focus_let_go(L, holder);   /* the one that held it lets it go */
  lua_pop(L, 2);
}

/* The focus state of the holder at hidx no longer has the focus: it
 * becomes nil, or false for a Bool one. [-0, +0] */
static void lun_focus_let_go(lua_State *L, int hidx) {
  hidx = lua_absindex(L, hidx);
  lua_rawgeti(L, hidx, 1);
  lua_rawgeti(L, hidx, 3);
  if (lua_isboolean(L, -1)) lua_pushboolean(L, 0); else lua_pushnil(L);   /* a Bool one: false */
  lua_replace(L, -2);                             /* target, its new value */
  if (lua_rawgeti(L, hidx, 2) == LUA_TNIL) {      /* reached through a binding of another kind */
    lua_pop(L, 1);
    lun_binding_set(L, -2, -1);
    lua_pop(L, 2);
  } else {
    lua_insert(L, -2);
    lua_settable(L, -3);                          /* through its self or object: its readers re-render */
    lua_pop(L, 1);
  }
}

/* The focus setter of a field no focus state is bound to (node:focus(),
 * and typing into it): it takes the scene's focus from the state that
 * held it, which becomes nil (false) — "When focus is not in any view that
 * is bound to this state, the wrapped value will be nil"
 * (https://developer.apple.com/documentation/swiftui/focusstate/wrappedvalue).
 * () -> (). Upvalue: the field's unit. */
static int lun_focus_unbound(lua_State *L) {
  lun_State *S = lun_state(L);
  int32_t unit = (int32_t)lua_tointeger(L, lua_upvalueindex(1)), saved;
  lua_settop(L, 0);
  lua_pushliteral(L, "lunette.scene");            /* 1 */
  saved = S->active;
  S->active = 0;                                  /* an act, not a dependency */
  lun_env_read(L, unit, 1, LUN_ENV_OPTIONAL, 1);  /* the scene on top (what led to it below) */
  S->active = saved;
  lua_replace(L, 2);                              /* 2 the scene */
  lua_settop(L, 2);
  if (!lua_istable(L, 2)) return 0;
  if (lun_focus_get(L, &lun_key_focus, 2) != LUA_TTABLE) return 0;   /* 3: no state holds it */
  lua_pushnil(L);
  lun_focus_put(L, &lun_key_focus, 2);
  lun_focus_let_go(L, 3);
  return 0;
}

/* The walker's part for a TextField or SecureField with no :focused: a
 * setter, so node:focus() and typing into it take the focus from the
 * scene's focus state (lun_focus_unbound). [-0, +0] */
void lun_focus_walk_unbound(lua_State *L, lun_Walk *W) {
  lua_pushinteger(L, W->unit);
  lua_pushcclosure(L, lun_focus_unbound, 1);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  lun_enabled_slot(L, W, LUN_ROLE_FOCUS, W->slots);
}

/* Moves focus through the binding at bidx to the value at vidx, as a
 * person does to a field (unit, its name at pidx; unit 0: none named):
 * the scene's focus first, then the binding. [-0, +0] */
static void lun_focus_write_field(lua_State *L, int bidx, int vidx, int32_t unit, int pidx) {
  bidx = lua_absindex(L, bidx);
  vidx = lua_absindex(L, vidx);
  if (unit) pidx = lua_absindex(L, pidx);
  lun_binding_target(L, bidx);
  lun_focus_claim_field(L, -2, -1, vidx, unit, pidx);
  lua_pop(L, 2);
  lun_binding_set(L, bidx, vidx);
}

/* Moves focus through the binding at bidx to the value at vidx. [-0, +0] */
void lun_focus_write(lua_State *L, int bidx, int vidx) {
  lun_focus_write_field(L, bidx, vidx, 0, 0);
}

/* A field's focus setter: () -> (), node:focus(). Upvalues: binding,
 * value, the field's unit and number. */
static int lun_focus_set(lua_State *L) {
  lun_focus_write_field(L, lua_upvalueindex(1), lua_upvalueindex(2), (int32_t)lua_tointeger(L, lua_upvalueindex(3)),
                        lua_upvalueindex(4));
  return 0;
}

/* 1 if the scene's holder of the state the binding at bidx reaches names
 * a field other than (unit, its place at pidx). [-0, +0] */
static int lun_focus_elsewhere(lua_State *L, int bidx, int32_t unit, int pidx) {
  int top = lua_gettop(L), elsewhere = 0;
  bidx = lua_absindex(L, bidx);
  pidx = lua_absindex(L, pidx);
  lun_binding_target(L, bidx);                    /* top + 1 target, top + 2 key */
  lun_focus_scene(L, top + 1);                    /* top + 3 */
  lun_focus_get(L, &lun_key_focus, top + 3);      /* top + 4: the holder */
  if (lun_focus_is(L, top + 4, top + 1, top + 2) && lua_rawgeti(L, top + 4, 4) != LUA_TNIL) {
    lua_rawgeti(L, top + 4, 5);                   /* a number: named by a setter, not placed yet */
    elsewhere = lua_tointeger(L, -2) != unit || (lua_type(L, -1) == LUA_TSTRING && !lua_rawequal(L, -1, pidx));
  }
  lua_settop(L, top);
  return elsewhere;
}

/* A field showing its state's value left the tree (its onDisappear):
 * () -> (). If its state still holds that value, and names no other field
 * of it, no field has focus: nil, or false for a Bool one. Upvalues:
 * binding, value, the field's unit and place. */
static int lun_focus_gone(lua_State *L) {
  lun_binding_get(L, lua_upvalueindex(1));
  if (!lun_focus_same(L, -1, lua_upvalueindex(2), 0)) return 0;
  if (lun_focus_elsewhere(L, lua_upvalueindex(1), (int32_t)lua_tointeger(L, lua_upvalueindex(3)),
                          lua_upvalueindex(4))) return 0;   /* another field of that value has it */
  if (lua_isboolean(L, lua_upvalueindex(2))) lua_pushboolean(L, 0); else lua_pushnil(L);
  lun_focus_write(L, lua_upvalueindex(1), -1);
  return 0;
}

/* A field showing its state's value (binding at bidx, value at vidx), at
 * the place at pidx in the walk's output, the number-th :focused field of
 * the walk: 1 if it is the focused one — the scene's holder names it (by
 * its place, or by its number, then by its place from now on), or holds
 * that value naming no field yet (set by code: this field, the first
 * rendered, takes the name). [-0, +0] */
static int lun_focus_mine(lua_State *L, lun_Walk *W, int bidx, int vidx, int pidx, int number) {
  int top = lua_gettop(L), mine = 1;
  bidx = lua_absindex(L, bidx);
  vidx = lua_absindex(L, vidx);
  pidx = lua_absindex(L, pidx);
  lun_binding_target(L, bidx);                    /* top + 1 target, top + 2 key */
  lun_focus_scene(L, top + 1);                    /* top + 3 */
  lun_focus_get(L, &lun_key_focus, top + 3);      /* top + 4: the holder */
  if (lun_focus_is(L, top + 4, top + 1, top + 2) && lua_rawgeti(L, top + 4, 3) != LUA_TNIL && lun_focus_same(L, -1, vidx, W->unit)) {
    if (lua_rawgeti(L, top + 4, 4) == LUA_TNIL) {
      lua_pushinteger(L, W->running);
      lua_rawseti(L, top + 4, 4);
      lua_pushvalue(L, pidx);
      lua_rawseti(L, top + 4, 5);
    } else if (lua_rawgeti(L, top + 4, 5) == LUA_TNUMBER) {     /* named by its setter */
      mine = lua_tointeger(L, -2) == W->running && lua_tointeger(L, -1) == number;
      if (mine) {
        lua_pushvalue(L, pidx);
        lua_rawseti(L, top + 4, 5);
      }
    } else {
      mine = lua_tointeger(L, -2) == W->running && lua_rawequal(L, -1, pidx);
    }
  }
  lua_settop(L, top);
  return mine;
}

/* 1 if a view of kind can hold focus: not a Text, an Image, a Spacer, an
 * EmptyView, a Divider or a ProgressView, which take no input (SwiftUI
 * focuses "the element in the display [that] receives the next input",
 * https://developer.apple.com/documentation/swiftui/focus). */
static int lun_focus_takes(int kind) {
  return kind != LUN_VIEW_TEXT && kind != LUN_VIEW_IMAGE && kind != LUN_VIEW_SPACER && kind != LUN_VIEW_EMPTY &&
         kind != LUN_VIEW_DIVIDER && kind != LUN_VIEW_PROGRESS;
}

/* The walker's part: reports :focused(binding, value) of the open node of
 * kind (record at fidx): whether it is focused (a tracked read of the
 * binding), a setter for node:focus(), and, while focused, an onDisappear
 * that clears the state if the field leaves the tree. A view that takes no
 * input, or a disabled one (D09), is never focused: its state's value, if
 * no other field has it, becomes nil after the update (lun_focus_settle). */
void lun_focus_walk(lua_State *L, lun_Walk *W, int fidx, int kind) {
  int equal, focused, place, number = ++W->focusFields;
  size_t plen;
  const char *path;
  fidx = lua_absindex(L, fidx);
  if (!lua_istable(L, fidx)) luaL_error(L, "a view value was altered: its field 'focus' holds what Lunette did not put there");
  lua_rawgeti(L, fidx, 1);
  if (!lun_binding_test(L, -1))
    luaL_error(L, "a view value was altered: its field 'focus' holds what Lunette did not put there");
  lua_rawgeti(L, fidx, 2);
  lun_binding_get(L, -2);
  equal = lun_focus_same(L, -1, -2, W->unit) && lun_focus_takes(kind) && lun_enabled_now(L, W);
  lua_pop(L, 1);
  if (equal) {                                    /* its place: its name, with its unit */
    path = lun_out_path(L, &plen);
    lua_pushlstring(L, path, plen);
  } else lua_pushnil(L);
  place = lua_gettop(L);
  lua_insert(L, place - 2);                       /* place, binding, value */
  place -= 2;
  if (equal) lun_focus_seen(L, lua_gettop(L) - 1, lua_gettop(L));
  focused = equal && lun_focus_mine(L, W, lua_gettop(L) - 1, lua_gettop(L), place, number);
  lun_out_attr(L, "focused", 7, focused ? "true" : "false", focused ? 4 : 5);
  if (equal && W->life) {                         /* kept while it shows the value, focused or not */
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, LUN_ON_DISAPPEAR);
    lua_rawseti(L, -2, LUN_LIFE_KIND);
    lua_pushvalue(L, -3);
    lua_pushvalue(L, -3);
    lua_pushinteger(L, W->running);
    lua_pushvalue(L, place);
    lua_pushcclosure(L, lun_focus_gone, 4);
    lua_rawseti(L, -2, LUN_LIFE_FN);
    lun_life_add(L, W->life);
    lua_pop(L, 1);
  }
  if (!lun_focus_takes(kind)) { lua_settop(L, place - 1); return; }   /* node:focus() finds nothing to focus there */
  lua_pushinteger(L, W->running);
  lua_pushinteger(L, number);
  lua_pushcclosure(L, lun_focus_set, 4);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  lua_settop(L, place - 1);
  lun_enabled_slot(L, W, LUN_ROLE_FOCUS, W->slots);
}
