/*
 * lun_completion.c — when withAnimation's completion runs (D05), as
 * SwiftUI's withAnimation(_:completionCriteria:_:completion:) and
 * AnimationCompletionCriteria
 * (https://developer.apple.com/documentation/swiftui/animationcompletioncriteria).
 *
 * The body runs with the graph logging what it changed (lun_graph's log);
 * a view that reads what changed (directly or through computeds) renders
 * again in the transaction, so it animates.
 *   - Nothing a view reads changed (nothing, or only what no view reads,
 *     or only what effects read), or the animation is nil: nothing
 *     animates, and the completion runs "immediately after body"
 *     (https://developer.apple.com/documentation/swiftui/transaction/addanimationcompletion(criteria:_:)),
 *     before ui.withAnimation returns; an error it raises is raised there.
 *   - .logicallyComplete (the default): after the animation's duration.
 *   - .removed: when the animation is removed — after its duration, and
 *     after every later animation of the same property (a signal it
 *     changed) that began before it ended: each animation that made a view
 *     stale records, per signal it changed, when it ends (out of the
 *     registry table animEnds: node -> clock time), and the completion
 *     checks them when it falls due, waiting again while a later one runs.
 *   - Views read what changed, but a :transaction around them may take the
 *     animation away (t.animation = nil), or their own :animation(nil,
 *     value) ("If animation is nil, the view doesn't animate",
 *     https://developer.apple.com/documentation/swiftui/view/animation(_:value:)):
 *     whether anything animated is known only when they render. Once some
 *     view has used :transaction or :animation(nil, value),
 *     such a completion waits for the flush (lun_completion_settle): the
 *     walk tells which transactions reached a node, and with an animation
 *     or not (lun_completion_animated); one whose runs reached nodes only
 *     with the animation taken away completes right after that update, the
 *     others after the rest of their duration. (A transaction whose views
 *     were stale already, made so by an earlier one, has no run of its
 *     own: it counts as animating, as before.)
 */
#include "core/core.h"
#include "life/life.h"

static const char lun_key_animends = 0, lun_key_pending = 0, lun_key_pendingtx = 0;

/* ui.reset: no effect stays, and the clock starts again from 0. [-0, +0] */
void lun_completion_forget(lua_State *L) {
  lun_state(L)->completionsPending = 0;
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_pending);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_pendingtx);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_animends);
}

/* 1 if the effect node id is a view's unit (not a ui.effect's: those are
 * LUN_ORIGIN_EFFECT). [-0, +0] */
static int lun_completion_is_view(const lun_Graph *g, int32_t id) {
  return lun_graph_is_live(g, id) && g->nodes[id].origin == LUN_ORIGIN_UNIT;
}

/* The most links lun_completion_reaches_view follows for one body: past
 * it, the body is taken to animate something. */
#define LUN_COMPLETION_WALK 100000

/* 1 if the node id reaches a view's unit through what depends on it
 * (computeds included), following at most *budget links. [-0, +0] */
static int lun_completion_reaches_view(lua_State *L, const lun_Graph *g, int32_t id, int *budget) {
  int top = lua_gettop(L), found = 0;
  lua_Integer sp = 1;
  lua_createtable(L, 8, 0);                       /* the nodes to look through */
  lua_createtable(L, 0, 8);                       /* the nodes seen */
  lua_pushinteger(L, id);
  lua_rawseti(L, top + 1, 1);
  while (sp > 0 && !found) {
    int32_t l, node;
    lua_rawgeti(L, top + 1, sp--);
    node = (int32_t)lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (!lun_graph_is_live(g, node)) continue;
    for (l = g->nodes[node].subs; l && !found; l = g->links[l].nextSub) {
      int32_t sub = g->links[l].sub;
      if (--*budget <= 0) { found = 1; break; }   /* too much to look through: it may animate */
      if (lua_rawgeti(L, top + 2, sub) != LUA_TNIL) { lua_pop(L, 1); continue; }
      lua_pop(L, 1);
      lua_pushboolean(L, 1);
      lua_rawseti(L, top + 2, sub);
      if (g->nodes[sub].kind == LUN_GRAPH_EFFECT) found = lun_completion_is_view(g, sub);
      else {
        lua_pushinteger(L, sub);
        lua_rawseti(L, top + 1, ++sp);
      }
    }
  }
  lua_settop(L, top);
  return found;
}

/* The body of withAnimation, run inside its transaction: calls upvalue 1
 * with the graph logging what it changes, then stores in the table at
 * upvalue 2: nodes = { changed signal ids }, views = true if a view reads
 * one of them (so it renders again, animated). Raises the body's error after.
 * The log is reset before anything after the body allocates: an allocation
 * that raises (memory exhausted) must not leave it full for later bodies.
 * The entries base..end stay readable after the reset: nothing logs while
 * logging is 0, and an outer body (logging > 0) keeps them anyway. */
static int lun_completion_logged(lua_State *L) {
  lun_Graph *g = lun_state(L)->graph;
  int32_t base = g->log.count, end, i, n = 0;
  int status, views = 0, budget = LUN_COMPLETION_WALK;
  lua_settop(L, 0);
  g->logging++;
  lua_pushvalue(L, lua_upvalueindex(1));
  status = lua_pcall(L, 0, 0, 0);                 /* stack: the error, if any */
  g->logging--;
  end = g->log.count;
  if (!g->logging) g->log.count = base;           /* an outer body keeps what this one changed */
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_createtable(L, end > base ? end - base : 0, 0);
  for (i = base; i < end; i++) {
    views = views || lun_completion_reaches_view(L, g, g->log.items[i], &budget);
    lua_pushinteger(L, g->log.items[i]);
    lua_rawseti(L, -2, ++n);
  }
  lua_setfield(L, -2, "nodes");
  lua_pushboolean(L, views);
  lua_setfield(L, -2, "views");
  lua_pop(L, 1);
  if (status != LUA_OK) lua_error(L);
  return 0;
}

/* Pushes the body at fidx wrapped to log what it changes into the table
 * at ridx (lun_completion_logged). [-0, +1] */
void lun_completion_wrap(lua_State *L, int fidx, int ridx) {
  fidx = lua_absindex(L, fidx);
  ridx = lua_absindex(L, ridx);
  lua_pushvalue(L, fidx);
  lua_pushvalue(L, ridx);
  lua_pushcclosure(L, lun_completion_logged, 2);
}

/* Records that the animation described by the table at ridx (nodes) ends
 * at `end` for each signal it changed, unless a later end is known. [-0, +0] */
static void lun_completion_note(lua_State *L, int ridx, double end) {
  lua_Integer i, n;
  lun_registry_table(L, &lun_key_animends);
  lua_getfield(L, ridx, "nodes");
  n = (lua_Integer)lua_rawlen(L, -1);
  for (i = 1; i <= n; i++) {
    lua_Integer node;
    lua_rawgeti(L, -1, i);
    node = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (lua_rawgeti(L, -2, node) == LUA_TNUMBER && lua_tonumber(L, -1) >= end) { lua_pop(L, 1); continue; }
    lua_pop(L, 1);
    lua_pushnumber(L, end);
    lua_rawseti(L, -3, node);
  }
  lua_pop(L, 2);
}

/* The latest end known of an animation of a signal in the list at lidx;
 * forgets the ends that are past. */
static double lun_completion_latest(lua_State *L, int lidx, double now) {
  lua_Integer i, n = (lua_Integer)lua_rawlen(L, lidx);
  double latest = now;
  lun_registry_table(L, &lun_key_animends);
  for (i = 1; i <= n; i++) {
    lua_Integer node;
    lua_rawgeti(L, lidx, i);
    node = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (lua_rawgeti(L, -1, node) == LUA_TNUMBER) {
      double end = lua_tonumber(L, -1);
      if (end > latest) latest = end;
      if (end <= now) {                           /* removed: forget it */
        lua_pushnil(L);
        lua_rawseti(L, -3, node);
      }
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return latest;
}

/* A .removed completion falling due (upvalues: completion, nodes): runs it
 * when no later animation of its signals is still running, else waits for
 * the latest to end. */
static int lun_completion_check(lua_State *L) {
  double now = lunh(lun_state(L)->rt, clock, now), latest;
  latest = lun_completion_latest(L, lua_upvalueindex(2), now);
  if (latest > now) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushcclosure(L, lun_completion_check, 2);
    lun_clock_once(L, -1, latest - now);
    return 0;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_call(L, 0, 0);
  return 0;
}

/* Schedules the completion at cidx to run `after` seconds from now, for
 * criteria `removed` (the signals it changed listed at nidx). [-0, +0] */
static void lun_completion_after(lua_State *L, int cidx, int nidx, double after, int removed) {
  if (!removed) { lun_clock_once(L, cidx, after); return; }
  cidx = lua_absindex(L, cidx);
  nidx = lua_absindex(L, nidx);
  lua_pushvalue(L, cidx);
  lua_pushvalue(L, nidx);
  lua_pushcclosure(L, lun_completion_check, 2);
  lun_clock_once(L, -1, after);
  lua_pop(L, 1);
}

/* After withAnimation's body (what it did in the table at ridx): notes the
 * ends of its animations and schedules the completion at cidx (nil: none)
 * for criteria `removed` (0: logicallyComplete); txid is its transaction. [-0, +0] */
void lun_completion_schedule(lua_State *L, int ridx, int cidx, double duration, int removed, int32_t txid) {
  lun_State *S = lun_state(L);
  double now = lunh(S->rt, clock, now);
  int views;
  ridx = lua_absindex(L, ridx);
  cidx = lua_absindex(L, cidx);
  lua_getfield(L, ridx, "views");
  views = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (views && (S->txSeen || S->animNoneSeen) && txid) {   /* a :transaction, or :animation(nil, value), may take
                                                              the animation away: the flush says */
    lua_createtable(L, 0, 5);
    lua_pushvalue(L, cidx);
    lua_setfield(L, -2, "completion");
    lua_getfield(L, ridx, "nodes");
    lua_setfield(L, -2, "nodes");
    lua_pushnumber(L, now + duration);
    lua_setfield(L, -2, "ends");
    lua_pushboolean(L, removed);
    lua_setfield(L, -2, "removed");
    lun_registry_table(L, &lun_key_pending);      /* in the order made */
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_pop(L, 1);
    lun_registry_table(L, &lun_key_pendingtx);    /* and by transaction, for the walk */
    lua_insert(L, -2);
    lua_rawseti(L, -2, txid);
    lua_pop(L, 1);
    S->completionsPending++;
    return;
  }
  if (views) lun_completion_note(L, ridx, now + duration);
  if (lua_isnil(L, cidx)) return;
  if (!views) {                                   /* nothing animates: right after the body */
    lua_pushvalue(L, cidx);
    lua_call(L, 0, 0);
    return;
  }
  lua_getfield(L, ridx, "nodes");
  lun_completion_after(L, cidx, -1, duration, removed);
  lua_pop(L, 1);
}

/* The walk reached a top-level node of a run in transaction txid, with an
 * animation (animated) or with it taken away: its completion (if one
 * waits) runs after the animation if any such node had one. [-0, +0] */
void lun_completion_animated(lua_State *L, int32_t txid, int animated) {
  lun_registry_table(L, &lun_key_pendingtx);
  if (lua_rawgeti(L, -1, txid) == LUA_TTABLE) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, animated ? "animated" : "reached");
  }
  lua_pop(L, 2);
}

/* At the end of a flush: each completion that waited for it, in the order
 * made, runs right after it (on the clock, now: one an hour of work later
 * is a timer's, its error reported as one's, and what it starts waits for
 * the next update, as a frame's) if its transaction animated no node; the
 * others note when their animation ends and wait for it, by their
 * criteria. [-0, +0] */
LUN_HOT void lun_completion_settle(lua_State *L, lun_State *S) {
  double now;
  lua_Integer i, n;
  int pending;
  if (!S->completionsPending) return;
  now = lunh(S->rt, clock, now);
  lun_registry_table(L, &lun_key_pending);
  pending = lua_gettop(L);
  lua_pushnil(L);                                 /* fresh tables: what settles now may add to them */
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_pending);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_pendingtx);
  S->completionsPending = 0;
  n = (lua_Integer)lua_rawlen(L, pending);
  for (i = 1; i <= n; i++) {
    int entry, animated, removed;
    double ends;
    lua_rawgeti(L, pending, i);
    entry = lua_gettop(L);
    lua_getfield(L, entry, "animated");
    lua_getfield(L, entry, "reached");            /* no run of its own (its views ran in an earlier one's): */
    animated = lua_toboolean(L, -2) || !lua_toboolean(L, -1);   /* they animate, as that one's did */
    lua_getfield(L, entry, "removed");
    removed = lua_toboolean(L, -1);
    lua_getfield(L, entry, "ends");
    ends = lua_tonumber(L, -1);
    lua_getfield(L, entry, "completion");
    lua_getfield(L, entry, "nodes");
    if (animated) {
      lun_completion_note(L, entry, ends);        /* only an animation that ran delays .removed ones */
      if (!lua_isnil(L, -2)) lun_completion_after(L, -2, -1, ends > now ? ends - now : 0, removed);
    } else if (!lua_isnil(L, -2)) lun_clock_once(L, -2, 0);   /* nothing animated: right after this update */
    lua_settop(L, entry - 1);
  }
  lua_pop(L, 1);
}
