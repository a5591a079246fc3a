/*
 * lun_envtransform.c — view:transformEnvironment(key, fn): a subtree's
 * value of an environment key derived from the one it inherits, as
 * SwiftUI's transformEnvironment(_:transform:)
 * (https://developer.apple.com/documentation/swiftui/view/transformenvironment(_:transform:)).
 *
 * :environment and :transformEnvironment entries share the view's `env`
 * list, in the order they were written: the first is closest to the view.
 * The value the view's subtree sees for a key is folded from the outermost
 * entry to the innermost, starting from the inherited value: a set
 * replaces it, a transform maps it. fn gets a copy of a plain table (a
 * Swift value is copied into an inout closure) and returns the new value;
 * returning nothing keeps the (possibly changed) copy, as the closure's
 * inout parameter does.
 *
 * The inherited value is the nearest one set by a view around this one in
 * the same body (the walk keeps them: out.envnow[key] = { value }, undone
 * when the view is left), else the environment of the unit whose body is
 * walked (a tracked read: the unit renders again when an ancestor's value
 * changes), else the key's default.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

/* view:transformEnvironment(key, fn) -> view. The key must be declared
 * (ui.EnvironmentKey, ui.Entry, or a built-in value SwiftUI lets a view
 * set: not isEnabled, isPresented or dismiss). The entry keeps the line it
 * was written at, which a built-in value's error names (the derived value
 * is checked in the walk: lun_envbuiltin_derived). */
int lun_modifier_transform_environment(lua_State *L) {
  if (!lun_view_test(L, 1)) luaL_argerror(L, 1, "view expected (call modifiers with ':')");
  if (lua_type(L, 2) != LUA_TSTRING)
    return lun_error_here(L, "view:transformEnvironment: the key must be a string (an EnvironmentKey's name), got %s",
                          luaL_typename(L, 2));
  if (lua_type(L, 3) != LUA_TFUNCTION)
    return lun_error_here(L, "view:transformEnvironment('%s', fn): fn must be a function (value -> new value), got %s",
                          lua_tostring(L, 2), luaL_typename(L, 3));
  if (strcmp(lua_tostring(L, 2), "isEnabled") == 0)
    return lun_error_here(L, "view:transformEnvironment('isEnabled', fn): isEnabled is narrowed with :disabled(true)");
  if (lun_envbuiltin_readonly(lua_tostring(L, 2)))   /* no WritableKeyPath in SwiftUI */
    return lun_error_here(L, "view:transformEnvironment('%s', fn): %s is read-only (%s)", lua_tostring(L, 2),
                          lua_tostring(L, 2), lun_envbuiltin_setter(lua_tostring(L, 2)));
  lun_registry_table(L, &lun_key_envkeys);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, -2) != LUA_TTABLE)
    return lun_error_here(L, "view:transformEnvironment: environment key '%s' is not declared "
                             "(ui.EnvironmentKey(\"%s\", default) or ui.Entry)", lua_tostring(L, 2), lua_tostring(L, 2));
  lua_settop(L, 3);
  lua_createtable(L, 4, 0);                       /* { key, fn, true, "file:line: " }: a transform */
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, 2);
  lua_pushboolean(L, 1);
  lua_rawseti(L, -2, 3);
  luaL_where(L, 1);
  lua_rawseti(L, -2, 4);
  lun_envlist_add(L, 1);
  lua_pushboolean(L, 1);                          /* the walk folds this view's entries */
  lua_setfield(L, 1, "envfold");
  lua_settop(L, 1);
  return 1;
}

/* Pushes out[field] of the walk, made empty first if missing. [-0, +1] */
static void lun_envwalk_table(lua_State *L, lun_Walk *W, const char *field) {
  if (lua_getfield(L, lun_walk_out(L, W), field) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, W->out, field);
  }
}

/* Pushes the value the key at kidx inherits at the view being entered. [-0, +1] */
void lun_envwalk_inherited(lua_State *L, lun_Walk *W, int kidx) {
  int top = lua_gettop(L);
  if (lua_getfield(L, W->out, "envnow") != LUA_TTABLE) {   /* a look: the run's out stays the shared empty one */
    lua_pop(L, 1);
    lua_newtable(L);
  }
  lua_pushvalue(L, kidx);
  if (lua_rawget(L, -2) == LUA_TTABLE) lua_rawgeti(L, -1, 1);   /* set around this view, in this body */
  else {
    lun_env_read(L, W->unit, kidx, LUN_ENV_KEYED, kidx);   /* tracked; may leave what it read through */
  }
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

/* With the transform entry at eidx (for the key at kidx, on the view at v)
 * and a value on top: replaces the value by fn(copy of it), its first
 * result, or the copy when fn returns nothing (an inout parameter); a
 * built-in key's value is checked. [-1, +1] */
static void lun_envwalk_apply(lua_State *L, int eidx, int kidx, int v) {
  int base;
  lun_snapshot(L, -1, "transformEnvironment value");   /* a plain table as a value: a copy */
  lua_rawgeti(L, eidx, 2);
  if (!lua_isfunction(L, -1))
    luaL_error(L, "a view value was altered: its field 'env' holds what Lunette did not put there");
  lua_pushvalue(L, -2);
  base = lua_gettop(L) - 2;                       /* the copy */
  lua_call(L, 1, LUA_MULTRET);
  if (lua_gettop(L) > base) {                     /* returned a value: it is the new one */
    lua_settop(L, base + 1);
    lua_replace(L, base);
  }
  lua_settop(L, base);
  lua_rawgeti(L, eidx, 4);                        /* where the transform was written */
  lun_envbuiltin_derived(L, kidx, base, v, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "");
  lua_pop(L, 1);
}

/* Pushes the value entry i of the env list at list (the first entry for
 * its key, whose name is at kidx) gives the subtree of the view at v:
 * entry[2]; or, when the view has transforms, the fold of its entries for
 * the key from the outermost in, starting from the inherited value when
 * the outermost is a transform. [-0, +1] */
void lun_envwalk_value(lua_State *L, lun_Walk *W, int list, lua_Integer i, int v, int kidx) {
  lua_Integer j;
  int have = 0, folding = lun_rawfield(L, v, "envfold") == LUA_TBOOLEAN;
  lua_pop(L, 1);
  v = lua_absindex(L, v);
  list = lua_absindex(L, list);
  kidx = lua_absindex(L, kidx);
  if (!folding) {
    lua_rawgeti(L, list, i);
    lua_rawgeti(L, -1, 2);
    lua_remove(L, -2);
    return;
  }
  for (j = (lua_Integer)lua_rawlen(L, list); j >= i; j--) {   /* stack: [value if have], entry */
    int transform;
    if (lua_rawgeti(L, list, j) != LUA_TTABLE)
      luaL_error(L, "a view value was altered: its field 'env' holds what Lunette did not put there");
    lua_rawgeti(L, -1, 1);
    if (!lua_rawequal(L, -1, kidx)) { lua_pop(L, 2); continue; }
    transform = lua_rawgeti(L, -2, 3) != LUA_TNIL;
    lua_pop(L, 2);
    if (transform) {
      if (have) lua_insert(L, -2);                /* entry, value */
      else lun_envwalk_inherited(L, W, kidx);
      lun_envwalk_apply(L, lua_gettop(L) - 1, kidx, v);
      lua_remove(L, -2);
    } else {
      lua_rawgeti(L, -1, 2);
      lua_remove(L, -2);
      if (have) lua_remove(L, -2);
    }
    have = 1;
  }
}

/* Makes the value at vidx the one the views inside the view being entered
 * inherit, in this body, for the key at kidx; lun_envwalk_leave undoes it
 * when the walk leaves the view. [-0, +0] */
void lun_envwalk_set(lua_State *L, lun_Walk *W, int kidx, int vidx) {
  kidx = lua_absindex(L, kidx);
  vidx = lua_absindex(L, vidx);
  lun_envwalk_table(L, W, "envsaved");            /* depth -> { key = what it was, or false } */
  if (lua_rawgeti(L, -1, W->depth) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, W->depth);
    W->envsaves++;
  }
  lun_envwalk_table(L, W, "envnow");
  lua_pushvalue(L, kidx);
  if (lua_rawget(L, -3) == LUA_TNIL) {            /* what it was around the view (set once per view) */
    lua_pushvalue(L, kidx);
    lua_pushvalue(L, kidx);
    if (lua_rawget(L, -4) == LUA_TNIL) { lua_pop(L, 1); lua_pushboolean(L, 0); }
    lua_rawset(L, -5);
  }
  lua_pop(L, 1);
  lua_pushvalue(L, kidx);
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, vidx);
  lua_rawseti(L, -2, 1);
  lua_rawset(L, -3);
  lua_pop(L, 3);
}

/* Leaving the view at depth W->depth: the keys it set are what they were
 * around it again. [-0, +0] */
void lun_envwalk_leave(lua_State *L, lun_Walk *W) {
  int top = lua_gettop(L);
  if (lua_getfield(L, W->out, "envsaved") != LUA_TTABLE || lua_rawgeti(L, -1, W->depth) != LUA_TTABLE) {
    lua_settop(L, top);
    return;
  }
  lun_envwalk_table(L, W, "envnow");
  lua_pushnil(L);
  while (lua_next(L, -3)) {                       /* key, what it was */
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    if (lua_isboolean(L, -1)) { lua_pop(L, 1); lua_pushnil(L); }
    lua_rawset(L, -4);
  }
  lua_pop(L, 2);
  lua_pushnil(L);
  lua_rawseti(L, -2, W->depth);
  lua_pop(L, 1);
  W->envsaves--;
}
