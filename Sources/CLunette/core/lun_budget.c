/*
 * lun_budget.c — every entry into Lua is bounded: a time budget per run, and
 * Ctrl-C.
 *
 * A run (a chunk, a body, an effect, an action, a task step, an event, the
 * conversion of an error) is a level on the runtime's chain: the Lua thread
 * it runs on and when it started. A coroutine resumed during a run
 * (coroutine.resume, coroutine.wrap, a task) adds its thread as a level of
 * its own, so the chain names every thread that may be executing Lua.
 *
 * Each run's budget counts its own time, not the time of the bounded runs it
 * starts (R26): a body that flushes, a chunk that mounts, a host's tap that
 * flushes — each nested body, action, event or task step has a budget of
 * its own, and the run that started it is paused meanwhile. So one slow
 * body never turns its siblings into budget errors, and a flush costs the
 * same budget in a host, under `lunette run`, the REPL and `lunette test`.
 *
 * The host's watchdog thread looks at the chain now and then
 * (lun_budget_check). When a run is past its budget, or an interrupt was
 * asked for, it arms a count hook on every thread from that level up; the
 * hook raises at the next instruction, and again at every instruction after
 * it, so even a loop inside pcall unwinds, one catch at a time, to the run's
 * own protected call. Levels pushed while the stop stands are hooked when
 * they start. Nothing is hooked while runs finish in time.
 *
 * The chain is guarded by a lock, and a thread is on it only while its
 * resumer holds it on a running stack, so the watchdog never touches a
 * thread that could have been collected.
 */
#include "core/core.h"
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LUN_BUDGET_LEVELS 256

typedef struct lun_Level {
  lua_State *thread;
  uint64_t start;                  /* ns, moved on by the time its nested runs took; 0: a coroutine of the run below */
  uint64_t paused;                 /* ns: when a nested bounded run began (its time is not this run's); 0: running */
  int bounded;                     /* the host's budget applies to this run */
  lua_Hook hook;                   /* the thread's hook before this level */
  int mask, count;
} lun_Level;

struct lun_Budget {
  atomic_flag lock;                /* lun_budget_lock: held for a few instructions at a time */
  uint64_t limit;                  /* the host's budget, ns (0: none) */
  uint64_t scriptLimit;            /* a lower one a script asked for (0: none) */
  int interruptible;               /* Ctrl-C stops this runtime's runs */
  atomic_int interruptAsked;       /* set by lun_interrupt from another thread or a signal handler: lock-free
                                      (volatile sig_atomic_t served a handler, not a thread: a data race) */
  int depth;
  int armed;                       /* 0, or the level (1-based) the stop holds from */
  int reason;
  char stopWhere[160];             /* where the armed stop first fell ("file:line: "), the Lua thread's own: the */
  int stopFell;                    /* stop raises again in every handler unwinding it (<close>), named as there */
  lun_Level levels[LUN_BUDGET_LEVELS];
};

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a signal handler may set interruptAsked: it must be lock-free");

enum { LUN_STOP_BUDGET = 1, LUN_STOP_INTERRUPT };

/* The chain's lock. Every run takes it twice (as it begins and ends) and
 * holds it for a few instructions; the watchdog takes it now and then. A
 * spin on an atomic flag costs a tenth of an uncontended mutex on that
 * path; a waiter yields its processor, so the holder runs even on one. No
 * signal handler takes it (lun_interrupt only sets a flag). */
static inline void lun_budget_lock(lun_Budget *b) {
  while (atomic_flag_test_and_set_explicit(&b->lock, memory_order_acquire)) sched_yield();
}

static inline void lun_budget_unlock(lun_Budget *b) {
  atomic_flag_clear_explicit(&b->lock, memory_order_release);
}

/* Nanoseconds on the monotonic clock. Every run reads it as it starts, so
 * the coarse clock (a few ms of resolution, a fraction of the cost) serves:
 * budgets are tenths of seconds and more. */
static uint64_t lun_budget_now(void) {
  struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
#else
  clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

lun_Budget *lun_budget_new(void) {
  lun_Budget *b = (lun_Budget *)calloc(1, sizeof(lun_Budget));
  if (b) atomic_flag_clear(&b->lock);
  return b;
}

void lun_budget_free(lun_Budget *b) {
  if (!b) return;
  free(b);
}

/* The budget in force, ns (0: none). */
static uint64_t lun_budget_limit(lun_Budget *b) {
  if (!b->limit) return b->scriptLimit;
  if (!b->scriptLimit) return b->limit;
  return b->scriptLimit < b->limit ? b->scriptLimit : b->limit;
}

/* Pushes the stop that holds for the running level — "interrupted" or
 * "ran longer than its time budget (0.5s)", after `where` — and returns
 * its reason; 0 (nothing pushed) when none holds. [-0, +(0|1)] */
static int lun_budget_stop_message(lua_State *L, const char *where) {
  lun_Budget *b = lun_state(L)->budget;
  int reason = 0;
  char seconds[32];
  lun_budget_lock(b);
  if (b->armed && b->depth >= b->armed) reason = b->reason;
  snprintf(seconds, sizeof seconds, "%g", (double)lun_budget_limit(b) / 1e9);
  lun_budget_unlock(b);
  if (reason == LUN_STOP_INTERRUPT) lua_pushfstring(L, "%sinterrupted", where);
  else if (reason) lua_pushfstring(L, "%sran longer than its time budget (%ss)", where, seconds);
  return reason;
}

/* The armed hook: raises while a stop holds at or below the running level
 * (lun_budget_raise_at), named where it first fell — not where a <close>
 * handler it stops again, as the run unwinds, begins (Lua keeps the last
 * error of an unwinding); steps aside once none holds. */
static void lun_budget_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  luaL_where(L, 0);                                /* in a hook, level 0 is the Lua code it stopped */
  lun_budget_raise_at(L, lua_tostring(L, -1));
  lua_pop(L, 1);
  lua_sethook(L, NULL, 0, 0);                      /* armed for a run that has ended: step aside */
}

/* Arms the hook on every thread from level `from` (0-based) up. Lock held. */
static void lun_budget_arm(lun_Budget *b, int from, int reason) {
  int i;
  b->armed = from + 1;
  b->reason = reason;
  for (i = from; i < b->depth; i++) lua_sethook(b->levels[i].thread, lun_budget_hook, LUA_MASKCOUNT, 1);
}

/* The bounded run below level `top` (the one a new bounded run nests in),
 * or NULL. Lock held. */
static lun_Level *lun_budget_enclosing(lun_Budget *b, int top) {
  int i;
  for (i = top - 1; i >= 0; i--)
    if (b->levels[i].bounded) return &b->levels[i];
  return NULL;
}

/* A bounded run begins at level `top`: the run it nests in stops counting. Lock held. */
static void lun_budget_pause(lun_Budget *b, int top, uint64_t now) {
  lun_Level *outer = lun_budget_enclosing(b, top);
  if (outer && !outer->paused) outer->paused = now ? now : 1;
}

/* The bounded run at level `top` ended: the run it nested in counts again,
 * its start moved on by the time it was paused. Lock held. */
static void lun_budget_resume(lun_Budget *b, int top) {
  lun_Level *outer = lun_budget_enclosing(b, top);
  if (!outer || !outer->paused) return;
  outer->start += lun_budget_now() - outer->paused;
  outer->paused = 0;
}

/* A run (bounded: the host's budget applies) or a coroutine of the running
 * run starts on thread L. Returns 0 if the chain is full. */
LUN_HOT int lun_budget_begin(lua_State *L, lun_State *S, int bounded) {
  lun_Budget *b = S->budget;
  lun_Level *level;
  lun_budget_lock(b);
  if (b->depth >= LUN_BUDGET_LEVELS) { lun_budget_unlock(b); return 0; }
  level = &b->levels[b->depth++];
  level->thread = L;
  level->bounded = bounded;
  level->start = bounded ? lun_budget_now() : 0;
  level->paused = 0;
  if (bounded) lun_budget_pause(b, b->depth - 1, level->start);
  level->hook = lua_gethook(L);
  level->mask = lua_gethookmask(L);
  level->count = lua_gethookcount(L);
  if (b->armed) lua_sethook(L, lun_budget_hook, LUA_MASKCOUNT, 1);
  lun_budget_unlock(b);
  return 1;
}

/* The state is closing (lua_close, maybe from inside a run: os.exit(c, true)):
 * its threads are going, so the chain forgets them and the watchdog, which
 * may go on looking at this budget, never touches one again. */
void lun_budget_close(lun_Budget *b) {
  lun_budget_lock(b);
  b->depth = 0;
  b->armed = 0;
  lun_budget_unlock(b);
}

/* The level on top ends; returns 1 if a stop held for it (it was stopped). */
LUN_HOT int lun_budget_end(lua_State *L, lun_State *S) {
  lun_Budget *b = S->budget;
  lun_Level *level;
  int stopped;
  lun_budget_lock(b);
  if (b->depth == 0) { lun_budget_unlock(b); return 0; }   /* its state closed meanwhile (lun_budget_close) */
  level = &b->levels[--b->depth];
  if (level->bounded) lun_budget_resume(b, b->depth);
  stopped = b->armed && b->depth + 1 >= b->armed;
  if (b->armed > b->depth) b->armed = 0;           /* the stopped run has unwound */
  if (!b->armed) b->stopFell = 0;
  if (b->armed && b->depth > 0 && b->levels[b->depth - 1].thread == L)
    lua_sethook(L, lun_budget_hook, LUA_MASKCOUNT, 1);   /* a stop still holds for the run below, on this thread */
  else if (lua_gethook(L) == lun_budget_hook || stopped)
    lua_sethook(L, level->hook, level->mask, level->count);
  lun_budget_unlock(b);
  return stopped;
}

/* Called by the host's watchdog thread: arms the hook of a run past its
 * budget, or of every run if an interrupt was asked for. */
int lun_budget_check(lun_Budget *b) {
  uint64_t limit, now;
  int i, armed = 0;
  lun_budget_lock(b);
  if (b->interruptible && atomic_exchange_explicit(&b->interruptAsked, 0, memory_order_relaxed)) {
    if (b->depth > 0 && b->armed != 1) { lun_budget_arm(b, 0, LUN_STOP_INTERRUPT); armed = 1; }
  }
  limit = lun_budget_limit(b);
  now = lun_budget_now();
  for (i = 0; !armed && limit && i < b->depth && (!b->armed || i + 1 < b->armed); i++) {
    lun_Level *level = &b->levels[i];
    if (level->bounded && !level->paused && now - level->start >= limit) { lun_budget_arm(b, i, LUN_STOP_BUDGET); armed = 1; }
  }
  lun_budget_unlock(b);
  return armed;
}

/* 1 if a stop holds for the running level (a run is being unwound). */
int lun_budget_stopping(lun_State *S) {
  lun_Budget *b = S->budget;
  int stopping;
  lun_budget_lock(b);
  stopping = b->armed && b->depth >= b->armed;
  lun_budget_unlock(b);
  return stopping;
}

/* Raises the budget's error if a stop holds for the running level: for C
 * loops over what a script made, where the hook does not fire. [-0, +0] */
void lun_budget_raise(lua_State *L) {
  lun_budget_raise_at(L, "");
}

/* lun_budget_raise, its message after `where` ("file:12: "; none given:
 * the Lua code that called the C loop), or where the stop first fell. [-0, +0] */
void lun_budget_raise_at(lua_State *L, const char *where) {
  lun_Budget *b = lun_state(L)->budget;
  int top = lua_gettop(L), holds;
  lun_budget_lock(b);                             /* most looks find no stop: they cost what they did */
  holds = b->armed && b->depth >= b->armed;
  lun_budget_unlock(b);
  if (!holds) return;
  if (b->stopFell) where = b->stopWhere;
  else if (!*where) {
    luaL_where(L, 1);
    where = lua_tostring(L, -1);
  }
  if (lun_budget_stop_message(L, where)) {
    if (!b->stopFell) {
      snprintf(b->stopWhere, sizeof b->stopWhere, "%s", where);
      b->stopFell = 1;
    }
    lua_error(L);
  }
  lua_settop(L, top);
}

/* Seconds on the monotonic clock (the fine one): a test's time limit
 * (lunette_watch, lun_runner.c) and the checks made against it agree. */
double lun_test_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 1 if a watched test is past its time limit. */
int lun_test_overdue(const lun_State *S) {
  return S->testDeadline != 0 && lun_test_clock() >= S->testDeadline;
}

/* The monotonic clock, for a loop that runs script work (lun_budget_over). */
uint64_t lun_budget_clock(void) {
  return lun_budget_now();
}

/* 1 if a loop the runtime drives, started at `start` (lun_budget_clock),
 * has run past the budget in force: it stops and reports, whatever each
 * step took (R20). */
int lun_budget_over(lun_State *S, uint64_t start) {
  uint64_t limit;
  lun_budget_lock(S->budget);
  limit = lun_budget_limit(S->budget);
  lun_budget_unlock(S->budget);
  return limit && lun_budget_now() - start > limit;
}

void lun_budget_set(lun_State *S, double seconds) {
  uint64_t ns;
  if (seconds > 1e9) seconds = 1e9;                /* no conversion out of range (also inf) */
  ns = seconds > 0 ? (uint64_t)(seconds * 1e9) : 0;
  S->budget->limit = seconds > 0 && ns == 0 ? 1 : ns;   /* a tiny budget is a tiny budget, never none */
}

/* A script asks for a budget of `seconds`. The budget in force is the
 * lower of it and the host's, so a script can lower the host's budget but
 * never lift or remove it. Returns 0 if seconds is not a positive number. */
int lun_budget_lower(lun_State *S, double seconds) {
  uint64_t ns;
  if (!(seconds > 0)) return 0;                    /* also NaN */
  ns = seconds >= 1e9 ? 0 : (uint64_t)(seconds * 1e9);   /* 0: no lower than the host's */
  lun_budget_set_script_limit(S, seconds < 1e9 && ns == 0 ? 1 : ns);
  return 1;
}

/* The budget a script lowered the host's to, ns (0: none), to be given
 * back by lun_budget_set_script_limit (ui.reset). */
uint64_t lun_budget_script_limit(lun_State *S) {
  uint64_t ns;
  lun_budget_lock(S->budget);
  ns = S->budget->scriptLimit;
  lun_budget_unlock(S->budget);
  return ns;
}

void lun_budget_set_script_limit(lun_State *S, uint64_t ns) {
  lun_budget_lock(S->budget);
  S->budget->scriptLimit = ns;
  lun_budget_unlock(S->budget);
}

void lun_interrupt(lun_Budget *b) {
  atomic_store_explicit(&b->interruptAsked, 1, memory_order_relaxed);
}

void lun_interruptible(lua_State *L, int on) {
  lun_Budget *b = lun_state(L)->budget;
  lun_budget_lock(b);
  b->interruptible = on;
  atomic_store_explicit(&b->interruptAsked, 0, memory_order_relaxed);
  lun_budget_unlock(b);
}

/* Protected part of lun_error_string: (value) -> string. A value with no
 * text of its own (a table without __tostring, nil, a function) is named by
 * its type, as lua.c names it: its address would make every run's message
 * differ (a snapshot, a log). */
static int lun_tostring_k(lua_State *L) {
  int t = lua_type(L, 1);
  if (t == LUA_TNUMBER || t == LUA_TBOOLEAN || luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
    lua_settop(L, 1);
    luaL_tolstring(L, 1, NULL);
  } else
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  return 1;
}

/* Pushes the error value at idx as a string. Its __tostring is script
 * code: it runs in protection as a run of its own, under the budget.
 * Returns 1 if it could describe it. [-0, +1] */
int lun_error_string(lua_State *L, int idx) {
  lun_State *S = lun_state(L);
  int status;
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) == LUA_TSTRING) { lua_pushvalue(L, idx); return 1; }
  if (!lua_checkstack(L, 3) || !lun_budget_begin(L, S, 1)) { lua_pushliteral(L, "an error value that cannot be shown"); return 0; }
  lua_pushcfunction(L, lun_tostring_k);
  lua_pushvalue(L, idx);
  status = lua_pcall(L, 1, 1, 0);
  lun_budget_end(L, S);
  if (status == LUA_OK) return 1;
  lua_pop(L, 1);
  lua_pushliteral(L, "an error value that cannot be shown");
  return 0;
}
