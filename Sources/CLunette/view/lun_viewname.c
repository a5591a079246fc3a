/*
 * lun_viewname.c — a view's name is its identity: one definition per name
 * in one scope (issue 19, "nothing is silently ignored").
 *
 * The runtime knows a view type by its name (trees, app:find, app:renders,
 * the REPL's :why, a kept child's identity), so two different views given
 * one name would be merged silently. As Swift refuses two types with one
 * name in one scope and allows local types of one name in different
 * functions, a name may be defined once per running function: the Lua
 * function that calls ui.View (a script's main chunk, a module's, a test's
 * `it` function). Defining it again at the same line is the same
 * definition (a function or loop that runs again); a reload runs a new
 * main chunk (:reload, --watch, the preview), so it may redefine anything.
 * Registry: function -> { name = "file:line" } (weak keys).
 */
#include "core/core.h"
#include "view/view.h"

static const char lun_key_viewnames = 0;

/* Claims `name` for the view ui.View is defining, in the scope of the Lua
 * function that called it; raises when another line of that function
 * already defined a view of that name. Called from ui.View (level 1 is its
 * caller); a C caller (pcall(ui.View, ...)) has no scope. [-0, +0] */
void lun_viewname_claim(lua_State *L, const char *name) {
  lua_Debug ar;
  int top = lua_gettop(L);
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "Slf", &ar)) return;
  if (ar.currentline <= 0) { lua_settop(L, top); return; }
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_viewnames) != LUA_TTABLE) {
    lua_pop(L, 1);
    lun_new_weak_table(L, "k");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_viewnames);
  }
  lua_pushvalue(L, -2);                           /* function, scopes, function */
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -3);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_pushfstring(L, "%s:%d", ar.short_src, ar.currentline);
  if (lua_getfield(L, -2, name) == LUA_TSTRING && !lua_rawequal(L, -1, -2))
    luaL_error(L, "ui.View('%s'): a view named '%s' is defined already at %s; two different views cannot "
                  "share a name (it is the view's identity: in trees, find, renders), so name this one otherwise",
               name, name, lua_tostring(L, -1));
  lua_pop(L, 1);
  lua_setfield(L, -2, name);
  lua_settop(L, top);
}
