/*
 * lun_interrupt.c — stopping a running line (Ctrl-C in the REPL).
 *
 * A signal handler may only set a flag: lun_interrupt does. While the host
 * runs a line it installs a count hook (lun_interruptible); the hook, in
 * the Lua thread, turns the flag into an ordinary error "interrupted", which
 * unwinds the line like any error and leaves the state as it was.
 */
#include "lun_internal.h"
#include <signal.h>

static volatile sig_atomic_t lun_interrupted = 0;

/* The count hook: raises "interrupted" once the flag is set. */
static void lun_interrupt_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  if (!lun_interrupted) return;
  lun_interrupted = 0;
  luaL_error(L, "interrupted");
}

void lun_interrupt(void) {
  lun_interrupted = 1;
}

void lun_interruptible(lua_State *L, int on) {
  lun_interrupted = 0;
  if (on) lua_sethook(L, lun_interrupt_hook, LUA_MASKCOUNT, 1000);
  else lua_sethook(L, NULL, 0, 0);
}
