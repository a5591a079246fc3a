/*
 * lun_site.c — where a component view value was built: its site.
 *
 * Views built at different places in a body (the branches of an `if`) are
 * different identities, as SwiftUI's conditional content is (F01). A site
 * is the file's number and the line:
 *
 *   site = file << LUN_SITE_LINE_BITS | line
 *
 * The file's number is given the first time a file ("@path" chunks, the
 * script's and its modules') builds a view, so that a reload can tell
 * which file a site's line is in, compare that file's old and new texts,
 * and move the line with its view (LunetteRuntime.reload, ReloadLines.swift).
 * Code loaded from text (load, the REPL's lines) has file 0: its lines
 * never move. The names are kept in a registry table, charged to the
 * scripts' memory as theirs; at most LUN_SITE_MAX_FILES files are numbered.
 */
#include "core/core.h"
#include "view/view.h"

#include <string.h>

static const char lun_key_site_files = 0;   /* { [n] = "@path", ["@path"] = n } */

/* The number of the file whose chunk name is source (srclen bytes), given
 * on first sight; 0 for a chunk that is no file, or past the most files.
 * The last one found is kept (most views of a body are built in one
 * file): its name is compared, not its address, which another chunk's
 * could take once that one is collected. May raise (memory). */
static int32_t lun_site_file(lua_State *L, lun_State *S, const char *source, size_t srclen) {
  int32_t n;
  if (srclen < 2 || source[0] != '@' || srclen > LUN_SITE_MAX_NAME) return 0;
  if (S->siteLast && S->siteLastLen == srclen && memcmp(S->siteLastName, source, srclen) == 0) return S->siteLast;
  lun_registry_table(L, &lun_key_site_files);
  lua_pushlstring(L, source, srclen);
  if (lua_rawget(L, -2) == LUA_TNUMBER) {
    n = (int32_t)lua_tointeger(L, -1);
  } else if (S->siteFiles < LUN_SITE_MAX_FILES) {
    n = ++S->siteFiles;
    lua_pushlstring(L, source, srclen);
    lua_pushinteger(L, n);
    lua_rawset(L, -4);
    lua_pushlstring(L, source, srclen);
    lua_rawseti(L, -3, n);
  } else {
    lua_pop(L, 2);
    return 0;
  }
  lua_rawgeti(L, -2, n);                          /* the name the table keeps: it lives as long */
  S->siteLastName = lua_tostring(L, -1);
  S->siteLastLen = srclen;
  S->siteLast = n;
  lua_pop(L, 3);
  return n;
}

/* Records the site of the Lua code that built the component view value at
 * vidx (its caller's file and line). The file's line, not one counted
 * from the function's first: two functions would share those (two
 * helpers, each building a view on its first line, picked by an `if`),
 * and their views one identity. [-0, +0] */
void lun_view_site(lua_State *L, int vidx) {
  lua_Debug ar;
  lun_State *S;
  lua_Integer file;
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) return;
  S = lun_state(L);
  file = lun_site_file(L, S, ar.source, ar.srclen);
  lua_pushinteger(L, file << LUN_SITE_LINE_BITS | (ar.currentline & LUN_SITE_LINE_MASK));
  lun_setkey(L, S, vidx, LUN_K_SITE);
}

/* The chunk name ("@path") of site file n, or NULL: for the host, which
 * compares the file's texts at a reload. Never raises. */
const char *lun_site_file_name(lua_State *L, int32_t n, size_t *len) {
  const char *name = NULL;
  int top = lua_gettop(L);
  *len = 0;
  if (n < 1 || !lua_checkstack(L, 2)) return NULL;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_site_files) == LUA_TTABLE && lua_rawgeti(L, -1, n) == LUA_TSTRING)
    name = lua_tolstring(L, -1, len);             /* kept by the table: valid while the state lives */
  lua_settop(L, top);
  return name;
}

/* How many files sites have numbered. Never raises. */
int32_t lun_site_files(lua_State *L) {
  return lun_state(L)->siteFiles;
}
