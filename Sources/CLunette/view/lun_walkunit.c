/*
 * lun_walkunit.c — the walk's child units: a component view's, and the
 * content of a List or ForEach over data.
 *
 * The host matches each child by its kind, type and key (lun_out_unit); a
 * new one gets its record here (info, inputs, out, self), a kept one is
 * told whether its inputs changed (compared as SwiftUI compares a view's
 * stored properties: equal values, plain tables by their contents) and
 * takes its type's new definition after a reload.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

/* How many entries one comparison of a kept view's inputs may visit: past
 * them the inputs count as changed (the view runs again, as SwiftUI runs a
 * body when it cannot tell) — tables shared along many paths would make it
 * cubic, in the parent's walk, where the hook never fires. */
#define LUN_INPUTS_MOST 65536

/* 1 if the values at a and b are equal as inputs: ==, or plain tables with
 * equal contents (to 4 levels, within LUN_INPUTS_MOST entries: *visits). */
static int lun_inputs_equal_at(lua_State *L, int a, int b, int depth, int *visits) {
  int equal = 1;
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  if (lua_rawequal(L, a, b)) return 1;
  if (lua_type(L, a) != LUA_TTABLE || lua_type(L, b) != LUA_TTABLE || depth > 3)
    return lua_compare(L, a, b, LUA_OPEQ);
  if (lua_getmetatable(L, a)) { lua_pop(L, 1); return lua_compare(L, a, b, LUA_OPEQ); }
  if (lua_getmetatable(L, b)) { lua_pop(L, 1); return 0; }
  lua_pushnil(L);
  while (equal && lua_next(L, a)) {
    if (++*visits > LUN_INPUTS_MOST) { lua_pop(L, 2); return 0; }
    lua_pushvalue(L, -2);
    lua_rawget(L, b);
    luaL_checkstack(L, 8, "comparing inputs");
    equal = lun_inputs_equal_at(L, -1, -2, depth + 1, visits);
    lua_pop(L, 2);
  }
  if (!equal) { lua_pop(L, 1); return 0; }
  lua_pushnil(L);
  while (lua_next(L, b)) {                         /* keys only in b */
    lua_pop(L, 1);
    if (++*visits > LUN_INPUTS_MOST) { lua_pop(L, 1); return 0; }
    lua_pushvalue(L, -1);
    if (lua_rawget(L, a) == LUA_TNIL) { lua_pop(L, 2); return 0; }
    lua_pop(L, 1);
  }
  return 1;
}

/* lun_inputs_equal_at from the top; the walk counts what it visited. */
static int lun_inputs_equal(lua_State *L, lun_Walk *W, int a, int b) {
  int visits = 0, equal = lun_inputs_equal_at(L, a, b, 0, &visits);
  lun_walk_work(L, W, (unsigned)visits);
  return equal;
}

/* Checks that every `binding` input of a component is a Binding. */
static void lun_walk_check_bindings(lua_State *L, int info, int inputs) {
  if (lua_getfield(L, info, "binding") != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_getfield(L, inputs, lua_tostring(L, -1));
    if (!lun_binding_test(L, -1)) {
      lua_getfield(L, info, "name");
      luaL_error(L, "%s: input '%s' must be a Binding (pass self[\"$%s\"]), got %s", lua_tostring(L, -1),
                 lua_tostring(L, -3), lua_tostring(L, -3), luaL_typename(L, -2));
    }
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
}

/* 1 if the two state sections (tables, or nil) declare the same names. */
static int lun_same_state_keys(lua_State *L, int a, int b) {
  int i;
  for (i = 0; i < 2; i++) {
    int from = i ? b : a, to = i ? a : b;
    if (lua_isnil(L, from)) continue;
    if (lua_isnil(L, to)) return 0;
    lua_pushnil(L);
    while (lua_next(L, from)) {
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
      if (lua_rawget(L, to) == LUA_TNIL) { lua_pop(L, 2); return 0; }
      lua_pop(L, 1);
    }
  }
  return 1;
}

/* A kept child whose view type was defined again (a reloaded script) takes
 * the new definition; its state and state objects stay if it declares the
 * same names of each, else both are made anew before its next run. */
static void lun_walk_retype(lua_State *L, int rec, int info, lun_Walk *W, int32_t child) {
  const lun_State *S = lun_state(L);
  int top = lua_gettop(L);
  lun_getkey(L, S, rec, LUN_K_INFO);              /* top + 1 */
  if (lua_rawequal(L, -1, info)) { lua_pop(L, 1); return; }
  lua_getfield(L, top + 1, "state");
  lua_getfield(L, info, "state");
  lua_getfield(L, top + 1, "stateObject");
  lua_getfield(L, info, "stateObject");
  if (!lun_same_state_keys(L, top + 2, top + 3) || !lun_same_state_keys(L, top + 4, top + 5)) {
    lun_life_state_ends(L, rec, child);
    lun_self_unready(L, rec);
    lua_pushnil(L);
    lua_setfield(L, rec, "state");
    lua_pushnil(L);
    lua_setfield(L, rec, "stateObjects");
  }
  lua_settop(L, top);
  lua_pushvalue(L, info);
  lun_setkey(L, S, rec, LUN_K_INFO);
  lun_self_retype(L, rec);
  lun_out_changed(L, child);
}

/* Attaches a child unit to the open node (output.unit); raises if the
 * rendered tree would grow past LUN_MAX_TREE_DEPTH levels across bodies. */
int lun_walk_unit(lua_State *L, lun_Walk *W, int32_t kind, int32_t typeId, const char *key, size_t klen,
                  int32_t *child) {
  int ref = lun_out_unit(L, kind, typeId, key, klen, child);
  if (ref == LUN_TOO_DEEP)
    luaL_error(L, "the rendered tree is more than %d views deep (does a view contain itself without end?)",
               LUN_MAX_TREE_DEPTH);
  return ref;
}

/* Replaces the view type's info at info by the one a reload defined in its
 * place (info.replacedBy, lun_viewtype.c), the latest of them: at most 64
 * reloads are followed. [-0, +0] */
static void lun_walk_latest(lua_State *L, int info) {
  int hops;
  if (!lun_state(L)->superseded) return;          /* no reload superseded a type: a mount pays nothing */
  for (hops = 0; hops < 64; hops++) {
    if (lua_getfield(L, info, "replacedBy") != LUA_TTABLE) { lua_pop(L, 1); return; }
    lua_replace(L, info);
  }
}

/* Matches or creates the child unit of a component view value at v. */
void lun_walk_component(lua_State *L, lun_Walk *W, int v) {
  size_t klen = 0;
  const char *key = NULL;
  int32_t child = 0;
  int ref, info, inputs;
  const lun_State *S = lun_state(L);
  lun_getkey(L, S, v, LUN_K_TYPE);
  if (!lun_viewtype_test(L, -1)) lun_walk_altered(L, "type");
  lua_getiuservalue(L, -1, 1);
  info = lua_gettop(L);
  lun_walk_latest(L, info);                       /* a value the old code built renders with the reloaded body */
  if (lun_getkey(L, S, v, LUN_K_INPUTS) != LUA_TTABLE) lun_walk_altered(L, "inputs");
  inputs = lua_gettop(L);
  lun_walk_check_bindings(L, info, inputs);
  if (lun_getkey(L, S, v, LUN_K_IDENTITY) != LUA_TNIL) {
    lun_explicit_key(L, -1);
    key = lua_tolstring(L, -1, &klen);
  }
  if (!key) {
    if (lun_getkey(L, S, v, LUN_K_SITE) == LUA_TNUMBER && !W->root) {  /* a root's value is built once: */
      lua_Integer site = lua_tointeger(L, -1);                          /* no branches to tell apart */
      lun_out_site(L, (int32_t)(site >> 32), (int32_t)(site & 0x7fffffff));   /* its file part, its line (lun_site.c) */
    }
    lua_pop(L, 1);
  } else lua_remove(L, -2);                       /* the identity; its key's string stays: key points into it */
  lun_getkey(L, S, info, LUN_K_ID);
  ref = lun_walk_unit(L, W, LUN_UNIT_COMPONENT, (int32_t)lua_tointeger(L, -1), key, klen, &child);
  if (ref == 0) {
    lua_createtable(L, 0, 4);                     /* info, inputs, out, self (its unit in self, its
                                                     type's methods in info): four slots, not eight */
    lua_pushvalue(L, info);
    lun_setkey(L, S, -2, LUN_K_INFO);
    lua_pushvalue(L, inputs);
    lun_setkey(L, S, -2, LUN_K_INPUTS);
    lun_walk_empty_out(L);                        /* the shared empty one until its first run stores */
    lun_setkey(L, S, -2, LUN_K_OUT);
    lun_self_create(L, -1, child);
    lua_pop(L, 1);
    lun_out_record(L, child);
  } else {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lun_walk_retype(L, lua_gettop(L), info, W, child);
    lun_getkey(L, S, -1, LUN_K_INPUTS);
    if (!lun_inputs_equal(L, W, -1, inputs)) {
      lua_pushvalue(L, inputs);
      lun_setkey(L, S, -3, LUN_K_INPUTS);
      lun_out_changed(L, child);
    }
  }
  lua_settop(L, info - 2);
}

/* Matches or creates the content unit of a List/ForEach over data. */
void lun_walk_rows(lua_State *L, lun_Walk *W, int v) {
  static const char *const fields[] = {"data", "row", "lazy", "selection", "deleteAction", "moveAction"};
  int32_t child = 0;
  int i, ref = lun_walk_unit(L, W, LUN_UNIT_LIST, 0, NULL, 0, &child);
  if (ref == 0) {
    lua_createtable(L, 0, 4);
    lua_newtable(L);
    lua_setfield(L, -2, "out");
    lua_pushinteger(L, child);                    /* it reads the environment (editMode) from its unit */
    lua_setfield(L, -2, "unit");
    for (i = 0; i < 6; i++) { lun_rawfield(L, v, fields[i]); lua_setfield(L, -2, fields[i]); }
    lun_out_record(L, child);
    return;
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  for (i = 0; i < 6; i++) {
    lun_rawfield(L, v, fields[i]);
    lua_getfield(L, -2, fields[i]);
    if (!lua_rawequal(L, -1, -2)) {
      lua_pop(L, 1);
      lua_setfield(L, -2, fields[i]);
      lun_out_changed(L, child);
    } else lua_pop(L, 2);
  }
  lua_pop(L, 1);
}
