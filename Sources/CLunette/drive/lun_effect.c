/*
 * lun_effect.c — ui.effect(fn): fn runs now, then again after each change
 * to what it read, until effect:cancel() or ui.reset().
 *
 * Effects are C's (issue 17, item 2): an effect is a slot here, a graph
 * node (LUN_ORIGIN_EFFECT, its owner the slot) and its function in the
 * registry. A change the graph propagates to it queues its node on the
 * graph's own effect queue (lun_graph_next_effect), not the scheduler's;
 * each round of a flush runs the queued effects before the round's views,
 * in the order they became pending (lun_flush.c). Swift does no work for
 * an effect: it hears of one only when a run fails or is stopped
 * (inspect.effect_failed) and, while tracing, when one runs (trace.effect_ran).
 *
 * An effect runs at most runLimit times in one round (the host's render
 * loop limit): one that keeps changing what it reads is stopped there and
 * reported, and runs again after the next change. One its budget stopped
 * does not run again in that flush; a change that reached it meanwhile runs
 * it at the next (lun_graph_hold's `missed`), as a view's does. A check that finds
 * nothing it read changed is no run (others' changes may reach it many
 * times in a round); one checked runLimit times in a round waits for the
 * next round instead (`deferred`: still pending, not lost), so computeds
 * that write each other's inputs again and again to the same values end
 * with the flush's rounds (the host reports that); put off past the last
 * round, it is stopped until the next change (lun_graph_unstick). An effect cancelled while its update
 * is under way (by a computed its check recomputes, or by itself before a
 * retry) does not run again: lun_update asks lun_effect_script first. A slot is reused once
 * its effect is cancelled; a handle names its slot and the slot's
 * generation, so a handle of a cancelled effect never cancels another.
 */
#include "core/core.h"
#include "drive/drive.h"
#include <stdio.h>
#include <stdlib.h>

#define LUN_MT_EFFECT "lunette.Effect"

/* The most effects a runtime keeps at once (a bound on what C allocates for scripts). */
#define LUN_EFFECTS_MAX (1 << 24)

typedef struct lun_Effect {
  int32_t node;        /* its graph node; 0: the slot is free */
  int32_t ref;         /* registry ref of its function */
  uint32_t generation; /* moves on each time the slot is freed */
  uint32_t round;      /* the round its runs are counted in (lun_State.round) */
  int32_t runs;        /* its runs in that round */
  int32_t checks;      /* its checks in that round that found nothing changed */
  uint32_t deferred;   /* the round it was put off to the next one from (deferred list), or round - 1 */
  int32_t held;        /* stopped, on the held list: pending (a write stops at it) until the flush ends */
  uint32_t carriedFlush;   /* the last flush it was carried from (lun_State.flushes) */
  int32_t stopped;     /* stopped in that round (the limit) or flush (its budget): not run again in it */
  uint32_t stoppedFlush;   /* the last flush its budget stopped it in (lun_State.flushes) */
  int32_t nextFree;    /* the next free slot, when free */
  int32_t script;      /* the list of the script's run it is the work of (lun_script_adopt), 0 if none */
} lun_Effect;

struct lun_Effects {
  lun_Effect *slots;   /* slot i is slots[i - 1] */
  int32_t count, capacity, firstFree;
  lun_Ids deferred;    /* nodes put off to the next round (each effect at most once a round) */
  lun_Ids held;        /* nodes of effects stopped in this flush, left pending until it ends */
};

/* An effect as Lua holds it: its slot and the slot's generation. */
typedef struct lun_EffectHandle {
  int32_t slot;
  uint32_t generation;
} lun_EffectHandle;

/* The effect in slot, or NULL. */
static lun_Effect *lun_effect_at(lun_State *S, int32_t slot) {
  struct lun_Effects *E = S->effects;
  if (!E || slot < 1 || slot > E->count || !E->slots[slot - 1].node) return NULL;
  return &E->slots[slot - 1];
}

/* A free slot (0 if out of memory or past LUN_EFFECTS_MAX). */
static int32_t lun_effect_slot(lun_State *S) {
  struct lun_Effects *E = S->effects;
  if (!E && !(E = S->effects = (struct lun_Effects *)calloc(1, sizeof(struct lun_Effects)))) return 0;
  if (E->firstFree) {
    int32_t slot = E->firstFree;
    E->firstFree = E->slots[slot - 1].nextFree;
    return slot;
  }
  if (E->count == E->capacity) {
    int32_t cap = E->capacity ? E->capacity * 2 : 16;
    lun_Effect *grown;
    if (cap > LUN_EFFECTS_MAX) return 0;
    grown = (lun_Effect *)realloc(E->slots, sizeof(lun_Effect) * (size_t)cap);
    if (!grown) return 0;
    E->slots = grown;
    E->capacity = cap;
  }
  memset(&E->slots[E->count], 0, sizeof(lun_Effect));
  return ++E->count;
}

/* Ends the effect: its node goes (once no walk can hold it), its function
 * is let go, its slot is free for another. [-0, +0] */
static void lun_effect_end(lua_State *L, lun_State *S, int32_t slot) {
  lun_Effect *e = lun_effect_at(S, slot);
  if (!e) return;
  lun_graph_release_later(S->graph, e->node);     /* it may be running: freed between runs */
  luaL_unref(L, LUA_REGISTRYINDEX, e->ref);
  e->node = 0;
  e->ref = LUA_NOREF;
  e->generation++;
  e->nextFree = S->effects->firstFree;
  S->effects->firstFree = slot;
}

static int lun_effect_cancel(lua_State *L);

/* Whether the effect at 1 still runs: (effect) -> boolean. */
static int lun_effect_handle_live(lua_State *L) {
  lun_EffectHandle *h = (lun_EffectHandle *)luaL_checkudata(L, 1, LUN_MT_EFFECT);
  lun_Effect *e = lun_effect_at(lun_state(L), h->slot);
  lua_pushboolean(L, e && e->generation == h->generation);
  return 1;
}

/* ui.effect(fn) -> effect: fn runs now (the flush this starts runs it) and
 * after each flush in which what it read changed. Made by a flush's events
 * (an onAppear, an onChange), it runs in the flush's next round instead:
 * a flush cannot start inside one (it was an error, and SwiftUI's onAppear
 * is where work starts); an error its first run raises is then reported as
 * an effect's, not raised. */
static int lun_ui_effect(lua_State *L) {
  lun_State *S = lun_state(L);
  lun_EffectHandle *h;
  lun_Effect *e;
  int32_t slot, node, script;
  int ref, inEvents;
  lun_check_callback(L, 1);
  lun_no_extra(L, "ui.effect", 1, 0);
  inEvents = !S->rendering && !S->inBody && !S->cancelling && lunh(S->rt, scheduler, flushing);
  if (!inEvents) lun_app_check_idle(L, "ui.effect");
  h = (lun_EffectHandle *)lua_newuserdatauv(L, sizeof(lun_EffectHandle), 0);
  h->slot = 0;
  luaL_setmetatable(L, LUN_MT_EFFECT);
  script = lun_script_adopt(L, -1, lun_effect_cancel, lun_effect_handle_live);   /* a script's run starting it: its work */
  lua_pushvalue(L, 1);
  ref = luaL_ref(L, LUA_REGISTRYINDEX);           /* what may raise comes before the effect exists */
  if (!(slot = lun_effect_slot(S))) {
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
    return luaL_error(L, "not enough memory for another effect");
  }
  e = &S->effects->slots[slot - 1];
  if (!(node = lun_graph_node_new(S->graph, LUN_GRAPH_EFFECT, LUN_ORIGIN_EFFECT, slot, 0))) {
    e->nextFree = S->effects->firstFree;          /* the slot stays free */
    S->effects->firstFree = slot;
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
    return luaL_error(L, "not enough memory for another effect");
  }
  e->ref = ref;
  e->node = node;
  e->round = S->round - 1;
  e->runs = e->checks = e->stopped = 0;
  e->deferred = S->round - 1;
  e->held = 0;
  e->script = script;
  e->carriedFlush = e->stoppedFlush = S->flushes - 1;
  h->slot = slot;
  h->generation = e->generation;
  if (!lun_graph_queue_effect(S->graph, node)) {  /* it could never run: no effect */
    lun_effect_end(L, S, slot);
    h->slot = 0;
    return luaL_error(L, "not enough memory for another effect");
  }
  if (inEvents) return 1;                         /* the flush's next round runs it */
  if (lun_flush_caught(L) != LUA_OK) {            /* it runs now; if that raised, no effect is left */
    lun_effect_end(L, S, slot);                   /* behind that the caller has no handle to */
    h->slot = 0;
    return lua_error(L);
  }
  return 1;
}

/* effect:cancel() -> (): it never runs again (nothing if it ended already). */
static int lun_effect_cancel(lua_State *L) {
  lun_EffectHandle *h = (lun_EffectHandle *)luaL_checkudata(L, 1, LUN_MT_EFFECT);
  lun_State *S = lun_state(L);
  lun_Effect *e = lun_effect_at(S, h->slot);
  if (e && e->generation == h->generation) lun_effect_end(L, S, h->slot);
  h->slot = 0;
  return 0;
}

/* Appends node to a list of the effects' (the graph's id arrays); 0 if out of memory. */
static int lun_effect_list(lun_Ids *list, int32_t node) {
  if (list->count == list->capacity) {
    int32_t cap = list->capacity ? list->capacity * 2 : 16;
    int32_t *grown = (int32_t *)realloc(list->items, sizeof(int32_t) * (size_t)cap);
    if (!grown) return 0;
    list->items = grown;
    list->capacity = cap;
  }
  list->items[list->count++] = node;
  return 1;
}

/* Keeps a stopped effect pending for the rest of the flush (so a write
 * stops at it, as at any pending node) and lists it to be unstuck when the
 * flush ends (lun_effects_end_flush); 0 if out of memory. A change reached
 * it (it was queued): one after a stop by its budget runs it at the next
 * flush; one at its run limit is its own loop's. */
static int lun_effect_hold(lun_State *S, lun_Effect *e, int32_t node) {
  lun_graph_hold(S->graph, node, e->runs < S->runLimit);
  if (!lun_effect_list(&S->effects->held, node)) return 0;
  e->held = 1;
  return 1;
}

/* Puts the effect of node off to the next round (it stays pending); 0 if
 * out of memory (it is checked now). */
static int lun_effect_defer(lun_State *S, lun_Effect *e, int32_t node) {
  if (e->deferred == S->round) return 1;          /* listed already */
  if (!lun_effect_list(&S->effects->deferred, node)) return 0;
  e->deferred = S->round;
  return 1;
}

/* The effect of node, if it is still one (not cancelled), or NULL. */
static lun_Effect *lun_effect_of(lun_State *S, int32_t node) {
  lun_Effect *e;
  if (!lun_graph_is_live(S->graph, node) || S->graph->nodes[node].origin != LUN_ORIGIN_EFFECT) return NULL;
  e = lun_effect_at(S, S->graph->nodes[node].owner);
  return e && e->node == node ? e : NULL;
}

LUN_HOT int32_t lun_effect_script(lun_State *S, int32_t node) {
  lun_Effect *e = lun_effect_of(S, node);
  return e ? e->script : -1;
}

/* Whether the effect of node, taken from the queue, runs now: not if it
 * ended or was stopped this round; past runLimit runs in the round it is
 * stopped and reported, once; past runLimit checks it waits for the next
 * round. Sets *ref to its function's registry ref. */
LUN_HOT int lun_effect_due(lun_State *S, int32_t node, int32_t *ref) {
  lun_Effect *e = lun_effect_of(S, node);
  if (!e) return 0;                               /* cancelled while it waited */
  if (e->round != S->round) {                     /* a stop by its budget holds for the flush */
    e->round = S->round;
    e->runs = e->checks = 0;
    e->stopped = e->stoppedFlush == S->flushes;
  }
  if (!e->stopped && e->runs >= S->runLimit) {
    char text[160];
    e->stopped = 1;
    snprintf(text, sizeof text, "stopped after running %d times in one flush: it keeps changing what it reads",
             (int)S->runLimit);
    lunh(S->rt, inspect, effect_failed, text, strlen(text));
  }
  if (e->stopped) {                               /* held pending till the flush ends (lun_graph_hold) */
    if (!e->held && !lun_effect_hold(S, e, node)) lun_graph_unstick(S->graph, node);   /* (out of memory: now) */
    return 0;
  }
  if (e->checks >= S->runLimit && lun_effect_defer(S, e, node)) return 0;   /* still pending: next round */
  *ref = e->ref;
  return 1;
}

/* The update of node's effect ended with status (LUN_UNIT_*): counted. */
LUN_HOT void lun_effect_ended(lun_State *S, int32_t node, int status) {
  lun_Effect *e = lun_effect_of(S, node);
  if (!e) return;                                 /* it cancelled itself */
  if (status == LUN_UNIT_STOPPED) {               /* by its budget: not again this flush, reported once */
    e->stopped = 1;
    e->stoppedFlush = S->flushes;
  }
  else if (status == LUN_UNIT_SKIPPED) e->checks++;   /* a check that found nothing changed is no run */
  else e->runs++;
}

LUN_HOT void lun_effects_round(lun_State *S) {
  struct lun_Effects *E = S->effects;
  int32_t i;
  if (!E || !E->deferred.count) return;
  for (i = 0; i < E->deferred.count; i++)          /* out of memory: left off the queue, as a change that */
    lun_graph_requeue_effect(S->graph, E->deferred.items[i]);   /* could not be queued */
  E->deferred.count = 0;
}

LUN_HOT void lun_effects_end_flush(lun_State *S) {
  struct lun_Effects *E = S->effects;
  int32_t i;
  S->effectsCarried = 0;
  if (!E) return;
  for (i = 0; i < E->deferred.count; i++) lun_graph_unstick(S->graph, E->deferred.items[i]);
  E->deferred.count = 0;
  for (i = 0; i < E->held.count; i++) {            /* stopped in this flush: the next change runs them, */
    lun_Effect *e = lun_effect_of(S, E->held.items[i]);  /* or the next flush if one reached them meanwhile */
    if (e) e->held = 0;
    if (lun_graph_release(S->graph, E->held.items[i]) && e) {
      /* carried into this flush, or LUN_CARRY_STREAK flushes in a row carried: a loop that feeds
       * itself (or others, by turns) would make flush after flush — the next change runs it */
      if (e->carriedFlush == S->flushes - 1u || S->carryStreak >= LUN_CARRY_STREAK) {
        lun_graph_unstick(S->graph, E->held.items[i]);
        continue;
      }
      e->carriedFlush = S->flushes;
      e->deferred = S->round - 1;
      if (lun_effect_defer(S, e, E->held.items[i])) S->effectsCarried++;
      else lun_graph_unstick(S->graph, E->held.items[i]);   /* out of memory: the next change */
    }
  }
  E->held.count = 0;
}

LUN_HOT int lun_effects_waiting(const lun_State *S) {
  return S->graph->effectsHead < S->graph->effects.count || (S->effects && S->effects->deferred.count > 0);
}

void lun_effects_reset(lua_State *L) {
  lun_State *S = lun_state(L);
  int32_t slot;
  if (!S->effects) return;
  for (slot = 1; slot <= S->effects->count; slot++) lun_effect_end(L, S, slot);
  S->effects->deferred.count = S->effects->held.count = 0;
}

void lun_effects_free(lun_State *S) {
  if (!S->effects) return;
  free(S->effects->slots);
  free(S->effects->deferred.items);
  free(S->effects->held.items);
  free(S->effects);
  S->effects = NULL;
}

void lun_open_effect(lua_State *L) {
  static const luaL_Reg effect[] = {{"cancel", lun_effect_cancel}, {NULL, NULL}};
  lun_newmetatable_methods(L, LUN_MT_EFFECT, effect);
  lun_handle_kind(L, LUN_MT_EFFECT, lun_effect_cancel);   /* ends with a view's state holding it */
  lua_pushcfunction(L, lun_ui_effect);
  lua_setfield(L, -2, "effect");
}
