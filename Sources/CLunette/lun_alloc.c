/*
 * lun_alloc.c — the Lua allocator, with a cap on the memory scripts may use.
 *
 * Past the cap an allocation fails, and Lua raises "not enough memory" in
 * the code that asked (a body, an action); the state stays usable.
 */
#include "lun_internal.h"
#include <stdlib.h>

/* Memory in use by a state, and its cap (0: none). */
typedef struct lun_Memory {
  size_t used;
  size_t limit;
} lun_Memory;

/* lua_Alloc: realloc/free with accounting; refuses growth past the cap. */
static void *lun_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  lun_Memory *m = (lun_Memory *)ud;
  size_t old = ptr ? osize : 0;
  void *p;
  if (nsize == 0) {
    free(ptr);
    m->used -= old;
    return NULL;
  }
  if (m->limit && nsize > old && m->used - old + nsize > m->limit) return NULL;
  p = realloc(ptr, nsize);
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

void lun_close_state(lua_State *L) {
  void *ud;
  lua_Alloc f = lua_getallocf(L, &ud);
  lua_close(L);
  if (f == lun_alloc) free(ud);
}

size_t lun_memory_used(lua_State *L) {
  void *ud;
  return lua_getallocf(L, &ud) == lun_alloc ? ((lun_Memory *)ud)->used : 0;
}

void lun_memory_limit(lua_State *L, size_t limit) {
  void *ud;
  if (lua_getallocf(L, &ud) == lun_alloc) ((lun_Memory *)ud)->limit = limit;
}
