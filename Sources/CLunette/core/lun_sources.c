/*
 * lun_sources.c — the files the runtime loaded, and their numbers.
 *
 * A reload moves a view's line with it (view/lun_site.c): it compares the
 * text a file had when its views were built with the text it has now. So
 * the runtime keeps the text of each file it loads itself — the script the
 * host runs (lun_sources_keep, through run(file:)) and the modules `require`
 * finds (the file searcher, wrapped: lun_sources_wrap_searcher) — as read at
 * that moment, in a registry table charged to the scripts' memory. Only
 * those files are numbered: a chunk name a script gives `load` ("@path")
 * names no file the runtime reads.
 *
 *   texts = { ["@path"] = text }, files = { [n] = "@path", ["@path"] = n }
 */
#include "core/core.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const char lun_key_source_texts = 0, lun_key_source_files = 0, lun_key_source_loads = 0;

/* Keeps text (at tidx) as what the file of chunk name (at nidx) held when
 * it was loaded; a name that is no file's ("@path") or too long is not
 * kept, and a text that is nil or too large forgets what the name had (it
 * would be another text than the one loaded). May raise (memory). [-0, +0] */
static void lun_sources_put(lua_State *L, int nidx, int tidx) {
  size_t nlen;
  const char *name = lua_tolstring(L, nidx, &nlen);
  if (!name || nlen < 2 || name[0] != '@' || nlen > LUN_SITE_MAX_NAME) return;
  nidx = lua_absindex(L, nidx);
  tidx = lua_absindex(L, tidx);
  lun_state(L)->siteLast = 0;                     /* the last file found, or not found, may be this one */
  lun_state(L)->siteMissLen = 0;
  lun_registry_table(L, &lun_key_source_texts);
  lua_pushvalue(L, nidx);
  if (lua_type(L, tidx) == LUA_TSTRING && lua_rawlen(L, tidx) <= LUN_SOURCE_MAX) lua_pushvalue(L, tidx);
  else lua_pushnil(L);
  lua_rawset(L, -3);
  lun_registry_table(L, &lun_key_source_loads);   /* loads of the name so far: the host tells a text taken */
  lua_pushvalue(L, nidx);                         /* anew from one it had */
  lua_pushvalue(L, nidx);
  lua_pushinteger(L, lua_rawget(L, -3) == LUA_TNUMBER ? (lua_tointeger(L, -1) + 1) & 0x3fffffff : 1);
  lua_replace(L, -2);
  lua_rawset(L, -3);
  lua_pop(L, 2);
}

/* Protected part of lun_sources_keep: (name pointer, text pointer, text length) -> (). */
static int lun_sources_keep_k(lua_State *L) {
  lua_pushstring(L, (const char *)lua_touserdata(L, 1));
  lua_pushlstring(L, (const char *)lua_touserdata(L, 2), (size_t)lua_tointeger(L, 3));
  lun_sources_put(L, -2, -1);
  return 0;
}

int lun_sources_keep(lua_State *L, const char *chunkname, const char *text, size_t len) {
  if (!lua_checkstack(L, 6)) return LUN_ERROR;
  lua_pushcfunction(L, lun_sources_keep_k);       /* nothing is made outside the protected call */
  lua_pushlightuserdata(L, (void *)chunkname);
  lua_pushlightuserdata(L, (void *)text);
  lua_pushinteger(L, (lua_Integer)len);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) {
    lua_pop(L, 1);
    return LUN_ERROR;
  }
  return LUN_OK;
}

/* Pushes the text of the regular file at path, of at most LUN_SOURCE_MAX
 * bytes, or nil. May raise (memory). [-0, +1] */
static void lun_sources_read(lua_State *L, const char *path) {
  struct stat st;
  luaL_Buffer b;
  size_t got;
  FILE *f = fopen(path, "rb");
  if (!f) { lua_pushnil(L); return; }
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 || st.st_size > LUN_SOURCE_MAX) {
    fclose(f);
    lua_pushnil(L);
    return;
  }
  luaL_buffinit(L, &b);
  got = fread(luaL_prepbuffsize(&b, (size_t)st.st_size + 1), 1, (size_t)st.st_size + 1, f);
  luaL_addsize(&b, got);
  fclose(f);
  luaL_pushresult(&b);
  if (got > (size_t)st.st_size) { lua_pop(L, 1); lua_pushnil(L); }   /* it grew as it was read: not kept */
}

/* The file searcher, wrapped: (name) -> what the searcher in upvalue 1
 * gives; when it found a file, that file's text is kept as loaded. */
static int lun_sources_searcher(lua_State *L) {
  lua_settop(L, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_call(L, 1, 2);                              /* loader, file name | message */
  if (lua_isfunction(L, 2) && lua_type(L, 3) == LUA_TSTRING) {
    lua_pushfstring(L, "@%s", lua_tostring(L, 3));   /* its chunk name, as luaL_loadfilex gives it */
    lun_sources_read(L, lua_tostring(L, 3));
    lun_sources_put(L, -2, -1);                   /* unreadable now: what the name had is forgotten */
    lua_pop(L, 2);
  }
  return 2;
}

/* loadfile or dofile (upvalue 1), wrapped: the file it loads is forgotten
 * first, so what it builds is no file's (its lines are never moved: the
 * text it runs is not the one a require kept). */
static int lun_sources_file_loader(lua_State *L) {
  if (lua_type(L, 1) == LUA_TSTRING) {
    lua_pushfstring(L, "@%s", lua_tostring(L, 1));
    lua_pushnil(L);
    lun_sources_put(L, -2, -1);
    lua_pop(L, 2);
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* Wraps the global loadfile and dofile (where there are: not in the sandbox). [-0, +0] */
void lun_sources_wrap_file_loaders(lua_State *L) {
  static const char *const names[] = {"loadfile", "dofile", NULL};
  int i;
  for (i = 0; names[i]; i++) {
    if (lua_getglobal(L, names[i]) == LUA_TFUNCTION) {
      lua_pushcclosure(L, lun_sources_file_loader, 1);
      lua_setglobal(L, names[i]);
    } else lua_pop(L, 1);
  }
}

/* Wraps package.searchers[2] (the Lua file searcher, or the sandbox's) so
 * the files it finds are kept. [-0, +0] */
void lun_sources_wrap_searcher(lua_State *L) {
  int top = lua_gettop(L);
  if (lua_getglobal(L, LUA_LOADLIBNAME) == LUA_TTABLE && lua_getfield(L, -1, "searchers") == LUA_TTABLE
      && lua_rawgeti(L, -1, 2) == LUA_TFUNCTION) {
    lua_pushcclosure(L, lun_sources_searcher, 1);
    lua_rawseti(L, -2, 2);
  }
  lua_settop(L, top);
}

/* Remembers that chunk name source is no numbered file's (until a text is
 * kept: lun_sources_put); returns 0. */
static int32_t lun_sources_missed(lun_State *S, const char *source, size_t srclen) {
  if (srclen <= sizeof S->siteMiss) {
    memcpy(S->siteMiss, source, srclen);
    S->siteMissLen = srclen;
  }
  return 0;
}

/* The number of the file whose chunk name is source (srclen bytes): given
 * the first time a view is built from it, if the runtime loaded it (0:
 * code loaded from text, or past the most files). The last one found is
 * kept: most views of a body are built in one file (its name compared,
 * not its address, which another chunk's could take). May raise. */
int32_t lun_sources_number(lua_State *L, lun_State *S, const char *source, size_t srclen) {
  int32_t n;
  if (srclen < 2 || source[0] != '@' || srclen > LUN_SITE_MAX_NAME) return 0;
  if (S->siteLast && S->siteLastLen == srclen && memcmp(S->siteLastName, source, srclen) == 0) return S->siteLast;
  if (S->siteMissLen == srclen && memcmp(S->siteMiss, source, srclen) == 0) return 0;   /* a script lua5.4 loaded */
  lun_registry_table(L, &lun_key_source_texts);   /* no text kept (loaded from text, by dofile, unreadable): */
  lua_pushlstring(L, source, srclen);             /* its views are no file's, never moved */
  if (lua_rawget(L, -2) == LUA_TNIL) { lua_pop(L, 2); return lun_sources_missed(S, source, srclen); }
  lua_pop(L, 2);
  lun_registry_table(L, &lun_key_source_files);
  lua_pushlstring(L, source, srclen);
  if (lua_rawget(L, -2) == LUA_TNUMBER) n = (int32_t)lua_tointeger(L, -1);
  else if (S->siteFiles >= LUN_SITE_MAX_FILES) { lua_pop(L, 2); return lun_sources_missed(S, source, srclen); }
  else {                                          /* its first view: the file is numbered */
    n = ++S->siteFiles;
    lua_pushlstring(L, source, srclen);
    lua_pushinteger(L, n);
    lua_rawset(L, -4);
    lua_pushlstring(L, source, srclen);
    lua_rawseti(L, -3, n);
  }
  lua_rawgeti(L, -2, n);                          /* the name the table keeps: it lives as long */
  S->siteLastName = lua_tostring(L, -1);
  S->siteLastLen = srclen;
  S->siteLast = n;
  lua_pop(L, 3);
  return n;
}

/* Pushes what registry table key holds for file n (its name, if key is
 * NULL), or nil. Makes nothing (the tables' own strings are the keys):
 * never raises. Needs 4 free slots. [-0, +1] */
static int lun_sources_at(lua_State *L, int32_t n, const void *key) {
  int top = lua_gettop(L), t = LUA_TNIL;
  if (n >= 1 && lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_source_files) == LUA_TTABLE
      && lua_rawgeti(L, -1, n) == LUA_TSTRING) {
    if (!key) t = LUA_TSTRING;
    else if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) {
      lua_pushvalue(L, -2);
      t = lua_rawget(L, -2);
    } else lua_pushnil(L);
  } else lua_pushnil(L);
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  return t;
}

/* A string field of file n (kept by its table: valid while the state
 * lives), or NULL. Never raises. */
static const char *lun_sources_string(lua_State *L, int32_t n, const void *key, size_t *len) {
  const char *s = NULL;
  *len = 0;
  if (!lua_checkstack(L, 4)) return NULL;
  if (lun_sources_at(L, n, key) == LUA_TSTRING) s = lua_tolstring(L, -1, len);
  lua_pop(L, 1);
  return s;
}

int32_t lun_site_files(lua_State *L) {
  return lun_state(L)->siteFiles;
}

const char *lun_site_file_name(lua_State *L, int32_t n, size_t *len) {
  return lun_sources_string(L, n, NULL, len);
}

const char *lun_site_file_text(lua_State *L, int32_t n, size_t *len) {
  return lun_sources_string(L, n, &lun_key_source_texts, len);
}

int32_t lun_site_file_epoch(lua_State *L, int32_t n) {
  return n >= 1 && n <= LUN_SITE_MAX_FILES ? lun_state(L)->siteEpochs[n] : 0;
}

int32_t lun_site_file_next_epoch(lua_State *L, int32_t n) {
  lun_State *S = lun_state(L);
  if (n < 1 || n > LUN_SITE_MAX_FILES) return 0;
  S->siteEpochs[n] = (S->siteEpochs[n] + 1) & ((1 << LUN_SITE_EPOCH_BITS) - 1);
  return S->siteEpochs[n];
}

int32_t lun_site_file_loads(lua_State *L, int32_t n) {
  int32_t loads = 0;
  if (!lua_checkstack(L, 4)) return 0;
  if (lun_sources_at(L, n, &lun_key_source_loads) == LUA_TNUMBER) loads = (int32_t)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return loads;
}
