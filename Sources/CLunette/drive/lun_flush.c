/*
 * lun_flush.c — a flush, and the clock's due work: driven from C, decided
 * by the host.
 *
 * The Swift scheduler decides what runs, in which order and how many rounds
 * a flush takes; it answers leaf calls (scheduler.flush_begin, scheduler.round_begin,
 * scheduler.round_batch, scheduler.round_end, scheduler.flush_end, clock.pop) and never
 * runs Lua. A round's units come as batches of tickets (one crossing per
 * batch: the units of one depth, in order); C runs each in one protected
 * call (lun_update), after the effects that wait (C's own: lun_effect.c);
 * then the events the round queued (onAppear, onChange, task starts...).
 * So `ui.flush()` from a script and `runtime.flush()` from Swift are the
 * same C loop, and no Swift frame ever sits between two Lua frames.
 */
#include "core/core.h"
#include "life/life.h"
#include "view/view.h"
#include "drive/drive.h"

/* The rounds of a flush the host has begun. Each round runs the effects
 * that wait (lun_effect.c), then the host's batches (views, parents
 * first), until neither waits; then the events the round queued. Effects
 * first: a view reading what an effect writes renders once. [-0, +0] */
LUN_HOT static int lun_flush_rounds_k(lua_State *L) {
  lun_State *S = lun_state(L);
  while (lunh(S->rt, scheduler, round_begin)) {
    const lun_Ticket *batch;
    int32_t count, i;
    int ran;
    S->round++;
    lun_effects_round(S);                         /* what the last round put off */
    do {
      lun_effects_run(L, S);
      while ((count = lunh(S->rt, scheduler, round_batch, &batch)) > 0) {
        for (i = 0; i < count; i++) {
          lun_Ticket ticket = batch[i];           /* read now: the host zeroes one whose unit went */
          if (ticket.unit) lun_update(L, S, &ticket);
        }
        if (lun_out_done_send(L, S) & LUN_ENDED_RELEASES) lun_release_refs(L, S);   /* the batch's plain runs */
      }
    } while (S->graph->effectsHead < S->graph->effects.count);   /* queued this round (not put off) */
    ran = lun_life_run_events(L, S);
    ran += lun_preferences_run(L, S);                /* values flow up after the update (T06) */
    if (!lunh(S->rt, scheduler, round_end, ran) && !lun_effects_waiting(S)) break;
  }
  lun_completion_settle(L, S);                       /* withAnimation's completions that waited for the update (D05) */
  lun_storage_sync(L, S);                            /* app storage written once per flush (T04) */
  lun_transaction_forget(L, S);                      /* what they changed has rendered (T02) */
  lun_release_refs(L, S);
  return 0;
}

/* Runs every pending update now, unless a flush is running already. The
 * host's flush state is always ended, even when a stop unwinds through. */
LUN_HOT void lun_flush_now(lua_State *L) {
  lun_State *S = lun_state(L);
  int status;
  if (!lunh(S->rt, scheduler, flush_begin)) return;
  S->flushes++;
  lua_pushcfunction(L, lun_flush_rounds_k);
  status = lua_pcall(L, 0, 0, 0);
  lun_out_done_send(L, S);                    /* plain runs a stop unwound past (their records stand) */
  if (S->doneCap > LUN_DONE_KEEP) lun_out_done_free(L, S);   /* a large one, past what it keeps */
  lun_effects_end_flush(S);                   /* put off or held till the end: till the next change (raises not) */
  lunh(S->rt, scheduler, flush_end);
  if (status != LUA_OK) lua_error(L);
}

/* Protected part of lun_flush. */
static int lun_flush_k(lua_State *L) {
  lun_flush_now(L);
  return 0;
}

/* lun_flush_now in a protected call: LUA_OK, or the error on top (a stop,
 * or the call refused: the C stack or memory at their limits), for a
 * caller that undoes what it made before it raises it. [-0, +0 | +1] */
int lun_flush_caught(lua_State *L) {
  lua_pushcfunction(L, lun_flush_k);
  return lua_pcall(L, 0, 0, 0);
}

int lun_flush(lua_State *L) {
  if (!lua_checkstack(L, 8)) return LUN_ERROR;
  lua_pushcfunction(L, lun_flush_k);
  return lun_protect(L, 0, 0);
}

/* Runs what the host's clock has due up to upTo, in order, with a flush
 * after each; returns how many ran. A failing timer is reported. What a
 * ui.reset() among them left is the fresh clock's: the run ends there.
 * [-0, +0] */
int lun_run_due_now(lua_State *L, double upTo) {
  lun_State *S = lun_state(L);
  int32_t kind, id;
  double due;
  int ran = 0;
  uint32_t resets = S->resets;
  uint64_t start = lun_budget_clock();
  while (S->resets == resets && lunh(S->rt, clock, pop, upTo, &kind, &id, &due)) {
    if (lun_clock_fire(L, kind, id, due) != LUN_OK) {
      size_t len;
      const char *msg = lun_last_error(L, &len);
      lunh(S->rt, inspect, event_failed, 0, msg, len);
    }
    lun_flush_now(L);
    ran++;
    if (lun_budget_over(S, start)) {               /* what is still due waits for the next turn (R20) */
      const char *msg = lua_pushfstring(L, "the clock's due work ran longer than its time budget (%d firings); "
                                           "the rest is left for later (a timer faster than its work?)", ran);
      lunh(S->rt, inspect, event_failed, 0, msg, strlen(msg));
      lua_pop(L, 1);
      break;
    }
  }
  return ran;
}

/* Protected part of lun_run_due: (upTo) -> ran. */
static int lun_run_due_k(lua_State *L) {
  lua_pushinteger(L, lun_run_due_now(L, (double)lua_tonumber(L, 1)));
  return 1;
}

int lun_run_due(lua_State *L, double upTo, int *ran) {
  *ran = 0;
  if (!lua_checkstack(L, 8)) return LUN_ERROR;
  lua_pushcfunction(L, lun_run_due_k);
  lua_pushnumber(L, (lua_Number)upTo);
  if (lun_protect(L, 1, 1) != LUN_OK) return LUN_ERROR;
  *ran = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return LUN_OK;
}

/* Protected part of lun_release_all. */
static int lun_release_all_k(lua_State *L) {
  lun_release_refs(L, lun_state(L));
  return 0;
}

int lun_release_all(lua_State *L) {
  if (!lua_checkstack(L, 6)) return LUN_ERROR;
  lua_pushcfunction(L, lun_release_all_k);
  return lun_protect(L, 0, 0);
}
