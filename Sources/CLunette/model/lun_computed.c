/*
 * lun_computed.c — computed properties: memoised, pulled when read.
 *
 * The Swift graph walks a pending computed's dependencies without recursion
 * and names the nodes to recompute; this file runs their Lua functions.
 *
 * Lua allows ~200 nested C calls, and a computed that reads a never-evaluated
 * computed nests (its __index runs the other's function). Past
 * LUN_MAX_COMPUTE_DEPTH nested evaluations the read raises a private
 * "suspend" value instead; the outermost read catches it, evaluates the
 * deepest node first from the top, then retries. Chains of any length need
 * bounded C stack (the trampoline).
 */
#include "core/core.h"
#include "model/model.h"
/* How many computed evaluations may nest on the C stack before the
 * trampoline unwinds (Lua allows ~200 nested C calls; each level uses ~3). */
#define LUN_MAX_COMPUTE_DEPTH 32

#include <ctype.h>
#include <stdlib.h>

/* Raises the suspend value (never seen by scripts: the outermost read catches it). */
static int lun_suspend(lua_State *L) {
  lua_pushlightuserdata(L, (void *)&lun_key_suspend);
  return lua_error(L);
}

/* Pushes the instance metatable and the computed functions of the object
 * at objidx, then the Lua function of computed property slot and the
 * object, ready for the call. [-0, +4] */
static void lun_computed_function(lua_State *L, int objidx, int32_t slot) {
  lua_getmetatable(L, objidx);
  lua_rawgeti(L, -1, LUN_META_COMPUTEDS);
  lua_rawgeti(L, -1, slot);                       /* mt, computeds, fn */
  lua_pushvalue(L, objidx);                       /* fn, object */
}

/* Replaces the object at objidx (the top) by the message "computed property
 * 'x' of Book#1 depends on itself". [-1, +1] */
static void lun_computed_cycle(lua_State *L, int objidx, int32_t slot) {
  lua_getmetatable(L, objidx);
  lua_getfield(L, -1, "__info");
  lua_getfield(L, -1, "names");
  lua_rawgeti(L, -1, slot);
  lun_object_push_id(L, objidx);
  luaL_where(L, 1);
  lua_pushfstring(L, "%scomputed property '%s' of %s depends on itself", lua_tostring(L, -1),
                  lua_tostring(L, -3), lua_tostring(L, -2));
  lua_replace(L, objidx);
  lua_settop(L, objidx);
}

/* 1 if s begins with what this file writes of a computed: "computed
 * property 'x' of Book#1" and then ": " (a blame) or " depends on itself"
 * (a cycle). [-0, +0] */
static int lun_computed_naming(const char *s) {
  const char *p;
  if (strncmp(s, "computed property '", 19) != 0 || !(p = strstr(s + 19, "' of ")) || memchr(s, '\n', (size_t)(p - s)))
    return 0;
  p += 5;
  while (*p && *p != ' ' && *p != ':' && *p != '\n') p++;   /* the object's id: "Book#1" */
  return strncmp(p, ": ", 2) == 0 || strncmp(p, " depends on itself", 18) == 0;
}

/* 1 if msg names a computed already: an inner computed's blame, or a
 * cycle's message after its place ("file:12: computed property 'x' of
 * Book#1 depends on itself") — not a script's own text that happens to
 * hold the words ("computed property 'q' is odd"). */
static int lun_computed_named(const char *msg) {
  const char *p;
  if (lun_computed_naming(msg)) return 1;
  if (!(p = strstr(msg, ": computed property '")) || p == msg || !isdigit((unsigned char)p[-1])) return 0;
  return lun_computed_naming(p + 2);
}

/* Prefixes the error message on top with the computed's name:
 * "computed property 'x' of Book#1: ...", once (a message naming a
 * computed already is kept). [-1, +1] */
static void lun_computed_blame(lua_State *L, int objidx, int32_t slot) {
  if (lun_computed_named(lua_tostring(L, -1))) return;
  lua_getmetatable(L, objidx);
  lua_getfield(L, -1, "__info");
  lua_getfield(L, -1, "names");
  lua_rawgeti(L, -1, slot);
  lun_object_push_id(L, objidx);
  lua_pushfstring(L, "computed property '%s' of %s: %s", lua_tostring(L, -2), lua_tostring(L, -1), lua_tostring(L, -6));
  lua_replace(L, -7);
  lua_pop(L, 5);
}

/* Runs computed node's function and stores its value; the serial -> object
 * table is at objects. On failure leaves the error value on the stack and
 * returns 0. [-0, +0 | +1 on failure] */
static int lun_recompute(lua_State *L, lun_State *S, int32_t node, int objects) {
  int32_t serial = 0, slot = 0, saved;
  int objidx, status, changed;
  int begun = lun_graph_recompute_begin(S->graph, node, &serial, &slot);   /* 0: it is running (a cycle) */
  if (lua_rawgeti(L, objects, serial) == LUA_TNIL) {   /* its object is gone */
    lua_pop(L, 1);
    if (begun) lun_graph_recompute_end(S->graph, node, 1, 0);
    return 1;
  }
  objidx = lua_gettop(L);
  if (!begun) {
    lun_computed_cycle(L, objidx, slot);
    return 0;
  }
  lun_computed_function(L, objidx, slot);         /* objidx + 3: fn, object */
  saved = S->active;
  S->active = node;
  S->computeDepth++;
  S->inBody++;
  status = lua_pcall(L, 1, 1, 0);
  S->inBody--;
  S->computeDepth--;
  S->active = saved;
  if (status != LUA_OK || S->suspending) {
    lun_graph_recompute_end(S->graph, node, 0, 0);
    if (S->suspending) {                          /* whatever the function made of it (a pcall, an error */
      lua_pop(L, 1);                              /* wrapping it in text): the suspension goes on */
      lua_pushlightuserdata(L, (void *)&lun_key_suspend);
    } else if (lua_type(L, -1) == LUA_TSTRING) lun_computed_blame(L, objidx, slot);
    lua_copy(L, -1, objidx);                      /* the error where the object was */
    lua_settop(L, objidx);
    return 0;
  }
  lua_getiuservalue(L, objidx, slot);             /* result, old */
  changed = !lua_rawequal(L, -1, -2);
  lua_settop(L, -2);
  lua_setiuservalue(L, objidx, slot);
  lua_settop(L, objidx - 1);
  lun_graph_recompute_end(S->graph, node, 1, changed);
  return 1;
}

/* Brings node up to date by recomputing what the graph names. For an effect
 * node, returns 1 as soon as the effect itself is found stale. May raise. */
LUN_HOT int lun_refresh_walk(lua_State *L, lun_State *S, int32_t node, int isEffect) {
  int32_t frame = lun_graph_refresh_frame(S->graph), r = 0;
  int step = lun_graph_refresh_begin(S->graph, node, &r), objects = 0;
  for (; step != LUN_REFRESH_DONE; step = lun_graph_refresh_resume(S->graph, &r)) {
    if (step == LUN_REFRESH_NOMEM) {             /* the walk's stack could not grow */
      lun_graph_refresh_fail(S->graph, frame);
      return luaL_error(L, "not enough memory");
    }
    if (isEffect && r == node) {
      lun_graph_refresh_abort(S->graph, frame);
      if (objects) lua_settop(L, objects - 1);
      return 1;
    }
    if (S->computeDepth >= LUN_MAX_COMPUTE_DEPTH) {
      lun_graph_refresh_abort(S->graph, frame);
      S->suspendNode = r;
      S->suspending = 1;
      return lun_suspend(L);
    }
    if (!objects) {                               /* the serial -> object table, once a walk */
      lua_rawgeti(L, LUA_REGISTRYINDEX, S->objectsRef);
      objects = lua_gettop(L);
    }
    if (!lun_recompute(L, S, r, objects)) {
      if (S->suspending) lun_graph_refresh_abort(S->graph, frame);   /* retried from the top */
      else lun_graph_refresh_fail(S->graph, frame);                  /* F09: it may recover */
      return lua_error(L);
    }
  }
  if (objects) lua_settop(L, objects - 1);
  return 0;
}

/* Protected walk for the trampoline: (node, isEffect) -> stale. */
static int lun_refresh_walk_k(lua_State *L) {
  lua_pushboolean(L, lun_refresh_walk(L, lun_state(L), (int32_t)lua_tointeger(L, 1), lua_toboolean(L, 2)));
  return 1;
}

/* Appends a node to the trampoline's work list, refusing repeats (a cycle). */
static void lun_work_push(lua_State *L, lun_State *S, int32_t node, int base) {
  int i;
  for (i = base; i < S->workCount; i++)
    if (S->work[i] == node) { S->workCount = base; luaL_error(L, "computed properties depend on each other in a cycle"); }
  if (S->workCount == S->workCap) {
    int cap = S->workCap ? S->workCap * 2 : 64;
    int32_t *w = (int32_t *)realloc(S->work, sizeof(int32_t) * (size_t)cap);
    if (!w) { S->workCount = base; luaL_error(L, "not enough memory"); }
    S->work = w;
    S->workCap = cap;
  }
  S->work[S->workCount++] = node;
}

/* The outermost refresh: retries after each suspension, deepest node first. */
static int lun_trampoline(lua_State *L, lun_State *S, int32_t node, int isEffect) {
  int base = S->workCount, stale = 0;
  lun_work_push(L, S, node, base);
  while (S->workCount > base) {
    int isRoot = S->workCount - 1 == base;
    lua_pushcfunction(L, lun_refresh_walk_k);
    lua_pushinteger(L, S->work[S->workCount - 1]);
    lua_pushboolean(L, isRoot && isEffect);
    if (lua_pcall(L, 2, 1, 0) == LUA_OK) {
      if (isRoot) stale = lua_toboolean(L, -1);
      lua_pop(L, 1);
      S->workCount--;
    } else if (S->suspending && lua_touserdata(L, -1) == &lun_key_suspend) {
      lua_pop(L, 1);
      S->suspending = 0;
      lun_work_push(L, S, S->suspendNode, base);
    } else {
      S->workCount = base;
      S->suspending = 0;
      return lua_error(L);
    }
  }
  return stale;
}

/* Brings a computed node up to date (may raise). A unit update catches
 * suspensions itself (and runs again), so only reads outside units need
 * the trampoline's protected call. */
int lun_refresh(lua_State *L, lun_State *S, int32_t node) {
  if (S->suspending) return lun_suspend(L);
  if (S->computeDepth == 0 && !S->inUnit) return lun_trampoline(L, S, node, 0);
  return lun_refresh_walk(L, S, node, 0);
}

/* Protected part of lun_settle: (node) -> (). */
static int lun_settle_k(lua_State *L) {
  lun_trampoline(L, lun_state(L), (int32_t)lua_tointeger(L, 1), 0);
  return 0;
}

/* Evaluates node from the top (after a unit's run was suspended). 0 on error,
 * with the error value on the stack. */
int lun_settle(lua_State *L, lun_State *S, int32_t node) {
  int saved = S->inUnit;
  int status;
  S->inUnit = 0;
  lua_pushcfunction(L, lun_settle_k);
  lua_pushinteger(L, node);
  status = lua_pcall(L, 1, 0, 0);
  S->inUnit = saved;
  return status == LUA_OK;
}

/* Brings computed property prop of o up to date, tracked by the active
 * scope (may raise). [-0, +0] */
LUN_HOT static void lun_computed_pull(lua_State *L, lun_State *S, lun_Object *o, int prop) {
  int32_t n = o->nodes[prop] ? o->nodes[prop] : lun_object_node(L, o, prop, LUN_GRAPH_COMPUTED);
  if (S->suspending) lun_suspend(L);
  if (!lun_graph_computed_read(S->graph, S->active, n)) {   /* fresh: tracked already */
    if (S->active) lun_graph_track(S->graph, S->active, n);  /* kept if the refresh raises: readers hear when it may recover */
    lun_refresh(L, S, n);
    if (S->active) lun_graph_retrack(S->graph, S->active, n);  /* at its new version */
  }
}

/* Reads computed property prop of the object at idx (the pull leaves the
 * stack as it was: idx holds). [-0, +1] */
LUN_HOT int lun_computed_read(lua_State *L, lun_State *S, lun_Object *o, int idx, int prop) {
  lun_computed_pull(L, S, o, prop);
  lua_getiuservalue(L, idx, prop);
  return 1;
}
