/*
 * lun_app.c — mounting, flushing, and inspecting what rendered.
 *
 * ui.mount(view) -> app; app:tree(), app:json(), app:find(q), app:findAll(q),
 * app:renders(name), app:warnings(), app:unmount(). Found nodes are handles
 * (lun_node.c).
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#include "drive/drive.h"

#include <stdlib.h>
#include <math.h>

static const char lun_key_lastmiss = 0;


/* Raises unless the runtime may start a flush now. */
void lun_app_check_idle(lua_State *L, const char *what) {
  lun_State *S = lun_state(L);
  if (S->rendering)
    lun_error_here(L, "%s cannot be called while views are rendering", what);
  if (S->inBody)                                  /* it would run a flush inside this run */
    lun_error_here(L, "%s cannot be called inside %s", what,
                   lun_effect_script(S, S->active) >= 0 ? "an effect's run" : "a computed property's function");
  if (lunh(S->rt, scheduler, flushing))           /* a flush's events: onAppear, onDisappear, onChange */
    lun_error_here(L, "%s cannot be called while a flush runs its events (onAppear, onDisappear, onChange): "
                   "call it from a task or an action", what);
  if (S->cancelling)                              /* a gone view's subscription ends: views are going */
    lun_error_here(L, "%s cannot be called from a publisher's cancel", what);
}

/* Pushes a new handle userdata with metatable mt. [-0, +1] */
void lun_handle_push(lua_State *L, int32_t id, const char *mt) {
  lun_Handle *h = (lun_Handle *)lua_newuserdatauv(L, sizeof(lun_Handle), 0);
  h->id = id;
  h->resets = lun_state(L)->resets;
  luaL_setmetatable(L, mt);
}

/* Pushes the view value at idx, instantiating a bare view type. [-0, +1] */
static void lun_app_view_arg(lua_State *L, int idx) {
  if (lun_viewtype_test(L, idx)) {
    lua_pushvalue(L, idx);
    lua_call(L, 0, 1);
    return;
  }
  if (!lun_view_test(L, idx))
    luaL_argerror(L, idx, lua_pushfstring(L, "view expected, got %s", luaL_typename(L, idx)));
  lua_pushvalue(L, idx);
}

/* 1 if the value at idx is what require gives after a module: the file it
 * loaded (a .lua or .so path) or ":preload:". [-0, +0] */
static int lun_app_loader_data(lua_State *L, int idx) {
  size_t len;
  const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, &len) : NULL;
  return s && ((len > 4 && memcmp(s + len - 4, ".lua", 4) == 0) || (len > 3 && memcmp(s + len - 3, ".so", 3) == 0) ||
               strcmp(s, ":preload:") == 0);
}

/* ui.mount(view) -> app: renders the view as a root. */
static int lun_ui_mount(lua_State *L) {
  int32_t app;
  if (lua_gettop(L) == 2 && lun_app_loader_data(L, 2)) lua_settop(L, 1);   /* ui.mount(require("app")): */
  lun_no_extra(L, "ui.mount", 1, 0);              /* require's second value, where it found the module */
  lun_app_view_arg(L, 1);
  lun_app_check_idle(L, "ui.mount");
  lua_createtable(L, 0, 2);
  lua_insert(L, -2);
  lua_setfield(L, -2, "value");
  lua_newtable(L);
  lua_setfield(L, -2, "out");
  app = lunh(lun_state(L)->rt, scheduler, mount, luaL_ref(L, LUA_REGISTRYINDEX));
  lun_handle_push(L, app, LUN_MT_APP);
  if (lun_flush_caught(L) != LUA_OK) {            /* it renders now; if that raised, no app is left */
    lunh(lun_state(L)->rt, scheduler, unmount, app);   /* behind that the caller has no handle to */
    lun_release_refs(L, lun_state(L));
    return lua_error(L);
  }
  return 1;
}

/* ui.flush() -> (): runs pending updates now. */
LUN_HOT static int lun_ui_flush(lua_State *L) {
  lun_app_check_idle(L, "ui.flush");
  lun_flush_now(L);
  return 0;
}

/* ui.reset() -> (): a fresh start, as between two tests: every app
 * unmounted, every effect cancelled, every task cancelled (its cleanup runs
 * now), the virtual clock back at 0 with no sleep or timer pending. */
static int lun_ui_reset(lua_State *L) {
  lun_State *S = lun_state(L);
  lun_app_check_idle(L, "ui.reset");
  lun_storage_sync(L, S);                         /* what was written goes to the store first (a persistent */
  lunh(S->rt, scheduler, reset);                  /* one keeps it); a test's store empties itself */
  lun_storage_forget(L);                          /* cells are read from the store again */
  lun_effects_reset(L);                           /* effects end */
  lun_release_refs(L, S);                         /* tasks are cancelled, subscriptions end */
  lun_flush_now(L);                               /* cancelled tasks see their cancellation */
  lunh(S->rt, clock, reset);
  lun_completion_forget(L);                       /* no effect left; animations' ends were on the old clock */
  S->resets++;                                    /* the handles of the apps it unmounted name none */
  S->listWindow = S->baseListWindow;              /* what ui.configure and ui.trace set since is undone: */
  S->strict = S->baseStrict;                      /* a test starts with the settings its file's top level */
  lun_budget_set_script_limit(S, S->baseScriptLimit);   /* left (the runners keep them), or the runtime's */
  if (S->tracing != S->baseTracing) lunh(S->rt, trace, set, S->baseTracing, 1);
  return 0;
}

/* ui.configure{ listWindow = n, timeBudget = seconds, strict = bool } -> (). */
static int lun_ui_configure(lua_State *L) {
  static const char *const known[] = {"listWindow", "timeBudget", "strict", NULL};
  lun_no_extra(L, "ui.configure", 1, 0);
  if (lua_type(L, 1) != LUA_TTABLE || lua_getmetatable(L, 1))
    return lun_error_here(L, "ui.configure takes a table of settings ({ timeBudget = 0.5 }), got %s", luaL_typename(L, 1));
  lun_check_keys(L, 1, known, "ui.configure", "setting");
  if (lua_getfield(L, 1, "listWindow") != LUA_TNIL) {
    lua_Integer n = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
    if (n <= 0 || n > INT32_MAX)
      return lun_error_here(L, "ui.configure: listWindow must be a positive integer, got %s", luaL_tolstring(L, -1, NULL));
    lun_state(L)->listWindow = (int32_t)n;
  }
  if (lua_getfield(L, 1, "strict") != LUA_TNIL) {
    if (!lua_isboolean(L, -1)) return lun_error_here(L, "ui.configure: strict is true or false, got %s", luaL_typename(L, -1));
    lun_state(L)->strict = lua_toboolean(L, -1);
  }
  if (lua_getfield(L, 1, "timeBudget") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      return lun_error_here(L, "ui.configure: timeBudget must be a number of seconds, got %s", luaL_typename(L, -1));
    if (!lun_budget_lower(lun_state(L), (double)lua_tonumber(L, -1)))
      return lun_error_here(L, "ui.configure: timeBudget must be a positive number of seconds, got %s",
                            (lun_describe(L, -1, 1), lua_tostring(L, -1)));
  }
  return 0;
}

/* The app id of argument 1, checked. */
static int32_t lun_app_check(lua_State *L) {
  lun_Handle *h = (lun_Handle *)luaL_checkudata(L, 1, LUN_MT_APP);
  if (h->id && h->resets != lun_state(L)->resets) h->id = 0;   /* ui.reset() unmounted it */
  if (!h->id) luaL_error(L, "the app is unmounted");
  lun_out_done_send(L, lun_state(L));             /* what it shows includes every run that ended */
  return h->id;
}

/* Pushes one of the app's texts (tree, json, warnings). [-0, +1] */
static int lun_app_text(lua_State *L, int what) {
  size_t len;
  const char *s = lunh(lun_state(L)->rt, inspect, app_text, lun_app_check(L), what, NULL, 0, &len);
  lua_pushlstring(L, s, len);
  return 1;
}

/* app:tree() -> string. */
static int lun_app_tree(lua_State *L) { return lun_app_text(L, LUN_TEXT_TREE); }
/* app:json() -> string. */
static int lun_app_json(lua_State *L) { return lun_app_text(L, LUN_TEXT_JSON); }

/* Replaces the string on top by the array of its lines. [-1, +1] */
static void lun_lines(lua_State *L) {
  const char *s = lua_tostring(L, -1), *nl;
  int n = 0;
  lua_newtable(L);
  while (*s) {
    nl = strchr(s, '\n');
    lua_pushlstring(L, s, nl ? (size_t)(nl - s) : strlen(s));
    lua_rawseti(L, -2, ++n);
    if (!nl) break;
    s = nl + 1;
  }
  lua_remove(L, -2);
}

/* app:warnings() -> { message, ... }. */
static int lun_app_warnings(lua_State *L) {
  lun_app_text(L, LUN_TEXT_WARNINGS);
  lun_lines(L);
  return 1;
}

/* app:trace() -> { "↻ BookView#2  (Book#1.title)", ... } logged while ui.trace was on. */
static int lun_app_trace(lua_State *L) {
  lun_app_text(L, LUN_TEXT_TRACE);
  lun_lines(L);
  return 1;
}

/* app:dependencies(node | view name) -> { "Book#3.title", ... }. */
static int lun_app_dependencies(lua_State *L) {
  int32_t app = lun_app_check(L);
  size_t len, n;
  const char *s;
  if (luaL_testudata(L, 2, LUN_MT_NODE)) {
    s = lunh(lun_state(L)->rt, inspect, node_text, ((lun_Handle *)lua_touserdata(L, 2))->id, LUN_NODE_DEPS, &n);
    if (!s) return luaL_argerror(L, 2, "the node is no longer rendered");
  } else {
    const char *name = luaL_checklstring(L, 2, &len);
    s = lunh(lun_state(L)->rt, inspect, app_text, app, LUN_TEXT_DEPS, name, len, &n);
    if (!s) return luaL_argerror(L, 2, lua_pushfstring(L, "no view named '%s' is rendered", name));
  }
  lua_pushlstring(L, s, n);
  lun_lines(L);
  return 1;
}

/* ui.trace(on) -> (): logs why views re-render (and prints each line). */
static int lun_ui_trace(lua_State *L) {
  lun_no_extra(L, "ui.trace", 1, 0);
  if (!lua_isboolean(L, 1) && !lua_isnoneornil(L, 1))
    return lun_error_here(L, "ui.trace takes true or false, got %s", luaL_typename(L, 1));
  lun_out_done_send(L, lun_state(L));             /* runs that ended before it are not traced */
  lunh(lun_state(L)->rt, trace, set, lua_toboolean(L, 1), 1);
  return 0;
}

/* app:renders(name) -> how many times bodies of that view type ran. */
static int lun_app_renders(lua_State *L) {
  int32_t app = lun_app_check(L);
  size_t len, n;
  const char *name = luaL_checklstring(L, 2, &len);
  const char *s = lunh(lun_state(L)->rt, inspect, app_text, app, LUN_TEXT_RENDERS, name, len, &n);
  lua_pushinteger(L, (lua_Integer)strtoll(s, NULL, 10));
  return 1;
}

/* app:resetRenders() -> (): every render count (per type and per instance) back to 0. */
static int lun_app_reset_renders(lua_State *L) {
  size_t n;
  lunh(lun_state(L)->rt, inspect, app_text, lun_app_check(L), LUN_TEXT_RESET_RENDERS, NULL, 0, &n);
  return 0;
}

/* Finds the index-th node matching the query at 2 (a string, or { type, text, id }). */
static int32_t lun_app_find_nth(lua_State *L, int32_t app, int32_t index) {
  size_t tlen = 0, ylen = 0, ilen = 0;
  const char *text = NULL, *type = NULL, *id = NULL;
  int top = lua_gettop(L);
  int32_t found;
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_getfield(L, 2, "text");
    if (lua_isnil(L, -1)) { lua_pop(L, 1); lua_getfield(L, 2, "label"); }
    if (!lua_isnil(L, -1)) text = luaL_checklstring(L, -1, &tlen);
    lua_getfield(L, 2, "type");
    if (!lua_isnil(L, -1)) type = luaL_checklstring(L, -1, &ylen);
    if (lua_getfield(L, 2, "id") != LUA_TNIL) {   /* as :id(v) keyed it */
      lun_explicit_key(L, -1);
      id = lua_tolstring(L, -1, &ilen);
    }
  } else {
    text = luaL_checklstring(L, 2, &tlen);
  }
  found = lunh(lun_state(L)->rt, inspect, app_find, app, text, tlen, type, ylen, id, ilen, index);
  lua_settop(L, top);                             /* the strings it read lived on the stack until now */
  return found;
}

/* Keeps what the last find that matched nothing asked, for a runner to
 * explain a later "attempt to index a nil value" (lun_last_miss). [-0, +0] */
static void lun_app_remember_miss(lua_State *L, int32_t app) {
  lua_createtable(L, 2, 0);
  lua_pushinteger(L, app);
  lua_rawseti(L, -2, 1);
  if (lua_type(L, 2) == LUA_TSTRING) lua_pushfstring(L, "'%s'", lua_tostring(L, 2));
  else lua_pushstring(L, "the query");
  lua_rawseti(L, -2, 2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_lastmiss);
}

/* Pushes "no node matches 'Check out' in:\n<tree>" for the last find that
 * matched nothing, and forgets it; nil if none. [-0, +1] */
void lun_last_miss(lua_State *L) {
  size_t len;
  const char *tree;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_lastmiss) != LUA_TTABLE) return;
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_lastmiss);
  lua_rawgeti(L, -1, 1);
  tree = lunh(lun_state(L)->rt, inspect, app_text, (int32_t)lua_tointeger(L, -1), LUN_TEXT_TREE, NULL, 0, &len);
  lua_rawgeti(L, -2, 2);
  lua_pushfstring(L, "no node matches %s in:\n", lua_tostring(L, -1));
  lua_pushlstring(L, tree ? tree : "", tree ? len : 0);
  lua_concat(L, 2);
  lua_replace(L, -4);
  lua_pop(L, 2);
}

/* app:find(query) -> node or nil. */
static int lun_app_find(lua_State *L) {
  int32_t app = lun_app_check(L), id = lun_app_find_nth(L, app, 0);
  if (!id) {                                      /* nil, and why a match may still exist (F13) */
    size_t len;
    const char *hidden;
    lun_app_remember_miss(L, app);
    hidden = lunh(lun_state(L)->rt, inspect, app_text, app, LUN_TEXT_HIDDEN, NULL, 0, &len);
    lua_pushnil(L);
    if (!hidden || !*hidden || strcmp(hidden, "0") == 0) return 1;   /* none, or the app went meanwhile */
    lua_pushfstring(L, "no realised node matches, but Lists hold %s rows outside their windows "
                    "(node:scroll(row) brings a row in)", hidden);
    return 2;
  }
  lun_handle_push(L, id, LUN_MT_NODE);
  return 1;
}

/* app:findAll(query) -> { node, ... } in tree order. */
static int lun_app_findall(lua_State *L) {
  int32_t app = lun_app_check(L), id, i = 0;
  lua_newtable(L);
  while ((id = lun_app_find_nth(L, app, i)) != 0) {
    lun_handle_push(L, id, LUN_MT_NODE);
    lua_rawseti(L, -2, ++i);
  }
  return 1;
}

/* app:unmount() -> (). */
static int lun_app_unmount(lua_State *L) {
  lun_Handle *h = (lun_Handle *)luaL_checkudata(L, 1, LUN_MT_APP);
  lun_app_check_idle(L, "app:unmount");
  if (h->id && h->resets == lun_state(L)->resets) lunh(lun_state(L)->rt, scheduler, unmount, h->id);
  h->id = 0;
  lun_release_refs(L, lun_state(L));
  return 0;
}

/* Protected part of lun_app_global: (app id, name) -> (). */
static int lun_app_global_k(lua_State *L) {
  lun_handle_push(L, (int32_t)lua_tointeger(L, 1), LUN_MT_APP);
  lua_setglobal(L, lua_tostring(L, 2));
  return 0;
}

int lun_app_global(lua_State *L, int32_t app, const char *name) {
  if (!lua_checkstack(L, 4)) return LUN_ERROR;
  lua_pushcfunction(L, lun_app_global_k);
  lua_pushinteger(L, app);
  lua_pushstring(L, name);
  return lun_protect(L, 2, 0);
}

/* Protected part of lun_mount_ref: (value) -> app id or 0. */
static int lun_mount_ref_k(lua_State *L) {
  if (!lun_view_test(L, 1) && !lun_viewtype_test(L, 1)) { lua_pushinteger(L, 0); return 1; }
  lua_pushcfunction(L, lun_ui_mount);
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);
  lua_pushinteger(L, ((lun_Handle *)lua_touserdata(L, -1))->id);
  return 1;
}

int lun_mount_ref(lua_State *L, int ref, int32_t *app, const char **other) {
  *app = 0;
  if (!lua_checkstack(L, 4)) return LUN_ERROR;
  lua_pushcfunction(L, lun_mount_ref_k);
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  *other = luaL_typename(L, -1);                  /* Lua's own names: static */
  if (lun_protect(L, 1, 1) != LUN_OK) return LUN_ERROR;
  *app = (int32_t)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return LUN_OK;
}

/* ui.clock.advance(seconds) -> (): moves the virtual clock, running what
 * falls due; what is pending updates first, as a host's loop would have. */
int lun_ui_clock_advance(lua_State *L) {
  lun_State *S = lun_state(L);
  lua_Number s = luaL_checknumber(L, 1);
  luaL_argcheck(L, s >= 0, 1, "seconds must not be negative");
  lun_no_extra(L, "ui.clock.advance", 1, 0);
  if (S->inBody || lunh(S->rt, scheduler, flushing)) return lun_error_here(L, "ui.clock.advance cannot be called while views are rendering");
  if (S->cancelling) return lun_error_here(L, "ui.clock.advance cannot be called from a publisher's cancel");
  double target;
  uint32_t resets;
  if (!lunh(S->rt, clock, virtual))
    return lun_error_here(L, "ui.clock.advance needs the virtual clock (lunette test uses it; this runtime's clock is real)");
  target = lunh(S->rt, clock, now) + (double)s;
  resets = S->resets;
  lun_flush_now(L);
  lun_run_due_now(L, target);
  if (S->resets == resets) lunh(S->rt, clock, settle, target);   /* a reset meanwhile: the clock is a fresh one */
  return 0;
}

void lun_open_app(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"mount", lun_ui_mount}, {"flush", lun_ui_flush}, {"reset", lun_ui_reset},
    {"configure", lun_ui_configure}, {"trace", lun_ui_trace}, {NULL, NULL}};
  static const luaL_Reg app[] = {
    {"tree", lun_app_tree}, {"json", lun_app_json}, {"find", lun_app_find},
    {"findAll", lun_app_findall}, {"renders", lun_app_renders}, {"resetRenders", lun_app_reset_renders},
    {"warnings", lun_app_warnings}, {"unmount", lun_app_unmount}, {"trace", lun_app_trace},
    {"dependencies", lun_app_dependencies}, {NULL, NULL}};
  lun_newmetatable_methods(L, LUN_MT_APP, app);
  luaL_setfuncs(L, fns, 0);
  lun_open_effect(L);
}
