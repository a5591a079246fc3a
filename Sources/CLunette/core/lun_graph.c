/*
 * lun_graph.c — the dependency graph (lun_graph.h): storage, runs and
 * tracking, pushing changes, and the refresh walk that pulls a computed up
 * to date without recursion.
 *
 * Pushing: a change bumps the signal's version and marks everything
 * downstream pending — possibly stale. Nothing is recomputed then:
 * computeds are pulled when read, effects are queued for the scheduler,
 * which checks them before running them (an unchanged computed stops the
 * propagation there). Pulling: lun_graph_refresh_begin walks a pending
 * node's dependencies depth-first with an explicit stack and names the
 * next node whose function must run; C runs it and resumes the walk, so a
 * chain of any length needs no C stack.
 */
#include "lun_graph.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Grows *items (of size bytes each) to hold at least need; 0 if out of memory. */
static int lun_graph_grow(void **items, int32_t *capacity, int32_t need, size_t size) {
  int32_t cap = *capacity ? *capacity : 64;
  void *fresh;
  if (need <= *capacity) return 1;
  while (cap < need) {
    if (cap > INT32_MAX / 2) return 0;            /* past 2^30 items: out of memory, not a wrap to 0 */
    cap *= 2;
  }
  fresh = realloc(*items, (size_t)cap * size);
  if (!fresh) return 0;
  memset((char *)fresh + (size_t)*capacity * size, 0, (size_t)(cap - *capacity) * size);
  *items = fresh;
  *capacity = cap;
  return 1;
}

/* Appends v to ids; 0 if out of memory. */
static int lun_ids_push(lun_Ids *ids, int32_t v) {
  if (!lun_graph_grow((void **)&ids->items, &ids->capacity, ids->count + 1, sizeof(int32_t))) return 0;
  ids->items[ids->count++] = v;
  return 1;
}

lun_Graph *lun_graph_new(void) {
  lun_Graph *g = (lun_Graph *)calloc(1, sizeof(lun_Graph));
  if (!g) return NULL;
  g->nodeCount = g->linkCount = 1;                 /* id 0 is "none" */
  if (!lun_graph_grow((void **)&g->nodes, &g->nodeCapacity, 1024, sizeof(lun_GraphNode)) ||
      !lun_graph_grow((void **)&g->links, &g->linkCapacity, 1024, sizeof(lun_GraphLink))) {
    lun_graph_free(g);
    return NULL;
  }
  return g;
}

void lun_graph_free(lun_Graph *g) {
  if (!g) return;
  free(g->nodes);
  free(g->links);
  free(g->walk.items);
  free(g->bases.items);
  free(g->resume.items);
  free(g->pending.items);
  free(g->effects.items);
  free(g->released.items);
  free(g->log.items);
  free(g->resent.items);
  free(g->unstick.items);
  free(g);
}

/* ---- nodes and links ---- */

int32_t lun_graph_node_new(lun_Graph *g, int kind, int origin, int32_t owner, int32_t slot) {
  int32_t id;
  lun_GraphNode *n;
  if (g->freeNode) {
    id = g->freeNode;
    g->freeNode = g->nodes[id].deps;
  } else {
    if (!lun_graph_grow((void **)&g->nodes, &g->nodeCapacity, g->nodeCount + 1, sizeof(lun_GraphNode))) return 0;
    id = g->nodeCount++;
  }
  n = &g->nodes[id];
  memset(n, 0, sizeof(*n));
  n->flags = LUN_GRAPH_LIVE | (kind == LUN_GRAPH_SIGNAL ? LUN_GRAPH_EVALUATED : 0);
  n->kind = (uint8_t)kind;
  n->origin = (uint8_t)origin;
  n->owner = owner;
  n->slot = slot;
  g->liveNodes++;
  return id;
}

LUN_HOT int lun_graph_is_live(const lun_Graph *g, int32_t id) {
  return id > 0 && id < g->nodeCount && (g->nodes[id].flags & LUN_GRAPH_LIVE);
}

/* A link id, reused or new (0 if out of memory). */
static int32_t lun_link_new(lun_Graph *g) {
  if (g->freeLink) {
    int32_t id = g->freeLink;
    g->freeLink = g->links[id].nextDep;
    return id;
  }
  if (!lun_graph_grow((void **)&g->links, &g->linkCapacity, g->linkCount + 1, sizeof(lun_GraphLink))) return 0;
  return g->linkCount++;
}

static void lun_link_recycle(lun_Graph *g, int32_t id) {
  memset(&g->links[id], 0, sizeof(lun_GraphLink));
  g->links[id].nextDep = g->freeLink;
  g->freeLink = id;
}

/* Removes link l from its subscriber's list of dependencies. */
static void lun_link_unlink_dep(lun_Graph *g, int32_t l) {
  lun_GraphLink *k = &g->links[l];
  lun_GraphNode *sub = &g->nodes[k->sub];
  if (k->prevDep) g->links[k->prevDep].nextDep = k->nextDep;
  else if (sub->deps == l) sub->deps = k->nextDep;
  if (k->nextDep) g->links[k->nextDep].prevDep = k->prevDep;
  if (sub->depsTail == l) sub->depsTail = k->prevDep;
}

/* Removes link l from its dependency's list of subscribers. */
static void lun_link_unlink_sub(lun_Graph *g, int32_t l) {
  lun_GraphLink *k = &g->links[l];
  lun_GraphNode *dep = &g->nodes[k->dep];
  if (k->prevSub) g->links[k->prevSub].nextSub = k->nextSub; else dep->subs = k->nextSub;
  if (k->nextSub) g->links[k->nextSub].prevSub = k->prevSub; else dep->subsTail = k->prevSub;
}

/* Drops the dependency links of sub from `first` to the end of its list. */
static void lun_graph_drop_deps(lun_Graph *g, int32_t sub, int32_t first) {
  int32_t l = first, prev;
  if (!l) return;
  prev = g->links[l].prevDep;
  while (l) {
    int32_t next = g->links[l].nextDep;
    lun_link_unlink_sub(g, l);
    lun_link_recycle(g, l);
    l = next;
  }
  if (prev) g->links[prev].nextDep = 0; else g->nodes[sub].deps = 0;
  g->nodes[sub].depsTail = prev;
}

void lun_graph_node_free(lun_Graph *g, int32_t id) {
  int32_t l;
  if (!lun_graph_is_live(g, id)) return;
  lun_graph_drop_deps(g, id, g->nodes[id].deps);
  l = g->nodes[id].subs;
  while (l) {
    int32_t next = g->links[l].nextSub;
    lun_link_unlink_dep(g, l);
    lun_link_recycle(g, l);
    l = next;
  }
  memset(&g->nodes[id], 0, sizeof(lun_GraphNode));
  g->nodes[id].deps = g->freeNode;
  g->freeNode = id;
  g->liveNodes--;
}

void lun_graph_release_later(lun_Graph *g, int32_t id) {
  if (!lun_ids_push(&g->released, id)) lun_graph_node_free(g, id);   /* out of memory: now, then */
}

LUN_HOT void lun_graph_free_released(lun_Graph *g) {
  while (g->released.count > 0) lun_graph_node_free(g, g->released.items[--g->released.count]);
}

/* ---- runs and tracking ---- */

LUN_HOT void lun_graph_run_begin(lun_Graph *g, int32_t sub) {
  lun_GraphNode *n = &g->nodes[sub];
  n->depsTail = 0;
  n->epoch = ++g->epoch;
  n->flags = (uint16_t)((n->flags | LUN_GRAPH_COMPUTING) & ~(LUN_GRAPH_PENDING | LUN_GRAPH_HELD | LUN_GRAPH_MISSED));
}

LUN_HOT void lun_graph_run_end(lun_Graph *g, int32_t sub, int ok) {
  lun_GraphNode *n = &g->nodes[sub];
  int32_t stale = n->depsTail ? g->links[n->depsTail].nextDep : n->deps, l;
  /* A run depends on what it read, a failed one too (F09: what it read
   * before the error). One that failed before its first read keeps what its
   * last run read: it failed for a cause it did not read (a flag, the C
   * stack or memory at their limits, its budget), and a change to what it
   * read last runs it again, so it recovers. (Keeping the rest of the last
   * run's reads after a failure past them would grow the list with each
   * run that reads in another order, and run it again for what it no
   * longer reads: a hostile read.) */
  if (stale && (ok || n->depsTail)) lun_graph_drop_deps(g, sub, stale);
  n = &g->nodes[sub];
  n->flags = (uint16_t)((n->flags & ~LUN_GRAPH_COMPUTING) | LUN_GRAPH_EVALUATED);
  if (!ok && n->kind == LUN_GRAPH_COMPUTED) n->flags &= (uint16_t)~LUN_GRAPH_EVALUATED;
  /* A run (of a unit or a computed, failed or not: a pcall may have caught
   * it) remembers the computeds it read that raised (left unevaluated) as
   * seen at no version: the next change that reaches them runs it again,
   * even if they come back with the value they had before they raised (F09). */
  for (l = n->deps; l; l = g->links[l].nextDep) {
    const lun_GraphNode *d = &g->nodes[g->links[l].dep];
    if (d->kind == LUN_GRAPH_COMPUTED && !(d->flags & LUN_GRAPH_EVALUATED)) g->links[l].version = d->version - 1u;
  }
}

LUN_HOT void lun_graph_track(lun_Graph *g, int32_t sub, int32_t dep) {
  lun_GraphNode *s = &g->nodes[sub], *d = &g->nodes[dep];
  int32_t tail = s->depsTail, next, last, l;
  if (sub == dep) return;                         /* a computed reading itself (a cycle, reported): no loop in the graph */
  if (tail && g->links[tail].dep == dep) return;  /* the same read again */
  next = tail ? g->links[tail].nextDep : s->deps;
  if (next && g->links[next].dep == dep) {        /* the previous run's next read: reuse its link */
    g->links[next].version = d->version;
    g->links[next].epoch = s->epoch;
    s->depsTail = next;
    return;
  }
  last = d->subsTail;                             /* read earlier in this run */
  if (last && g->links[last].sub == sub && g->links[last].epoch == s->epoch) return;
  if (!(l = lun_link_new(g))) return;             /* out of memory: the read goes untracked */
  s = &g->nodes[sub];
  d = &g->nodes[dep];
  g->links[l].dep = dep;
  g->links[l].sub = sub;
  g->links[l].prevDep = tail;
  g->links[l].nextDep = next;
  g->links[l].prevSub = d->subsTail;
  g->links[l].nextSub = 0;
  g->links[l].version = d->version;
  g->links[l].epoch = s->epoch;
  if (next) g->links[next].prevDep = l;
  if (tail) g->links[tail].nextDep = l; else s->deps = l;
  if (d->subsTail) g->links[d->subsTail].nextSub = l; else d->subs = l;
  d->subsTail = l;
  s->depsTail = l;
}

LUN_HOT void lun_graph_retrack(lun_Graph *g, int32_t sub, int32_t dep) {
  int32_t tail = g->nodes[sub].depsTail;
  if (tail && g->links[tail].dep == dep) g->links[tail].version = g->nodes[dep].version;
  else lun_graph_track(g, sub, dep);
}

int lun_graph_run_has_read(const lun_Graph *g, int32_t sub, int32_t dep) {
  uint32_t epoch = g->nodes[sub].epoch;
  int32_t l;
  for (l = g->nodes[dep].subs; l; l = g->links[l].nextSub)
    if (g->links[l].sub == sub && g->links[l].epoch == epoch) return 1;
  return 0;
}

/* ---- pushing changes ---- */

/* Whether a change inside a transaction walks through node s, which is
 * pending already: once per transaction (marked, and listed to be unmarked
 * when it ends; out of memory: not walked, as outside one). */
static int lun_graph_resend(lun_Graph *g, lun_GraphNode *n, int32_t s) {
  if (!g->transacting || (n->flags & LUN_GRAPH_RESENT) || !lun_ids_push(&g->resent, s)) return 0;
  n->flags |= LUN_GRAPH_RESENT;
  return 1;
}

void lun_graph_transaction(lun_Graph *g, int open) {
  int32_t i;
  for (i = 0; i < g->resent.count; i++) g->nodes[g->resent.items[i]].flags &= (uint16_t)~LUN_GRAPH_RESENT;
  g->resent.count = 0;
  g->transacting = open;
}

LUN_HOT void lun_graph_changed(lun_Graph *g, int32_t node) {
  int32_t l;
  if (!lun_graph_is_live(g, node)) return;
  g->changes++;
  if (g->logging && g->log.count < LUN_GRAPH_LOG_MAX && (!g->log.count || g->log.items[g->log.count - 1] != node))
    lun_ids_push(&g->log, node);                  /* out of memory: not logged (the completion waits less) */
  g->nodes[node].version++;
  g->resume.count = 0;
  l = g->nodes[node].subs;
  for (;;) {
    while (l) {
      int32_t s = g->links[l].sub;
      lun_GraphNode *n = &g->nodes[s];
      if (n->flags & LUN_GRAPH_HELD) {             /* stopped in this flush: runs at the next one, */
        n->flags |= LUN_GRAPH_MISSED;              /* with the transaction of the change (the host keeps it) */
        if (n->origin != LUN_ORIGIN_EFFECT && lun_graph_resend(g, n, s)) lun_ids_push(&g->pending, s);
        l = g->links[l].nextSub;
        continue;
      }
      /* a ui.effect takes no transaction: it is not sent again */
      if (!(n->flags & LUN_GRAPH_PENDING) || (n->flags & LUN_GRAPH_REVISIT) ||
          (n->origin != LUN_ORIGIN_EFFECT && lun_graph_resend(g, n, s))) {
        n->flags = (uint16_t)((n->flags | LUN_GRAPH_PENDING) & ~LUN_GRAPH_REVISIT);
        if (n->kind == LUN_GRAPH_EFFECT) {        /* out of memory: the effect waits for the next change */
          lun_ids_push(n->origin == LUN_ORIGIN_EFFECT ? &g->effects : &g->pending, s);
        } else if (n->subs && lun_ids_push(&g->resume, g->links[l].nextSub)) {
          l = n->subs;
          continue;
        }
      }
      l = g->links[l].nextSub;
    }
    if (g->resume.count == 0) return;
    l = g->resume.items[--g->resume.count];
  }
}

int32_t lun_graph_take_pending(lun_Graph *g, const int32_t **nodes) {
  int32_t n = g->pending.count;
  *nodes = g->pending.items;
  g->pending.count = 0;
  return n;
}

int lun_graph_queue_effect(lun_Graph *g, int32_t node) {
  if (g->nodes[node].flags & LUN_GRAPH_PENDING) return 1;   /* queued already */
  if (!lun_ids_push(&g->effects, node)) return 0;
  g->nodes[node].flags |= LUN_GRAPH_PENDING;
  return 1;
}

int lun_graph_requeue_effect(lun_Graph *g, int32_t node) {
  return lun_graph_is_live(g, node) && lun_ids_push(&g->effects, node);
}

LUN_HOT int32_t lun_graph_next_effect(lun_Graph *g) {
  if (g->effectsHead >= g->effects.count) {
    g->effectsHead = g->effects.count = 0;
    return 0;
  }
  return g->effects.items[g->effectsHead++];
}

void lun_graph_clear_pending(lun_Graph *g, int32_t node) {
  if (lun_graph_is_live(g, node)) g->nodes[node].flags &= (uint16_t)~LUN_GRAPH_PENDING;
}

void lun_graph_hold(lun_Graph *g, int32_t node, int missed) {
  if (!lun_graph_is_live(g, node) || (g->nodes[node].flags & LUN_GRAPH_HELD)) return;   /* held: it keeps MISSED */
  lun_graph_unstick(g, node);
  g->nodes[node].flags = (uint16_t)((g->nodes[node].flags | LUN_GRAPH_PENDING | LUN_GRAPH_HELD) & ~LUN_GRAPH_MISSED);
  if (missed) g->nodes[node].flags |= LUN_GRAPH_MISSED;
}

int lun_graph_release(lun_Graph *g, int32_t node) {
  uint16_t flags;
  if (!lun_graph_is_live(g, node)) return 0;
  flags = g->nodes[node].flags;
  if (!(flags & LUN_GRAPH_HELD)) return 0;         /* it ran again since (lun_graph_run_begin): nothing held */
  g->nodes[node].flags &= (uint16_t)~(LUN_GRAPH_HELD | LUN_GRAPH_MISSED);
  if (flags & LUN_GRAPH_MISSED) return 1;          /* still pending */
  lun_graph_unstick(g, node);
  return 0;
}

void lun_graph_unstick(lun_Graph *g, int32_t node) {
  int32_t l;
  if (!lun_graph_is_live(g, node)) return;
  g->nodes[node].flags &= (uint16_t)~(LUN_GRAPH_PENDING | LUN_GRAPH_HELD | LUN_GRAPH_MISSED);
  g->unstick.count = 0;
  l = g->nodes[node].deps;
  for (;;) {                                       /* upstream, over pending computeds not marked yet */
    while (l) {
      int32_t d = g->links[l].dep;
      lun_GraphNode *n = &g->nodes[d];
      int32_t next = g->links[l].nextDep;
      if (n->kind == LUN_GRAPH_COMPUTED && (n->flags & LUN_GRAPH_PENDING) && !(n->flags & LUN_GRAPH_REVISIT)) {
        n->flags |= LUN_GRAPH_REVISIT;
        if (lun_ids_push(&g->unstick, next)) { l = n->deps; continue; }   /* out of memory: not deeper */
      }
      l = next;
    }
    if (g->unstick.count == 0) return;
    l = g->unstick.items[--g->unstick.count];
  }
}

/* ---- computeds and the refresh walk ---- */

LUN_HOT int lun_graph_computed_read(lun_Graph *g, int32_t sub, int32_t node) {
  uint16_t flags = g->nodes[node].flags;
  /* running: a read of it from within its own function, a cycle (the walk names it) */
  if (!(flags & LUN_GRAPH_EVALUATED) || (flags & (LUN_GRAPH_PENDING | LUN_GRAPH_COMPUTING))) return 0;
  if (sub) lun_graph_track(g, sub, node);
  return 1;
}

LUN_HOT int lun_graph_recompute_begin(lun_Graph *g, int32_t node, int32_t *owner, int32_t *slot) {
  *owner = g->nodes[node].owner;
  *slot = g->nodes[node].slot;
  if (g->nodes[node].flags & LUN_GRAPH_COMPUTING) return 0;
  lun_graph_run_begin(g, node);
  return 1;
}

LUN_HOT void lun_graph_recompute_end(lun_Graph *g, int32_t node, int ok, int changed) {
  lun_GraphNode *n;
  lun_graph_run_end(g, node, ok);
  n = &g->nodes[node];
  if (ok) {
    if (changed) n->version++;
    n->flags = (uint16_t)((n->flags | LUN_GRAPH_EVALUATED) & ~(LUN_GRAPH_PENDING | LUN_GRAPH_REVISIT));
  }
}

/* Pushes a walk frame; 0 if out of memory. */
static int lun_walk_push(lun_Graph *g, int32_t node) {
  if (!lun_graph_grow((void **)&g->walk.items, &g->walk.capacity, g->walk.count + 2, sizeof(int32_t))) return 0;
  g->walk.items[g->walk.count++] = node;
  g->walk.items[g->walk.count++] = 0;
  g->nodes[node].flags |= LUN_GRAPH_WALKING;
  return 1;
}

/* Pops the top frame of the walk. */
static void lun_walk_pop(lun_Graph *g) {
  g->walk.count -= 2;
  g->nodes[g->walk.items[g->walk.count]].flags &= (uint16_t)~LUN_GRAPH_WALKING;
}

/* Continues the innermost walk until it names a node to recompute or ends. */
LUN_HOT static int lun_graph_step(lun_Graph *g, int32_t *recompute) {
  int32_t base = g->bases.items[g->bases.count - 1];
  while (g->walk.count > base) {
    int32_t *frame = &g->walk.items[g->walk.count - 2];
    int32_t n = frame[0], l;
    uint16_t flags = g->nodes[n].flags;
    int descended = 0;
    /* unevaluated, or running (reached again while its function runs: a
     * cycle, which its recompute reports) */
    if (!(flags & LUN_GRAPH_EVALUATED) || (g->nodes[n].kind == LUN_GRAPH_COMPUTED && (flags & LUN_GRAPH_COMPUTING))) {
      *recompute = n;
      return LUN_REFRESH_RECOMPUTE;
    }
    if (!(flags & LUN_GRAPH_PENDING)) { lun_walk_pop(g); continue; }
    for (l = frame[1] ? frame[1] : g->nodes[n].deps; l; l = g->links[l].nextDep) {
      int32_t d = g->links[l].dep;
      if (g->nodes[d].flags & LUN_GRAPH_WALKING) {   /* it depends on what waits for it: a cycle, which */
        *recompute = n;                              /* its run reports (or, read anew, leaves) */
        return LUN_REFRESH_RECOMPUTE;
      }
      if (g->nodes[d].kind == LUN_GRAPH_COMPUTED &&
          ((g->nodes[d].flags & (LUN_GRAPH_PENDING | LUN_GRAPH_EVALUATED)) != LUN_GRAPH_EVALUATED ||
           (g->nodes[d].flags & LUN_GRAPH_COMPUTING))) {      /* every dependency before it unchanged: its run reads it again */
        frame[1] = l;
        if (!lun_walk_push(g, d)) return LUN_REFRESH_NOMEM;
        descended = 1;
        break;
      }
      if (g->links[l].version != g->nodes[d].version) { *recompute = n; return LUN_REFRESH_RECOMPUTE; }
    }
    if (descended) continue;
    g->nodes[n].flags &= (uint16_t)~LUN_GRAPH_PENDING;
    lun_walk_pop(g);
  }
  g->bases.count--;
  return LUN_REFRESH_DONE;
}

LUN_HOT int lun_graph_refresh_begin(lun_Graph *g, int32_t node, int32_t *recompute) {
  if (!lun_ids_push(&g->bases, g->walk.count)) return LUN_REFRESH_NOMEM;
  if (!lun_walk_push(g, node)) { g->bases.count--; return LUN_REFRESH_NOMEM; }
  return lun_graph_step(g, recompute);
}

LUN_HOT int lun_graph_refresh_resume(lun_Graph *g, int32_t *recompute) {
  lun_walk_pop(g);                                 /* the node just recomputed */
  return lun_graph_step(g, recompute);
}

LUN_HOT int32_t lun_graph_refresh_frame(const lun_Graph *g) {
  return g->walk.count;
}

void lun_graph_refresh_fail(lun_Graph *g, int32_t frame) {
  int32_t i;
  for (i = frame; i + 1 < g->walk.count; i += 2) {
    lun_GraphNode *n = &g->nodes[g->walk.items[i]];
    if (n->kind == LUN_GRAPH_COMPUTED && !(n->flags & LUN_GRAPH_COMPUTING))
      n->flags &= (uint16_t)~(LUN_GRAPH_PENDING | LUN_GRAPH_EVALUATED);
  }
  lun_graph_refresh_abort(g, frame);
}

LUN_HOT void lun_graph_refresh_abort(lun_Graph *g, int32_t frame) {
  while (g->walk.count > frame && g->walk.count >= 2) lun_walk_pop(g);
  while (g->bases.count > 0 && g->bases.items[g->bases.count - 1] >= frame) g->bases.count--;
}
