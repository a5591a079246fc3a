/*
 * lun_task.c — time: :task coroutines, ui.sleep, ui.await, ui.Timer.publish
 * and ui.clock.
 *
 * A task is a coroutine made when its view appears and first resumed on the
 * clock's next tick (F07: the first frame is committed, and printed, before
 * any task runs). ui.sleep(s) yields to the runtime's clock (real under
 * `lunette run`, virtual under `lunette test`, moved with ui.clock.advance);
 * ui.await(publisher) yields until the publisher sends. The host's clock
 * calls lun_clock_fire when a sleep, a timer or a start is due.
 *
 * A task whose view disappears is cancelled as Swift cancels one (F06): it
 * is marked, its wait is dropped, and after the update it is resumed once
 * more, its ui.sleep/ui.await raising ui.CancellationError — so pcall sees
 * it and `<close>` variables close. Every later ui.sleep/ui.await raises at
 * once; ui.isCancelled() answers true. Ending by that error is not a failure.
 */
#include "core/core.h"
#include "life/life.h"

#define LUN_MT_TIMER "lunette.Timer"
#define LUN_MT_TIMERSUB "lunette.TimerSubscription"

static const char lun_key_tasks = 0, lun_key_timers = 0, lun_key_threads = 0;
static const char lun_yield_sleep = 0, lun_yield_await = 0, lun_key_cancellation = 0;

/* Fields of a task record. */
enum { LUN_TASK_THREAD = 1, LUN_TASK_UNIT, LUN_TASK_SUB, LUN_TASK_CANCELLED, LUN_TASK_NAME,
       LUN_TASK_STEPPING };                         /* true while lun_task_resume runs its step */

/* A fresh id for a task or a timer subscription. */
static int32_t lun_task_next_id(lua_State *L) {
  return ++lun_state(L)->nextId;
}

/* Pushes tasks[id] (a task record) or nil. Returns its type. [-0, +1] */
static int lun_task_get(lua_State *L, int32_t id) {
  lun_registry_table(L, &lun_key_tasks);
  lua_rawgeti(L, -1, id);
  lua_remove(L, -2);
  return lua_type(L, -1);
}

/* Forgets task id. */
static void lun_task_forget(lua_State *L, int32_t id) {
  lun_registry_table(L, &lun_key_tasks);
  lua_pushnil(L);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
}

/* Cancels the subscription (on top) ui.await made for the task at taskidx,
 * if any (lun_life_cancel: protected, reported as its unit's). [-1, +0] */
static void lun_task_unsubscribe(lua_State *L, int taskidx) {
  int32_t unit;
  lua_rawgeti(L, taskidx, LUN_TASK_UNIT);
  unit = (int32_t)lua_tointeger(L, -1);
  lua_pop(L, 1);
  lun_life_cancel(L, unit);
}

static void lun_task_resume(lua_State *L, int32_t id, int nargs);
static void lun_task_close(lua_State *L, lun_State *S, lua_State *co);

/* The one-shot subscriber of ui.await: (value) -> (); resumes its task with the value. */
static int lun_task_resumer(lua_State *L) {
  int32_t id = (int32_t)lua_tointeger(L, lua_upvalueindex(1));
  if (lua_toboolean(L, lua_upvalueindex(2))) return 0;
  lua_pushboolean(L, 1);
  lua_replace(L, lua_upvalueindex(2));
  if (lun_task_get(L, id) == LUA_TTABLE) {
    lua_rawgeti(L, -1, LUN_TASK_SUB);
    lua_pushnil(L);
    lua_rawseti(L, -3, LUN_TASK_SUB);
    lun_task_unsubscribe(L, lua_absindex(L, -2));
  }
  lua_pop(L, 1);
  lua_settop(L, 1);
  lun_task_resume(L, id, 1);
  return 0;
}

/* Acts on what a task yielded (nres values on its thread co). */
static void lun_task_wait(lua_State *L, lua_State *co, int32_t id, int nres, int taskidx) {
  lun_State *S = lun_state(L);
  const void *marker = nres > 0 ? lua_touserdata(co, -nres) : NULL;
  if (marker == &lun_yield_sleep) {
    lunh(S->rt, clock, schedule, LUN_CLOCK_TASK, id, (double)lua_tonumber(co, -nres + 1), 0);
  } else if (marker == &lun_yield_await) {
    lua_pushvalue(co, -nres + 1);
    lua_xmove(co, L, 1);                          /* publisher:sink(resumer) */
    lua_getfield(L, -1, "sink");
    lua_insert(L, -2);
    lua_pushinteger(L, id);
    lua_pushboolean(L, 0);
    lua_pushcclosure(L, lun_task_resumer, 2);
    lua_call(L, 2, 1);
    lua_rawseti(L, taskidx, LUN_TASK_SUB);
  } else {                                        /* a plain coroutine.yield: go on at the next tick */
    lunh(S->rt, clock, schedule, LUN_CLOCK_TASK, id, 0, 0);
  }
  lua_pop(co, nres);
}

/* Pushes ui.CancellationError, the error a cancelled task's waits raise. [-0, +1] */
static void lun_push_cancellation(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_cancellation);
}

/* A task's resume ended with an error (on top): reported unless it is the
 * cancellation of a cancelled task. [-1, +0] */
static void lun_task_failed(lua_State *L, int taskidx) {
  size_t len;
  const char *msg;
  lun_State *S = lun_state(L);
  lun_push_cancellation(L);
  lua_rawgeti(L, taskidx, LUN_TASK_CANCELLED);
  if (lua_rawequal(L, -2, -3) && lua_toboolean(L, -1)) { lua_pop(L, 3); return; }
  lua_pop(L, 2);
  lun_error_string(L, -1);
  lua_rawgeti(L, taskidx, LUN_TASK_UNIT);
  if (lua_tointeger(L, -1) == 0) {                /* its view is gone: named by the record */
    lua_rawgeti(L, taskidx, LUN_TASK_NAME);
    lua_pushliteral(L, " (a cancelled task): ");
    lua_pushvalue(L, -4);
    lua_concat(L, 3);
    lua_replace(L, -3);
  }
  lua_pop(L, 1);
  msg = lua_tolstring(L, -1, &len);
  lua_rawgeti(L, taskidx, LUN_TASK_UNIT);
  lunh(S->rt, inspect, event_failed, (int32_t)lua_tointeger(L, -1), msg, len);
  lua_pop(L, 3);
}

/* Resumes task id with the top nargs values of L. A task that ends, fails or
 * yields after its cancellation is closed and forgotten; errors are reported. */
static void lun_task_resume(lua_State *L, int32_t id, int nargs) {
  lun_State *S = lun_state(L);
  lua_State *co;
  int status, nres = 0, taskidx, stopped, cancelled;
  int32_t saved = S->active;
  if (lun_task_get(L, id) != LUA_TTABLE) { lua_pop(L, 1 + nargs); return; }
  taskidx = lua_gettop(L);
  lua_rawgeti(L, taskidx, LUN_TASK_THREAD);
  co = lua_tothread(L, -1);
  lua_rotate(L, taskidx - nargs, -nargs);         /* the task record and its thread below its arguments */
  taskidx -= nargs;                               /* the thread stays referenced while it runs */
  lua_xmove(L, co, nargs);
  S->active = 0;
  if (S->tracing) {
    lua_rawgeti(L, taskidx, LUN_TASK_UNIT);
    lun_trace_event(L, (int32_t)lua_tointeger(L, -1), "task step");
    lua_pop(L, 1);
  }
  if (!lun_budget_begin(co, S, 1)) luaL_error(L, "runs nested too deep");
  lua_pushboolean(L, 1);
  lua_rawseti(L, taskidx, LUN_TASK_STEPPING);
  status = lua_resume(co, L, nargs, &nres);
  lua_pushnil(L);
  lua_rawseti(L, taskidx, LUN_TASK_STEPPING);
  stopped = lun_budget_end(co, S);
  S->active = saved;
  lua_rawgeti(L, taskidx, LUN_TASK_CANCELLED);
  cancelled = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (status == LUA_YIELD && !cancelled) {
    lun_task_wait(L, co, id, nres, taskidx);
  } else {
    if (status == LUA_YIELD) lua_pop(co, nres);   /* a coroutine.yield after its cancellation */
    else if (status != LUA_OK) {
      lua_xmove(co, L, 1);
      lun_task_failed(L, taskidx);
    }
    if (!stopped) lun_task_close(L, S, co);       /* an error from the budget's hook leaves hooks off: see lun_died_by_error */
    lun_task_forget(L, id);
  }
  lua_settop(L, taskidx - 1);
}

/* Starts the task of life entry (at entryidx) for unit, unless it went already. */
void lun_task_start(lua_State *L, int entryidx, int32_t unit) {
  int32_t id;
  size_t len;
  const char *name;
  lua_State *co;
  entryidx = lua_absindex(L, entryidx);
  lua_rawgeti(L, entryidx, LUN_LIFE_GONE);        /* set when the view disappeared before this ran */
  if (lua_toboolean(L, -1)) { lua_pop(L, 1); return; }
  lua_pop(L, 1);
  id = lun_task_next_id(L);
  lua_pushinteger(L, id);
  lua_rawseti(L, entryidx, LUN_LIFE_TASK);
  lun_registry_table(L, &lun_key_tasks);
  lua_createtable(L, 3, 0);
  co = lua_newthread(L);
  lun_registry_weak(L, &lun_key_threads, "k");    /* thread -> task id (weak keys) */
  lua_pushvalue(L, -2);
  lua_pushinteger(L, id);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_rawseti(L, -2, LUN_TASK_THREAD);
  lua_pushinteger(L, unit);
  lua_rawseti(L, -2, LUN_TASK_UNIT);
  name = lunh(lun_state(L)->rt, output, unit_name, unit, &len);
  lua_pushlstring(L, name ? name : "view", name ? len : 4);
  lua_rawseti(L, -2, LUN_TASK_NAME);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
  lua_rawgeti(L, entryidx, LUN_LIFE_FN);
  lua_xmove(L, co, 1);
  lunh(lun_state(L)->rt, clock, schedule, LUN_CLOCK_TASK, id, 0, 0);   /* F07: at the next tick */
}

/* Closes a task's thread: its pending __close handlers are script code,
 * run as a run of their own under the budget. */
static void lun_task_close(lua_State *L, lun_State *S, lua_State *co) {
  if (!lun_budget_begin(co, S, 1)) luaL_error(L, "runs nested too deep");
  lua_resetthread(co);
  lun_budget_end(co, S);
}

/* Cancels task id (its view went away): its wait is dropped and it is
 * marked. Returns 1 if it must be resumed once more to see its
 * cancellation (lun_task_deliver_cancel, after the update); a task that has
 * not started yet is forgotten. A task cancelled by its own step (it
 * unmounted its view, or called ui.reset) is marked and kept: its next wait
 * raises ui.CancellationError, and its step's end forgets it. */
int lun_task_cancel(lua_State *L, int32_t id) {
  lun_State *S = lun_state(L);
  int pending = 0, running = 0;
  lunh(S->rt, clock, cancel, LUN_CLOCK_TASK, id);
  if (lun_task_get(L, id) == LUA_TTABLE) {
    int32_t unit;
    lua_rawgeti(L, -1, LUN_TASK_UNIT);
    unit = (int32_t)lua_tointeger(L, -1);
    lua_rawgeti(L, -2, LUN_TASK_THREAD);
    pending = lua_status(lua_tothread(L, -1)) == LUA_YIELD;
    lua_rawgeti(L, -3, LUN_TASK_STEPPING);        /* its step runs (lun_task_resume's: a thread another */
    running = !pending && lua_toboolean(L, -1);   /* step resumed itself is no step of its own) */
    lua_pop(L, 1);
    lua_pop(L, 2);
    if (pending || running) {                     /* cancelled before its subscription's cancel runs: a */
      lua_pushboolean(L, 1);                      /* cancel that sends resumes it into its cancellation */
      lua_rawseti(L, -2, LUN_TASK_CANCELLED);
      lua_pushinteger(L, 0);                        /* its unit goes (and its id is reused): named by LUN_TASK_NAME */
      lua_rawseti(L, -2, LUN_TASK_UNIT);
    }
    lua_rawgeti(L, -1, LUN_TASK_SUB);             /* forgotten before its cancel runs: a cancel that */
    lua_pushnil(L);                               /* sends finds none to cancel again */
    lua_rawseti(L, -3, LUN_TASK_SUB);
    lun_life_cancel(L, unit);
    if (!pending && !running) lun_task_forget(L, id);
  }
  lua_pop(L, 1);
  return pending;
}

/* Resumes cancelled task id so that its wait raises ui.CancellationError. */
void lun_task_deliver_cancel(lua_State *L, int32_t id) {
  lun_task_resume(L, id, 0);
}

/* Pushes the record of the running thread's task, or nothing. Returns 1 if
 * it did (the thread is a task's own, and may yield to the runtime). */
static int lun_running_task(lua_State *L) {
  int32_t id;
  if (!lua_isyieldable(L)) return 0;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_threads) != LUA_TTABLE) { lua_pop(L, 1); return 0; }
  lua_pushthread(L);
  if (lua_rawget(L, -2) != LUA_TNUMBER) { lua_pop(L, 2); return 0; }
  id = (int32_t)lua_tointeger(L, -1);
  lua_pop(L, 2);
  if (lun_task_get(L, id) == LUA_TTABLE) return 1;
  lua_pop(L, 1);
  return 0;
}

/* 1 if the running task was cancelled (0 outside a task). */
static int lun_task_cancelled(lua_State *L) {
  int cancelled;
  if (!lun_running_task(L)) return 0;
  lua_rawgeti(L, -1, LUN_TASK_CANCELLED);
  cancelled = lua_toboolean(L, -1);
  lua_pop(L, 2);
  return cancelled;
}

/* Raises ui.CancellationError. */
static int lun_raise_cancellation(lua_State *L) {
  lun_push_cancellation(L);
  return lua_error(L);
}

/* Continuation of ui.sleep: () -> () or raises if cancelled meanwhile. */
static int lun_ui_sleep_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  if (lun_task_cancelled(L)) return lun_raise_cancellation(L);
  return 0;
}

/* Continuation of ui.await: (value...) -> value... or raises if cancelled meanwhile. */
static int lun_ui_await_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status; (void)ctx;
  if (lun_task_cancelled(L)) return lun_raise_cancellation(L);
  return lua_gettop(L);
}

/* ui.sleep(seconds) -> (): suspends the running task. */
static int lun_ui_sleep(lua_State *L) {
  lua_Number s = luaL_checknumber(L, 1);
  luaL_argcheck(L, s == s, 1, "seconds must be a number, not NaN");
  luaL_argcheck(L, s >= 0 && s <= 1e9, 1, "seconds must be from 0 to 1e9 (math.huge never ends: cancel the task instead)");
  lua_settop(L, 1);
  if (!lun_running_task(L)) return lun_error_here(L, "ui.sleep can only be called in a task (:task(fn))");
  lua_pop(L, 1);
  if (lun_task_cancelled(L)) return lun_raise_cancellation(L);
  lua_pushlightuserdata(L, (void *)&lun_yield_sleep);
  lua_insert(L, 1);
  return lua_yieldk(L, 2, 0, lun_ui_sleep_k);
}

/* ui.await(publisher) -> value: suspends the running task until the publisher sends. */
static int lun_ui_await(lua_State *L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  if (!lun_running_task(L)) return lun_error_here(L, "ui.await can only be called in a task (:task(fn))");
  lua_pop(L, 1);
  if ((lua_type(L, 1) != LUA_TTABLE && lua_type(L, 1) != LUA_TUSERDATA) || lua_getfield(L, 1, "sink") != LUA_TFUNCTION)
    return luaL_argerror(L, 1, "a publisher (with :sink) expected");
  lua_settop(L, 1);
  if (lun_task_cancelled(L)) return lun_raise_cancellation(L);
  lua_pushlightuserdata(L, (void *)&lun_yield_await);
  lua_insert(L, 1);
  return lua_yieldk(L, 2, 0, lun_ui_await_k);
}

/* ui.isCancelled() -> boolean: whether the running task was cancelled (Task.isCancelled). */
static int lun_ui_is_cancelled(lua_State *L) {
  lua_pushboolean(L, lun_task_cancelled(L));
  return 1;
}

/* tostring(ui.CancellationError) -> its message. */
static int lun_cancellation_tostring(lua_State *L) {
  lua_pushliteral(L, "CancellationError: the task was cancelled");
  return 1;
}

/* Makes ui.CancellationError (a sealed, unique value) and stores it in ui (on top). [-0, +0] */
static void lun_open_cancellation(lua_State *L) {
  lua_newuserdatauv(L, 0, 0);
  lun_newmetatable(L, "lunette.CancellationError");
  lua_pushcfunction(L, lun_cancellation_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_cancellation);
  lua_setfield(L, -2, "CancellationError");
  lua_pushcfunction(L, lun_ui_is_cancelled);
  lua_setfield(L, -2, "isCancelled");
}

/* ui.Timer.publish(interval) -> timer publisher. */
static int lun_ui_timer_publish(lua_State *L) {
  lua_Number interval = luaL_checknumber(L, 1);
  lun_no_extra(L, "ui.Timer.publish", 1, 0);
  luaL_argcheck(L, interval > 0 && interval <= 1e9, 1, "the interval must be a number of seconds above 0, at most 1e9");
  *(lua_Number *)lua_newuserdatauv(L, sizeof(lua_Number), 0) = interval;
  luaL_setmetatable(L, LUN_MT_TIMER);
  return 1;
}

/* timer:autoconnect() -> timer (timers start when subscribed). */
static int lun_timer_autoconnect(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_TIMER);
  lun_no_extra(L, "timer:autoconnect", 0, 1);
  lua_settop(L, 1);
  return 1;
}

static int lun_timersub_cancel(lua_State *L);

/* Whether the timer subscription at 1 still runs: (subscription) -> boolean. */
static int lun_timersub_live(lua_State *L) {
  lua_pushboolean(L, *(int32_t *)luaL_checkudata(L, 1, LUN_MT_TIMERSUB) != 0);
  return 1;
}

/* timer:sink(fn) -> subscription: fn(now) every interval, on the runtime's
 * clock; a script's run starting it makes it the script's work (a reload
 * ends it: lun_scriptwork.c). */
static int lun_timer_sink(lua_State *L) {
  lua_Number interval = *(lua_Number *)luaL_checkudata(L, 1, LUN_MT_TIMER);
  int32_t id, *handle;
  lun_check_callback(L, 2);
  lua_settop(L, 2);
  handle = (int32_t *)lua_newuserdatauv(L, sizeof(int32_t), 0);
  *handle = 0;
  luaL_setmetatable(L, LUN_MT_TIMERSUB);
  lun_script_adopt(L, 3, lun_timersub_cancel, lun_timersub_live);   /* what may raise comes before the timer exists */
  lun_registry_table(L, &lun_key_timers);
  id = lun_task_next_id(L);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
  *handle = id;
  lunh(lun_state(L)->rt, clock, schedule, LUN_CLOCK_TIMER, id, (double)interval, (double)interval);
  return 1;
}

/* subscription:cancel() -> (): the timer stops. */
static int lun_timersub_cancel(lua_State *L) {
  int32_t *id = (int32_t *)luaL_checkudata(L, 1, LUN_MT_TIMERSUB);
  if (*id == 0) return 0;
  lunh(lun_state(L)->rt, clock, cancel, LUN_CLOCK_TIMER, *id);
  lun_registry_table(L, &lun_key_timers);
  lua_pushnil(L);
  lua_rawseti(L, -2, *id);
  *id = 0;
  return 0;
}

/* ui.clock.now() -> seconds on the runtime's clock. */
static int lun_clock_now(lua_State *L) {
  lua_pushnumber(L, (lua_Number)lunh(lun_state(L)->rt, clock, now));
  return 1;
}

/* Calls the function at fidx once, `after` seconds from now on the runtime's clock. [-0, +0] */
void lun_clock_once(lua_State *L, int fidx, double after) {
  int32_t id = lun_task_next_id(L);
  fidx = lua_absindex(L, fidx);
  lun_registry_table(L, &lun_key_timers);
  lua_pushvalue(L, fidx);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
  lunh(lun_state(L)->rt, clock, schedule, LUN_CLOCK_ONCE, id, after, 0);
}

/* Protected part of lun_clock_fire: (kind, id, now) -> (). */
static int lun_clock_fire_k(lua_State *L) {
  int kind = (int)lua_tointeger(L, 1);
  int32_t id = (int32_t)lua_tointeger(L, 2);
  if (kind == LUN_CLOCK_TASK) {
    lun_task_resume(L, id, 0);
    return 0;
  }
  lun_registry_table(L, &lun_key_timers);
  if (kind == LUN_CLOCK_ONCE) {                   /* called once, then forgotten */
    if (lua_rawgeti(L, -1, id) != LUA_TFUNCTION) return 0;
    lua_pushnil(L);
    lua_rawseti(L, -3, id);
    lua_call(L, 0, 0);
    return 0;
  }
  if (lua_rawgeti(L, -1, id) == LUA_TFUNCTION) {
    lun_State *S = lun_state(L);
    int32_t saved = S->active;
    lua_pushvalue(L, 3);
    S->active = 0;
    lua_call(L, 1, 0);
    S->active = saved;
  }
  return 0;
}

int lun_clock_fire(lua_State *L, int32_t kind, int32_t id, double now) {
  if (!lua_checkstack(L, 6)) return LUN_ERROR;
  lua_pushcfunction(L, lun_clock_fire_k);
  lua_pushinteger(L, kind);
  lua_pushinteger(L, id);
  lua_pushnumber(L, (lua_Number)now);
  return lun_protect(L, 3, 0);
}

void lun_open_task(lua_State *L) {
  static const luaL_Reg timer[] = {{"sink", lun_timer_sink}, {"autoconnect", lun_timer_autoconnect}, {NULL, NULL}};
  static const luaL_Reg subscription[] = {{"cancel", lun_timersub_cancel}, {NULL, NULL}};
  static const luaL_Reg clock[] = {{"now", lun_clock_now}, {NULL, NULL}};   /* advance: lun_app.c (it flushes) */
  lun_newmetatable_methods(L, LUN_MT_TIMER, timer);
  lun_newmetatable_methods(L, LUN_MT_TIMERSUB, subscription);
  lun_handle_kind(L, LUN_MT_TIMERSUB, lun_timersub_cancel);   /* ends with a view's state holding it */
  lun_open_cancellation(L);
  lua_pushcfunction(L, lun_ui_sleep);
  lua_setfield(L, -2, "sleep");
  lua_pushcfunction(L, lun_ui_await);
  lua_setfield(L, -2, "await");
  lua_newtable(L);
  lua_pushcfunction(L, lun_ui_timer_publish);
  lua_setfield(L, -2, "publish");
  lua_setfield(L, -2, "Timer");
  luaL_newlib(L, clock);
  lua_setfield(L, -2, "clock");
}
