/*
 * lun_runner.c — what a test runner needs from the module: a time limit for
 * the code it runs, and a fresh virtual clock per spec.
 *
 * lunette_watch(co, seconds) gives coroutine co (and the threads it makes,
 * which inherit the hook) a deadline. Past it, the count hook suspends the
 * coroutine where it can (even inside pcall, which cannot catch a yield),
 * or raises "timed out" where it cannot; the runner then abandons it. So a
 * spec that hangs is reported failed and the run goes on.
 * lunette_loadfile reads spec files (results leave through the runner's own
 * channel, held by Swift: SpecChannel.swift).
 */
#include "core/core.h"
#include "drive/drive.h"

/* The count hook: past the deadline, suspend the watched coroutine where it
 * can; anywhere else raise — in a thread the test made or a task's (they
 * inherit the hook), a yield would return to the test or the scheduler,
 * which would resume it, and the test would never be stopped. From then on
 * it fires at every instruction of that thread, so a loop that catches
 * each error in pcall unwinds, one catch at a time, as the budget's stop
 * does; back in the watched coroutine, it suspends it (and a test that
 * ends anyway past its limit fails: spec_runner.lua). */
static const char lun_key_stopped = 0;   /* "file:line: " where the watched coroutine was suspended */

/* Keeps where the running code is, as "file:line: " of the first frame not
 * the runtime's own (chunks named "=(…)"): read in the hook, the line is the
 * instruction running (read from the suspended coroutine afterwards, it was
 * the one before: a loop on line 10 was reported at line 9). [-0, +0] */
static void lun_watchdog_place(lua_State *L, lua_Debug *ar) {
  lua_Debug frame;
  int level;
  if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0 && strncmp(ar->source, "=(", 2) != 0) {
    lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_stopped);
    return;
  }
  for (level = 1; level < 40 && lua_getstack(L, level, &frame); level++) {
    if (!lua_getinfo(L, "Sl", &frame) || frame.currentline <= 0 || strncmp(frame.source, "=(", 2) == 0) continue;
    lua_pushfstring(L, "%s:%d: ", frame.short_src, frame.currentline);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_stopped);
    return;
  }
}

static void lun_watchdog_hook(lua_State *L, lua_Debug *ar) {
  const lun_State *S = lun_state(L);
  if (!lun_test_overdue(S)) return;
  lua_sethook(L, lun_watchdog_hook, LUA_MASKCOUNT, 1);
  if (L == S->testThread && lua_isyieldable(L)) {
    if (lua_checkstack(L, 4)) lun_watchdog_place(L, ar);
    lua_yield(L, 0);
  }
  else luaL_error(L, "timed out");
}

/* lunette_watch(co, seconds) -> (): starts the watch. */
static int lun_watch(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  lua_Number seconds = luaL_checknumber(L, 2);
  luaL_argcheck(L, co != NULL, 1, "coroutine expected");
  lun_state(L)->testDeadline = lun_test_clock() + seconds;
  lun_state(L)->testThread = co;
  lua_sethook(co, lun_watchdog_hook, LUA_MASKCOUNT, 1000);
  return 0;
}

/* lunette_unwatch(co) -> timedOut, place: ends the watch; true if the
 * deadline passed, and where the coroutine was suspended ("file:line: ",
 * or nil). */
static int lun_unwatch(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argcheck(L, co != NULL, 1, "coroutine expected");
  lun_State *S = lun_state(L);
  lua_pushboolean(L, S->testDeadline != 0 && lun_test_clock() >= S->testDeadline);
  S->testDeadline = 0;
  S->testThread = NULL;
  lua_sethook(co, NULL, 0, 0);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_stopped);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_stopped);
  return 2;
}

/* lunette_reset_clock() -> (): the virtual clock starts again from 0, nothing scheduled. */
static int lun_reset_clock(lua_State *L) {
  lunh(lun_state(L)->rt, clock, reset);
  return 0;
}

/* lunette_keep_settings() -> (): what ui.configure and ui.trace set so far
 * (a spec file's top level, --strict) is what ui.reset() gives back. */
static int lun_keep_settings(lua_State *L) {
  lun_State *S = lun_state(L);
  S->baseListWindow = S->listWindow;
  S->baseStrict = S->strict;
  S->baseTracing = S->tracing;
  S->baseScriptLimit = lun_budget_script_limit(S);
  return 0;
}

/* lunette_loadfile(path) -> chunk | nil, message: a text chunk from a file,
 * whatever the sandbox left of loadfile. */
static int lun_loadfile(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  if (luaL_loadfilex(L, path, "t") == LUA_OK) return 1;
  lua_pushnil(L);
  lua_insert(L, -2);
  return 2;
}

/* lunette_problems() -> { errors }, { warnings }: what went wrong in views
 * and events since the last call (error nodes, errors raised by onAppear,
 * onChange, onReceive or a task, warnings), each "View: file:line: ...". */
static int lun_problems(lua_State *L) {
  const lun_Host *rt = lun_state(L)->rt;
  const char *text;
  size_t len;
  int isError, n[2] = {0, 0};
  lua_newtable(L);
  lua_newtable(L);
  while ((text = lunh(rt, inspect, problem_next, &isError, &len)) != NULL) {
    lua_pushlstring(L, text, len);
    lua_rawseti(L, isError ? -3 : -2, ++n[isError ? 0 : 1]);
  }
  return 2;
}

/* lunette_last_miss() -> message | nil: the last app:find that matched
 * nothing, with the tree it searched (to explain a nil that was indexed). */
static int lun_runner_last_miss(lua_State *L) {
  lua_settop(L, 0);
  lun_last_miss(L);
  return lua_gettop(L) > 0 ? 1 : 0;
}

/* Protected part of lun_install_runner_support. */
static int lun_install_runner_k(lua_State *L) {
  lua_register(L, "lunette_loadfile", lun_loadfile);
  lua_register(L, "lunette_watch", lun_watch);
  lua_register(L, "lunette_unwatch", lun_unwatch);
  lua_register(L, "lunette_reset_clock", lun_reset_clock);
  lua_register(L, "lunette_keep_settings", lun_keep_settings);
  lua_register(L, "lunette_problems", lun_problems);
  lua_register(L, "lunette_last_miss", lun_runner_last_miss);
  return 0;
}

int lun_install_runner_support(lua_State *L) {
  if (!lua_checkstack(L, 4)) return LUN_ERROR;
  lua_pushcfunction(L, lun_install_runner_k);
  return lun_protect(L, 0, 0);
}
