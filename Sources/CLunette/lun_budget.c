/*
 * lun_budget.c — a time budget for each run of a view, effect or task.
 *
 * The scheduler marks when a run starts (lun_budget_begin) and ends. A
 * watchdog thread in the host calls lun_budget_check now and then; a run
 * past its budget gets a count hook that raises "ran longer than its time
 * budget" at every instruction, so even a loop that catches errors with
 * pcall unwinds, one catch at a time, to the run's own protected call.
 * Nothing is hooked while runs finish in time.
 */
#include "lun_internal.h"
#include <stdio.h>
#include <time.h>

/* Nanoseconds on the monotonic clock. */
static uint64_t lun_budget_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void lun_budget_hook(lua_State *L, lua_Debug *ar);

/* Puts back the hook thread L had before its run. */
static void lun_budget_restore(lua_State *L, lun_State *S) {
  int i;
  for (i = S->budgetDepth - 1; i >= 0; i--) {
    if (S->budgetSaved[i].thread == (void *)L) {
      lua_sethook(L, S->budgetSaved[i].hook, S->budgetSaved[i].mask, S->budgetSaved[i].count);
      return;
    }
  }
  lua_sethook(L, NULL, 0, 0);
}

/* The armed hook: raises while the run it was armed for is still running. */
static void lun_budget_hook(lua_State *L, lua_Debug *ar) {
  lun_State *S = lun_state(L);
  (void)ar;
  if (atomic_load(&S->budgetStart) != 0 && atomic_load(&S->armedRun) == atomic_load(&S->budgetRun)) {
    char seconds[32];
    snprintf(seconds, sizeof seconds, "%g", (double)S->budgetLimit / 1e9);
    luaL_where(L, 0);                              /* in a hook, level 0 is the Lua code it stopped */
    lua_pushfstring(L, "%sran longer than its time budget (%ss)", lua_tostring(L, -1), seconds);
    lua_error(L);
    return;
  }
  lun_budget_restore(L, S);                        /* armed too late: step aside */
}

/* A run starts on thread L (runs nest: an event may resume a task). */
void lun_budget_begin(lua_State *L, lun_State *S) {
  int d = S->budgetDepth;
  if (!S->budgetLimit || d >= 8) { S->budgetDepth++; return; }
  S->budgetSaved[d].thread = (void *)L;
  S->budgetSaved[d].hook = lua_gethook(L);
  S->budgetSaved[d].mask = lua_gethookmask(L);
  S->budgetSaved[d].count = lua_gethookcount(L);
  S->budgetDepth++;
  atomic_store(&S->budgetThread, (void *)L);
  if (d == 0) {
    atomic_fetch_add(&S->budgetRun, 1);
    atomic_store(&S->budgetStart, lun_budget_now());
  }
}

/* The run ends: an armed hook is taken off; an outer run continues. */
void lun_budget_end(lua_State *L, lun_State *S) {
  int d = --S->budgetDepth;
  if (!S->budgetLimit || d >= 8) return;
  if (lua_gethook(L) == lun_budget_hook) lua_sethook(L, S->budgetSaved[d].hook, S->budgetSaved[d].mask, S->budgetSaved[d].count);
  if (d == 0) {
    atomic_store(&S->budgetStart, 0);
    atomic_fetch_add(&S->budgetRun, 1);
  } else {
    atomic_store(&S->budgetThread, S->budgetSaved[d - 1].thread);
    atomic_store(&S->armedRun, 0);                 /* the outer thread may need the hook too */
  }
}

/* Arms the hook of a run past its budget; the run counter is read around the start so both are one run's. */
int lun_budget_check(lun_State *S) {
  uint32_t run = atomic_load(&S->budgetRun);
  uint64_t start = atomic_load(&S->budgetStart);
  uint64_t now = lun_budget_now();                 /* read after start, so now >= start */
  if (!start || !S->budgetLimit || now - start < S->budgetLimit) return 0;
  if (atomic_load(&S->budgetRun) != run || atomic_load(&S->armedRun) == run) return 0;
  atomic_store(&S->armedRun, run);
  lua_sethook((lua_State *)atomic_load(&S->budgetThread), lun_budget_hook, LUA_MASKCOUNT, 1);
  return 1;
}

void lun_budget_set(lun_State *S, double seconds) {
  S->budgetLimit = seconds > 0 ? (uint64_t)(seconds * 1e9) : 0;
}
