/*
 * lun_enabled.c — :disabled(b) and the built-in environment value
 * `isEnabled` (D09, SwiftUI's disabled(_:) and EnvironmentValues.isEnabled).
 *
 * The walker keeps whether the views it is in are enabled (lun_Walk's
 * `enabled`): known from the environment of the unit whose body it walks,
 * read when first needed (a tracked read, so the unit renders again when an
 * ancestor's :disabled changes), then narrowed by each :disabled(true) it
 * goes into. An outer :disabled(true) wins over an inner :disabled(false):
 * a view is enabled only if it and every view around it are. A view with
 * :disabled reports `isEnabled` to the environment, so the bodies of views
 * inside it (other units) read it too.
 *
 * Every slot a person acts through (an action, a binding, a control, a
 * focus setter, an onSubmit) stored while disabled is listed in the unit's
 * out table (out.disabled[slot] = true), and its node gets the attribute
 * disabled=true (what the preview draws); node:tap() and the rest refuse
 * such a slot with an error naming the node (lun_enabled_refuse).
 */
#include "core/core.h"
#include "life/life.h"
#include "view/view.h"

enum { LUN_ENABLED_UNKNOWN = 0, LUN_ENABLED_YES, LUN_ENABLED_NO };

/* 1 if the views the walk is in are enabled: the unit's environment value
 * `isEnabled` (read once per walk, tracked), narrowed by :disabled. */
int lun_enabled_now(lua_State *L, lun_Walk *W) {
  if (W->enabled == LUN_ENABLED_UNKNOWN) {
    int32_t unit = W->unit;
    W->enabled = LUN_ENABLED_YES;                  /* a root unit: nothing above it */
    if (unit) {
      int top = lua_gettop(L);
      lua_pushliteral(L, "isEnabled");
      lun_env_read(L, unit, lua_gettop(L), LUN_ENV_KEYED, lua_gettop(L));   /* may leave what it read through */
      if (!lua_toboolean(L, -1)) W->enabled = LUN_ENABLED_NO;
      lua_settop(L, top);
    }
  }
  return W->enabled == LUN_ENABLED_YES;
}

/* What the :disabled modifiers of the view at v say: 0 it has none, 1 none
 * of them disables, 2 one does (an inner :disabled(true) holds even under
 * an outer :disabled(false): a view is enabled only if all say so). [-0, +0] */
static int lun_enabled_modifiers(lua_State *L, int v) {
  lua_Integer i, n;
  int says = 0;
  if (lun_rawfield(L, v, "mods") != LUA_TTABLE) { lua_pop(L, 1); return 0; }
  n = lun_rawlen_bounded(L, -1, "a view's modifier list");
  for (i = 1; i <= n && says < 2; i++) {
    if (lua_rawgeti(L, -1, i) == LUA_TTABLE) {
      if (lua_rawgeti(L, -1, 1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "disabled") == 0) {
        lua_rawgeti(L, -2, 2);
        says = lua_toboolean(L, -1) ? 2 : 1;
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return says;
}

/* The walker at the view at v, its node open: applies its :disabled (when
 * it has modifiers, hasMods) and an `isEnabled` it set in its environment
 * (envSet: lun_enabled_env), and
 * reports `isEnabled` for the views inside. The caller restores W->enabled
 * when it leaves the view. */
LUN_HOT void lun_enabled_enter(lua_State *L, lun_Walk *W, int v, int envSet, int hasMods) {
  int says = hasMods ? lun_enabled_modifiers(L, v) : 0;
  W->marked = 0;                                  /* a new node: not marked disabled yet */
  if (!says && !envSet) return;
  if (lun_enabled_now(L, W) && says == 2) W->enabled = LUN_ENABLED_NO;
  lua_pushboolean(L, W->enabled == LUN_ENABLED_YES);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  lun_walk_env_entry(L, W, "isEnabled", 9, W->slots);
}

/* :environment("isEnabled", v) on the view being entered (v on top): it
 * holds for the views inside, as it is, and lun_enabled_enter reports it
 * (one entry for the key, with the view's :disabled applied). [-0, +0] */
void lun_enabled_env(lua_State *L, lun_Walk *W) {
  W->enabled = lua_toboolean(L, -1) ? LUN_ENABLED_YES : LUN_ENABLED_NO;
}

/* Names slot (a value a person acts through) for role on the open node;
 * while the walk is disabled, marks it so, for lun_enabled_refuse. */
void lun_enabled_slot(lua_State *L, lun_Walk *W, int role, int32_t slot) {
  lun_out_slot(L, role, slot);
  if (lun_enabled_now(L, W)) return;
  if (lua_getfield(L, lun_walk_out(L, W), "disabled") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, W->out, "disabled");
  }
  lua_pushboolean(L, 1);
  lua_rawseti(L, -2, slot);
  lua_pop(L, 1);
  if (!W->marked) lun_out_attr(L, "disabled", 8, "true", 4);   /* once per node */
  W->marked = 1;
}

/* Raises: a person cannot act (verb) on the node `what` names, since it
 * is disabled: "cannot tap Button "Save": it is disabled". */
int lun_enabled_refuse(lua_State *L, const char *verb, const char *what) {
  return lun_error_here(L, "cannot %s %s: it is disabled (:disabled(true) on it or a view around it)", verb, what);
}

/* view:disabled(b) checks: a boolean, or nil (not disabled). */
void lun_enabled_check_arg(lua_State *L) {
  int t = lua_type(L, 2);
  if (t != LUA_TBOOLEAN && t != LUA_TNIL && t != LUA_TNONE)
    lun_error_here(L, ":disabled() takes a boolean, got %s", luaL_typename(L, 2));
}

void lun_open_enabled(lua_State *L) {
  lun_registry_table(L, &lun_key_envkeys);         /* the built-in key `isEnabled`, true by default */
  lua_createtable(L, 0, 1);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "value");
  lua_setfield(L, -2, "isEnabled");
  lua_pop(L, 1);
}
