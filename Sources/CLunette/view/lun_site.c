/*
 * lun_site.c — where a component view value was built: its site.
 *
 * Views built at different places in a body (the branches of an `if`) are
 * different identities, as SwiftUI's conditional content is (F01). A site
 * is the file's number and the line, kept apart (a view value holds them
 * as one integer, file << 32 | line). The file part holds the generation
 * of the file's text too (lun_site_file), which a reload that changed the
 * file moves on: a view value built before it (kept in state, a global, a
 * navigation path) has a site no moved key has, so it is never read
 * against the new text, and starts afresh:
 *
 * The file's number is given the first time a file the runtime loaded
 * (the script's, its modules': core/lun_sources.c) builds a view, so that
 * a reload can tell which file a site's line is in, compare that file's
 * old and new texts, and move the line with its view
 * (LunetteRuntime.reload, ReloadLines.swift). Code loaded from text (load,
 * the REPL's lines) has file 0: its lines never move.
 */
#include "core/core.h"
#include "view/view.h"

/* Records the site of the Lua code that built the component view value at
 * vidx (its caller's file and line). The file's line, not one counted
 * from the function's first: two functions would share those (two
 * helpers, each building a view on its first line, picked by an `if`),
 * and their views one identity. [-0, +0] */
void lun_view_site(lua_State *L, int vidx) {
  lua_Integer site = lun_site_here(L);
  if (!site) return;
  lua_pushinteger(L, site);
  lun_setkey(L, lun_state(L), vidx, LUN_K_SITE);
}

/* The site of the Lua code that called the running C function: its file
 * (its number and its text's generation, lun_site_file) << 32 | its line;
 * 0 if it has none. May raise (memory). */
lua_Integer lun_site_here(lua_State *L) {
  lua_Debug ar;
  lun_State *S;
  int32_t file;
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) return 0;
  S = lun_state(L);
  file = lun_sources_number(L, S, ar.source, ar.srclen);
  return (lua_Integer)lun_site_file(file, file ? S->siteEpochs[file] : 0) << 32 | (lua_Integer)ar.currentline;
}
