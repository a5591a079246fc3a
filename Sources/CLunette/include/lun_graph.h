/*
 * lun_graph.h — the dependency graph, owned by C and shared with Swift.
 *
 * Nodes (signals, computeds, effects) joined by links, in contiguous
 * buffers addressed by int32 ids (0 = none). Every node keeps two doubly
 * linked lists: the links to what it depends on (deps, in the order it read
 * them) and to what depends on it (subs). Each link remembers the
 * dependency's version when it was read; a subscriber is stale when one of
 * its dependencies has moved on.
 *
 * It lives where the reads are: a tracked read, a computed pull and an
 * effect check are C calls with no crossing into Swift. Swift (the
 * scheduler) makes and frees the nodes of its units, marks changes made by
 * Swift models, and takes the effects that became pending
 * (lun_graph_take_pending). No function here raises or calls Lua; the ones
 * that allocate return 0 when memory runs out.
 */
#ifndef LUN_GRAPH_H
#define LUN_GRAPH_H

#include <stdint.h>

/* A C function on the hot path of a flush, a read or a view's run (the
 * graph's here, the module's elsewhere): the compiler groups these together
 * (.text.hot), so what a flush runs shares fewer instruction-cache lines
 * with the rest (a re-render missed the L1 instruction cache about 290
 * times, a third of them in this module's C, scattered over its files). */
#define LUN_HOT __attribute__((hot))

enum { LUN_GRAPH_SIGNAL = 1, LUN_GRAPH_COMPUTED = 2, LUN_GRAPH_EFFECT = 3 };

/* What a node stands for: owner/slot are read accordingly. */
enum {
  LUN_ORIGIN_LUA = 0,     /* owner: object serial, slot: property index */
  LUN_ORIGIN_HOST = 1,    /* owner: host handle, slot: property index */
  LUN_ORIGIN_ENV = 2,     /* an environment entry (owner 0), or a unit's probe (owner: its unit) */
  LUN_ORIGIN_UNIT = 3,    /* owner: a view unit's id (slot 0) */
  LUN_ORIGIN_EFFECT = 4   /* owner: a ui.effect's slot in C (drive/lun_effect.c): queued on `effects`, not `pending` */
};

enum {
  LUN_GRAPH_EVALUATED = 1,  /* a computed holds a value / an effect has run */
  LUN_GRAPH_PENDING = 2,    /* something upstream changed: check before use */
  LUN_GRAPH_COMPUTING = 4,  /* its function is running (cycle guard) */
  LUN_GRAPH_LIVE = 8,       /* allocated */
  LUN_GRAPH_RESENT = 16,    /* reported once in the open transaction (lun_graph_transaction) */
  LUN_GRAPH_WALKING = 32,   /* on a refresh walk's stack: reached again from below, a cycle */
  LUN_GRAPH_REVISIT = 64,   /* pending, with a stopped unit below it: the next change walks through it (lun_graph_unstick) */
  LUN_GRAPH_HELD = 128,     /* a unit stopped in this flush, kept pending until it ends (lun_graph_hold) */
  LUN_GRAPH_MISSED = 256    /* a change reached it while held: it runs at the next flush (lun_graph_release) */
};

typedef struct lun_GraphNode {
  int32_t deps, depsTail, subs, subsTail;
  uint32_t version, epoch;
  uint16_t flags;
  uint8_t kind, origin;
  int32_t owner, slot;
} lun_GraphNode;

typedef struct lun_GraphLink {
  int32_t dep, sub, prevDep, nextDep, prevSub, nextSub;
  uint32_t version, epoch;
} lun_GraphLink;

typedef struct lun_GraphFrame {
  int32_t node, cursor;
} lun_GraphFrame;

/* A growable array of int32 (ids, frames as pairs). */
typedef struct lun_Ids {
  int32_t *items;
  int32_t count, capacity;
} lun_Ids;

typedef struct lun_Graph {
  lun_GraphNode *nodes;
  lun_GraphLink *links;
  int32_t nodeCount, nodeCapacity, linkCount, linkCapacity;
  int32_t freeNode, freeLink, liveNodes;
  uint32_t epoch;
  uint32_t changes;   /* lun_graph_changed calls so far (wraps): did a run write anything? */
  lun_Ids walk;       /* the refresh walk's stack, two ints a frame */
  lun_Ids bases;      /* where each nested walk starts */
  lun_Ids resume;     /* lun_graph_changed's explicit stack */
  lun_Ids pending;    /* effect nodes of view units that became pending, for the scheduler */
  lun_Ids effects;    /* ui.effect nodes that became pending, for C (lun_effect.c), taken from effectsHead */
  int32_t effectsHead;
  lun_Ids released;   /* nodes given back by finalizers, freed between runs */
  lun_Ids unstick;    /* lun_graph_unstick's explicit stack */
  lun_Ids log;        /* while logging > 0: the nodes lun_graph_changed marked, up to LUN_GRAPH_LOG_MAX */
  int32_t logging;    /* (withAnimation's writes, lun_completion.c) */
  int32_t transacting;  /* a transaction is open: a change reaches what already waits too (lun_graph_transaction) */
  lun_Ids resent;     /* the nodes marked LUN_GRAPH_RESENT in the open transaction, at most once each */
} lun_Graph;

/* The most changed nodes the log keeps (a bound on what a script can make it hold). */
#define LUN_GRAPH_LOG_MAX 4096

lun_Graph *lun_graph_new(void);
void lun_graph_free(lun_Graph *g);

/* A new node (0 if out of memory); owner/slot/origin say what it stands for. */
int32_t lun_graph_node_new(lun_Graph *g, int kind, int origin, int32_t owner, int32_t slot);
/* Unlinks a node from everything and recycles its id. */
void lun_graph_node_free(lun_Graph *g, int32_t id);
/* A finalizer gives a node back: it is freed at lun_graph_free_released,
 * between runs (a walk in progress may hold its id). */
void lun_graph_release_later(lun_Graph *g, int32_t id);
void lun_graph_free_released(lun_Graph *g);
int lun_graph_is_live(const lun_Graph *g, int32_t id);

/* Runs: a run of sub starts; its reads are matched against its previous
 * dependencies, so a stable re-run allocates nothing; the end drops what it
 * did not read. ok = 0 leaves a computed unevaluated. */
void lun_graph_run_begin(lun_Graph *g, int32_t sub);
void lun_graph_run_end(lun_Graph *g, int32_t sub, int ok);
/* The running sub read dep. */
void lun_graph_track(lun_Graph *g, int32_t sub, int32_t dep);
/* sub read computed dep again right after pulling it: its link takes dep's new version. */
void lun_graph_retrack(lun_Graph *g, int32_t sub, int32_t dep);
/* 1 if sub's current run has read dep already (a body writing what it read: S36). */
int lun_graph_run_has_read(const lun_Graph *g, int32_t sub, int32_t dep);

/* The value behind node changed: its version moves, everything downstream is
 * marked pending; effects that become pending are queued for the scheduler. */
void lun_graph_changed(lun_Graph *g, int32_t node);
/* A transaction opens (open = 1) or ends, or another one takes its place:
 * while one is open, a change also walks through nodes already pending,
 * once each per transaction, and queues the effects it reaches again, so
 * the scheduler can give a unit already waiting the transaction of the
 * later change (a plain write, then withAnimation, in one action). */
void lun_graph_transaction(lun_Graph *g, int open);
/* Takes the queued effect nodes: *nodes stays valid until the next graph call. */
int32_t lun_graph_take_pending(lun_Graph *g, const int32_t **nodes);
/* Queues a new ui.effect node to run (0 if out of memory); the oldest queued one, 0 if none. */
int lun_graph_queue_effect(lun_Graph *g, int32_t node);
/* Queues a ui.effect node that is pending already (put off to the next round); 0 if out of memory. */
int lun_graph_requeue_effect(lun_Graph *g, int32_t node);
int32_t lun_graph_next_effect(lun_Graph *g);
/* A unit that will not run now (stopped) stops being pending. */
void lun_graph_clear_pending(lun_Graph *g, int32_t node);
/* A unit stopped (it will not run now): it stops being pending, and the
 * pending computeds it reads, which a change does not walk through again,
 * are marked so that the next change does, and reaches it. */
void lun_graph_unstick(lun_Graph *g, int32_t node);
/* A unit stopped in a flush is held: it stays pending (a write stops at it),
 * the pending computeds it reads are marked so that the next change reaches
 * it, and a change that does is remembered (LUN_GRAPH_MISSED) — as is, with
 * `missed`, the change that queued it after it was stopped by its budget
 * (not at its run limit: that change is its own loop's). */
void lun_graph_hold(lun_Graph *g, int32_t node, int missed);
/* The flush ends: a held unit is let go. Returns 1 if a change reached it
 * while it was held (it stays pending: the caller runs it at the next
 * flush); else it is unstuck (the next change runs it). */
int lun_graph_release(lun_Graph *g, int32_t node);

/* Computeds. */
/* 1 if computed node is fresh (and then tracked by sub, if any); 0 if it needs a refresh walk. */
int lun_graph_computed_read(lun_Graph *g, int32_t sub, int32_t node);
/* Starts a computed's run (0 if it is running already: a cycle); names its owner and slot. */
int lun_graph_recompute_begin(lun_Graph *g, int32_t node, int32_t *owner, int32_t *slot);
/* Ends it: ok says it returned a value, changed whether the value differs. */
void lun_graph_recompute_end(lun_Graph *g, int32_t node, int ok, int changed);

/* The refresh walk: depth-first over a pending node's dependencies with an
 * explicit stack. It names the next node to recompute (LUN_REFRESH_RECOMPUTE,
 * *recompute set) or says it is done; after the recompute, resume. */
enum { LUN_REFRESH_DONE = 0, LUN_REFRESH_RECOMPUTE = 1, LUN_REFRESH_NOMEM = 2 };
int lun_graph_refresh_begin(lun_Graph *g, int32_t node, int32_t *recompute);
int lun_graph_refresh_resume(lun_Graph *g, int32_t *recompute);
int32_t lun_graph_refresh_frame(const lun_Graph *g);
void lun_graph_refresh_abort(lun_Graph *g, int32_t frame);
/* The walk failed (a computed on it raised): the computeds it had not
 * brought up to date are left unevaluated and not pending, so they are
 * recomputed when read next, and a later change reaches past them to their
 * readers (a pending node's readers are taken to be pending already, which
 * a failed run's are not). Then as abort. */
void lun_graph_refresh_fail(lun_Graph *g, int32_t frame);

#endif
