/*
 * lun_typename.c — a view's or a model's name is its identity: one
 * definition per name in one scope (issue 19, "nothing is silently ignored").
 *
 * The runtime knows a view type by its name (trees, app:find, app:renders,
 * the REPL's :why, a kept child's identity) and a model class by its own
 * (descriptions, navigation destinations, environment keys), so two
 * different types given one name would be merged silently. As Swift refuses two types with one
 * name in one scope and allows local types of one name in different
 * functions, a name may be defined once per running function: the Lua
 * function that calls ui.View (a script's main chunk, a module's, a test's
 * `it` function). Defining it again at the same line is the same
 * definition (a function or loop that runs again); a reload runs a new
 * main chunk (:reload, --watch, the preview), so it may redefine anything.
 * Registry: function -> { ["view\nname"] = "file:line" } (weak keys).
 */
#include "core/core.h"

static const char lun_key_typenames = 0;

/* Claims `name` for the type `call` ("ui.View", "ui.Observable") is
 * defining, in the scope of the Lua function that called it; raises when
 * another line of that function already defined a type of that `noun`
 * ("view", "model") by that name. Called from `call` (level 1 is its
 * caller); a C caller (pcall(ui.View, ...)) has no scope. [-0, +0] */
void lun_typename_claim(lua_State *L, const char *call, const char *noun, const char *name) {
  lua_Debug ar;
  int top = lua_gettop(L);
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "Slf", &ar)) return;
  if (ar.currentline <= 0) { lua_settop(L, top); return; }
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_typenames) != LUA_TTABLE) {
    lua_pop(L, 1);
    lun_new_weak_table(L, "k");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_typenames);
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
  lua_pushfstring(L, "%s\n%s", noun, name);     /* views' and models' names apart: one of each may share one */
  if (lua_rawget(L, -3) == LUA_TSTRING && !lua_rawequal(L, -1, -2))
    luaL_error(L, "%s('%s'): a %s named '%s' is defined already at %s; two different %ss cannot "
                  "share a name (it is the %s's identity: in trees, find, renders), so name this one otherwise",
               call, name, noun, name, lua_tostring(L, -1), noun, noun);
  lua_pop(L, 1);
  lua_pushfstring(L, "%s\n%s", noun, name);
  lua_insert(L, -2);
  lua_rawset(L, -3);
  lua_settop(L, top);
}
