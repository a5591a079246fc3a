/*
 * lun_libraries.c — the standard libraries a script gets.
 *
 * Sandboxed (the embedding's default, `lunette run --sandbox`), the state
 * is built from an allow-list: only these libraries are opened, so nothing
 * else exists to be found (not in package.loaded, not through require):
 *   base      without dofile and loadfile; load takes text chunks only
 *   package   require with preloaded modules and the host's module paths
 *             only: no C searchers, no loadlib, no searchpath, no cpath
 *   coroutine, table, string (without string.dump), math, utf8
 *   os        clock, time, date, difftime
 *   debug     traceback
 * Not sandboxed (the command line), every standard library is opened.
 *
 * Either way, string.find, match, gmatch and gsub are Lunette's, whose
 * matching looks at the budget (lun_pattern.c), and finalizers are refused: a __gc runs at any allocation with
 * hooks off, so no budget could stop it; setmetatable (and
 * debug.setmetatable) reject a metatable with a __gc field, and
 * debug.sethook, which would take the budget's hook away, is refused.
 */
#include "core/core.h"
#include <limits.h>
#include <stdlib.h>

static const luaL_Reg lun_safe_libs[] = {
  {LUA_GNAME, luaopen_base}, {LUA_LOADLIBNAME, luaopen_package},
  {LUA_COLIBNAME, luaopen_coroutine}, {LUA_TABLIBNAME, luaopen_table},
  {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
  {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL}};

/* Raises unless the metatable argument at idx is free of __gc. */
static void lun_check_no_gc(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TTABLE && lun_rawfield(L, idx, "__gc") != LUA_TNIL)
    luaL_error(L, "finalizers (__gc) are not available to scripts: they run outside every time budget");
}

/* setmetatable / debug.setmetatable without finalizers. Upvalue 1: the
 * library's function; the metatable is argument 2. */
static int lun_guarded_setmetatable(lua_State *L) {
  lun_check_no_gc(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* debug.sethook: refused. */
static int lun_refused_sethook(lua_State *L) {
  return luaL_error(L, "debug.sethook is not available: the runtime's time budget and Ctrl-C use the hook");
}

/* Replaces t[name] (t at idx) by the guarded version of it. [-0, +0] */
static void lun_guard(lua_State *L, int idx, const char *name) {
  idx = lua_absindex(L, idx);
  if (lua_getfield(L, idx, name) != LUA_TFUNCTION) { lua_pop(L, 1); return; }
  lua_pushcclosure(L, lun_guarded_setmetatable, 1);
  lua_setfield(L, idx, name);
}

/* load(chunk, name, mode, env) that takes text only: binary chunks can
 * break the VM. Upvalue 1: the library's load. */
static int lun_text_load(lua_State *L) {
  lua_settop(L, 4);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_pushliteral(L, "t");
  lua_replace(L, 4);
  lua_call(L, 4, LUA_MULTRET);
  return lua_gettop(L);
}

/* Opens library `name` without a global and keeps only the listed fields,
 * as a new table set as the global and in package.loaded. [-0, +0] */
static void lun_open_subset(lua_State *L, const char *name, lua_CFunction open, const char *const keep[]) {
  int i;
  luaL_requiref(L, name, open, 0);
  lua_newtable(L);
  for (i = 0; keep[i]; i++) {
    lua_getfield(L, -2, keep[i]);
    lua_setfield(L, -2, keep[i]);
  }
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
  lua_setglobal(L, name);
  lua_pop(L, 1);
}

/* 1 if name is a module name the sandbox looks up: letters, digits, '_'
 * and '-', in parts separated by single dots. */
static int lun_module_name_ok(const char *name, size_t len) {
  size_t i;
  if (len == 0 || len > 200 || name[0] == '.' || name[len - 1] == '.') return 0;
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)name[i];
    if (c == '.' && name[i + 1] == '.') return 0;
    if (!(c == '.' || c == '_' || c == '-' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'))) return 0;
  }
  return 1;
}

/* 1 if the file at path, with every link resolved, lies inside the
 * directory whose resolved path is root (rlen bytes): a link in the module
 * folder reaches nothing outside it. */
static int lun_inside(const char *path, const char *root, size_t rlen) {
  char resolved[PATH_MAX];
  if (!realpath(path, resolved)) return 0;
  return strncmp(resolved, root, rlen) == 0 && (resolved[rlen] == '/' || (rlen == 1 && root[0] == '/'));
}

/* Tries dir/<file><suffix> for the module; pushes its loader and file name
 * and returns 2 if it is there (inside dir), 0 if not. Raises for a file
 * that does not load. */
static int lun_try_module(lua_State *L, const char *name, const char *dir, const char *file, const char *suffix) {
  char root[PATH_MAX];
  const char *candidate;
  if (!realpath(dir, root)) return 0;
  candidate = lua_pushfstring(L, "%s/%s%s", dir, file, suffix);
  if (!lun_inside(candidate, root, strlen(root))) { lua_pop(L, 1); return 0; }
  if (luaL_loadfilex(L, candidate, "t") != LUA_OK)
    return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, candidate, lua_tostring(L, -1));
  lua_insert(L, -2);                              /* loader, file name */
  return 2;
}

/* The sandbox's searcher for Lua modules: (name) -> loader, file | message.
 * It looks only in the host's module directories, a copy of which it holds
 * as upvalue 1 (a list): package.path, which a script can assign, is not
 * read, a directory's name is never parsed as a template, and a file is
 * loaded only if it lies inside its directory once links are resolved.
 * Its messages name only the module, never what lies outside (R22). */
static int lun_host_searcher(lua_State *L) {
  size_t len;
  const char *name = luaL_checklstring(L, 1, &len);
  const char *file;
  lua_Integer i, n;
  if (!lun_module_name_ok(name, len)) {
    lua_pushliteral(L, "the sandbox finds modules by names of letters, digits, '_' and '-' parted by dots");
    return 1;
  }
  file = luaL_gsub(L, name, ".", "/");
  n = (lua_Integer)lua_rawlen(L, lua_upvalueindex(1));
  for (i = 1; i <= n; i++) {
    const char *dir;
    lua_rawgeti(L, lua_upvalueindex(1), i);
    dir = lua_tostring(L, -1);
    if (dir && (lun_try_module(L, name, dir, file, ".lua") || lun_try_module(L, name, dir, file, "/init.lua"))) return 2;
    lua_pop(L, 1);
  }
  lua_pushfstring(L, "no module '%s' in the script's module paths", name);
  return 1;
}

/* Protected part of lun_sandbox_module_paths: (directories, one per line) -> (). */
static int lun_sandbox_module_paths_k(lua_State *L) {
  size_t len;
  const char *dirs = luaL_checklstring(L, 1, &len), *end = dirs + len;
  lua_Integer n = 0;
  lua_newtable(L);                                /* the list the searcher keeps */
  while (dirs < end) {
    const char *nl = memchr(dirs, '\n', (size_t)(end - dirs));
    size_t dlen = nl ? (size_t)(nl - dirs) : (size_t)(end - dirs);
    if (dlen) { lua_pushlstring(L, dirs, dlen); lua_rawseti(L, -2, ++n); }
    dirs += dlen + 1;
  }
  lua_getglobal(L, LUA_LOADLIBNAME);
  if (!lua_istable(L, -1) || lua_getfield(L, -1, "searchers") != LUA_TTABLE) return 0;
  lua_pushvalue(L, 2);
  lua_pushcclosure(L, lun_host_searcher, 1);
  lua_rawseti(L, -2, 2);                           /* in place of the Lua searcher (package.path) */
  lun_sources_wrap_searcher(L);                    /* the files it finds are kept, for a reload */
  return 0;
}

int lun_sandbox_module_paths(lua_State *L, const char *directories, size_t len) {
  if (!lua_checkstack(L, 6)) return LUN_ERROR;
  lua_pushcfunction(L, lun_sandbox_module_paths_k);
  lua_pushlstring(L, directories, len);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    lua_pop(L, 1);
    return LUN_ERROR;
  }
  return LUN_OK;
}

/* Protected part of lun_open_libraries: (sandboxed) -> (). */
static int lun_open_libraries_k(lua_State *L) {
  static const char *const os_keep[] = {"clock", "time", "date", "difftime", NULL};
  static const char *const debug_keep[] = {"traceback", NULL};
  const luaL_Reg *lib;
  int sandboxed = lua_toboolean(L, 1);
  if (!sandboxed) luaL_openlibs(L);
  else {
    for (lib = lun_safe_libs; lib->func; lib++) {
      luaL_requiref(L, lib->name, lib->func, 1);
      lua_pop(L, 1);
    }
    lun_open_subset(L, LUA_OSLIBNAME, luaopen_os, os_keep);
    lun_open_subset(L, LUA_DBLIBNAME, luaopen_debug, debug_keep);
    lua_pushnil(L); lua_setglobal(L, "dofile");
    lua_pushnil(L); lua_setglobal(L, "loadfile");
    lua_getglobal(L, "load");
    lua_pushcclosure(L, lun_text_load, 1);
    lua_setglobal(L, "load");
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_pushnil(L); lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    lua_getglobal(L, LUA_LOADLIBNAME);
    lua_pushnil(L); lua_setfield(L, -2, "loadlib");
    lua_pushnil(L); lua_setfield(L, -2, "searchpath");
    lua_pushliteral(L, ""); lua_setfield(L, -2, "path");
    lua_pushliteral(L, ""); lua_setfield(L, -2, "cpath");
    lua_getfield(L, -1, "searchers");              /* keep the preload and Lua searchers */
    lua_pushnil(L); lua_rawseti(L, -2, 4);
    lua_pushnil(L); lua_rawseti(L, -2, 3);
    lua_pop(L, 2);
  }
  lun_sources_wrap_searcher(L);                   /* the files it finds are kept, for a reload (lun_sources.c) */
  lun_sources_wrap_file_loaders(L);               /* and what dofile runs is no kept file's */
  lun_use_budgeted_patterns(L);                   /* matching under the budget (lun_pattern.c) */
  lua_pushglobaltable(L);
  lun_guard(L, -1, "setmetatable");
  lua_pop(L, 1);
  if (lua_getglobal(L, LUA_DBLIBNAME) == LUA_TTABLE) {
    lun_guard(L, -1, "setmetatable");
    if (lua_getfield(L, -1, "sethook") == LUA_TFUNCTION) {
      lua_pushcfunction(L, lun_refused_sethook);
      lua_setfield(L, -3, "sethook");
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return 0;
}

int lun_open_libraries(lua_State *L, int sandboxed) {
  if (!lua_checkstack(L, 4)) return LUN_ERROR;
  lua_pushcfunction(L, lun_open_libraries_k);
  lua_pushboolean(L, sandboxed);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {         /* no runtime yet: no budget chain */
    lua_pop(L, 1);
    return LUN_ERROR;
  }
  return LUN_OK;
}
