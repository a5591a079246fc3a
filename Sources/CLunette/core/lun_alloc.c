/*
 * lun_alloc.c — the Lua allocator, with a cap on the memory scripts may use,
 * and the way to a state's runtime data.
 *
 * Past the cap an allocation fails, and Lua raises "not enough memory" in
 * the code that asked (a body, an action); the state stays usable.
 *
 * The allocator's user data is per state, reachable from every coroutine of
 * it, and ours in every state Lunette runs in: it holds the runtime's data
 * (lun_state). A state the stock interpreter made (the loadable module) gets
 * our allocator wrapped around its own when the runtime is installed. So
 * nothing about finding a runtime is process-wide.
 */
#include "core/core.h"
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Memory in use by a state, and its cap (0: none). */
typedef struct lun_Memory {
  size_t used;
  size_t host;            /* bytes the host holds for scripts (copies of their strings), charged to the cap */
  size_t limit;
  lun_State *state;       /* the runtime installed in this state (lun_state) */
  lua_Alloc inner;        /* an adopted state's own allocator, which does the work */
  void *innerUd;
} lun_Memory;

/* lua_Alloc: realloc/free with accounting; refuses growth past the cap. */
LUN_HOT static void *lun_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  lun_Memory *m = (lun_Memory *)ud;
  size_t old = ptr ? osize : 0;
  void *p;
  if (nsize == 0) {
    if (m->inner) m->inner(m->innerUd, ptr, osize, 0); else free(ptr);
    m->used = m->used > old ? m->used - old : 0;     /* an adopted state's blocks predate us */
    return NULL;
  }
  if (m->limit && nsize > old && m->used + m->host - old + nsize > m->limit) return NULL;
  p = m->inner ? m->inner(m->innerUd, ptr, osize, nsize) : realloc(ptr, nsize);
  if (p) m->used = m->used - old + nsize;
  return p;
}

lua_State *lun_new_state(size_t limit) {
  lun_Memory *m = (lun_Memory *)calloc(1, sizeof(lun_Memory));
  lua_State *L;
  if (!m) return NULL;
  m->limit = limit;
  L = lua_newstate(lun_alloc, m);
  if (!L) free(m);
  return L;
}

/* Makes our allocator the state's (wrapping its own) and records S in it;
 * 0 if out of memory. */
int lun_alloc_adopt(lua_State *L, lun_State *S) {
  void *ud;
  lua_Alloc f = lua_getallocf(L, &ud);
  lun_Memory *m;
  if (f != lun_alloc) {
    if (!(m = (lun_Memory *)calloc(1, sizeof(lun_Memory)))) return 0;   /* lives as long as the state's process */
    m->inner = f;
    m->innerUd = ud;
    lua_setallocf(L, lun_alloc, m);
    ud = m;
  }
  ((lun_Memory *)ud)->state = S;
  return 1;
}

/* The runtime data of L (any of its coroutines): a lua_getallocf away. */
LUN_HOT lun_State *lun_state(lua_State *L) {
  void *ud;
  lua_getallocf(L, &ud);
  return ((lun_Memory *)ud)->state;
}

void lun_close_state(lua_State *L) {
  void *ud;
  lua_Alloc f = lua_getallocf(L, &ud);
  lua_close(L);
  if (f == lun_alloc) free(ud);
}

size_t lun_memory_used(lua_State *L) {
  void *ud;
  if (lua_getallocf(L, &ud) != lun_alloc) return 0;
  return ((lun_Memory *)ud)->used + ((lun_Memory *)ud)->host;
}

LUN_HOT int lun_memory_charge(lua_State *L, long long delta) {
  void *ud;
  lun_Memory *m;
  if (lua_getallocf(L, &ud) != lun_alloc) return 1;
  m = (lun_Memory *)ud;
  if (delta < 0) {
    size_t back = (size_t)(-(delta + 1)) + 1;        /* no overflow at LLONG_MIN */
    m->host = m->host > back ? m->host - back : 0;
    return 1;
  }
  if (m->limit && ((size_t)delta > m->limit || m->used + m->host > m->limit - (size_t)delta)) return 0;
  m->host += (size_t)delta;
  return 1;
}

void lun_memory_limit(lua_State *L, size_t limit) {
  void *ud;
  if (lua_getallocf(L, &ud) == lun_alloc) ((lun_Memory *)ud)->limit = limit;
}

/* Hands the process's freed heap pages back to the system (glibc's
 * malloc_trim; elsewhere nothing). The runtime calls it after a flush that
 * gave back large scratch (a mount of thousands of views), so what the
 * process holds afterwards is what stays mounted. Never raises. */
void lun_heap_trim(void) {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}
