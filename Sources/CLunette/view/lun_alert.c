/*
 * lun_alert.c — view:alert(title, isPresented, actions, message) (T07), as
 * SwiftUI's .alert(_:isPresented:actions:message:).
 *
 *   view:alert("Delete the book?", self["$confirming"], {
 *     ui.Button("Delete", function() library:remove(book) end),
 *     ui.Button("Cancel", function() end),
 *   })
 *
 * While the binding is true the view shows an Alert node (its title, then
 * its buttons) after its content; any button runs its action and then
 * dismisses the alert (sets the binding false), as an alert's buttons do.
 * Without actions, the alert has one "OK" button. A message (text) is the
 * Alert node's "message"; a button's role (ui.Button(label, fn, { role =
 * "destructive" })) stays on the button.
 *
 * Sheets (view:sheet, fullScreenCover, popover, made in lun_modifier.c) are
 * the other presentation the walk reports here: a Sheet node while their
 * binding holds, its content walked under `dismiss` (lun_walk_sheet).
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

/* An alert button's action: runs the original action, then sets the
 * binding false. Upvalues: the action, the binding. */
static int lun_alert_action(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_call(L, 0, 0);
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushboolean(L, 0);
  lun_binding_set(L, -2, -1);
  return 0;
}

/* Does nothing: the action of the default "OK" button. */
static int lun_alert_nothing(lua_State *L) {
  (void)L;
  return 0;
}

/* Pushes a copy of the Button at bidx whose action also dismisses the
 * alert of the binding at pidx; `style` names the modifier. [-0, +1] */
static void lun_alert_button(lua_State *L, int bidx, int pidx, int i, const char *style) {
  int kind = 0;
  bidx = lua_absindex(L, bidx);
  if (lun_view_test(L, bidx)) {
    lun_rawfield(L, bidx, "kind");
    kind = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  if (kind != LUN_VIEW_BUTTON)
    lun_error_here(L, "view:%s: action %d must be a ui.Button, got %s", style, i,
                   lun_view_test(L, bidx) ? (lun_view_name(L, bidx), lua_tostring(L, -1)) : luaL_typename(L, bidx));
  lun_copy_shallow(L, bidx);
  luaL_setmetatable(L, LUN_MT_VIEW);
  lun_rawfield(L, bidx, "action");
  lua_pushvalue(L, pidx);
  lua_pushcclosure(L, lun_alert_action, 2);
  lua_setfield(L, -2, "action");
}

/* 1 if a button in the list at lidx has the role "cancel". [-0, +0] */
static int lun_alert_has_cancel(lua_State *L, int lidx) {
  lua_Integer i, n = (lua_Integer)lua_rawlen(L, lidx);
  int found = 0;
  for (i = 1; i <= n && !found; i++) {
    lua_rawgeti(L, lidx, i);
    if (lun_rawfield(L, -1, "attrs") == LUA_TTABLE) {
      if (lua_getfield(L, -1, "role") == LUA_TSTRING) found = strcmp(lua_tostring(L, -1), "cancel") == 0;
      lua_pop(L, 1);
    }
    lua_pop(L, 2);
  }
  return found;
}

/* Appends to the list at lidx a button `label` (with `role`, or none) that
 * does nothing but dismiss the presentation of the binding at pidx. [-0, +0] */
static void lun_alert_default_button(lua_State *L, int lidx, int pidx, const char *label, const char *role) {
  int vidx = lun_view_new(L, LUN_VIEW_BUTTON);
  lua_pushstring(L, label);
  lua_setfield(L, vidx, "text");
  lua_pushcfunction(L, lun_alert_nothing);
  lua_setfield(L, vidx, "action");
  if (role) {
    lua_createtable(L, 0, 1);
    lua_pushstring(L, role);
    lua_setfield(L, -2, "role");
    lua_setfield(L, vidx, "attrs");
  }
  lun_alert_button(L, vidx, pidx, (int)lua_rawlen(L, lidx) + 1, "alert");
  lua_rawseti(L, lidx, (lua_Integer)lua_rawlen(L, lidx) + 1);
  lua_pop(L, 1);
}

/* Shared body of view:alert and view:confirmationDialog (style):
 * (view, title, isPresented, actions?, message?) -> view. */
static int lun_modifier_dialog(lua_State *L, const char *style) {
  lua_Integer i, n;
  int dialog = strcmp(style, "confirmationDialog") == 0;
  if (!lun_view_test(L, 1)) luaL_argerror(L, 1, "view expected (call modifiers with ':')");
  lun_no_extra(L, dialog ? "view:confirmationDialog" : "view:alert", 4, 1);
  if (lua_type(L, 2) != LUA_TSTRING && lua_type(L, 2) != LUA_TNUMBER)
    return lun_error_here(L, "view:%s: the title must be a string, got %s", style, luaL_typename(L, 2));
  if (!lun_binding_test(L, 3))
    return lun_error_here(L, "view:%s(\"%s\", …): isPresented must be a Binding (self[\"$showing\"]), got %s", style,
                          lua_tostring(L, 2), luaL_typename(L, 3));
  if (lun_view_test(L, 4)) {                       /* one action, as a ViewBuilder takes one view */
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, 4);
    lua_rawseti(L, -2, 1);
    lua_replace(L, 4);
  }
  if (!lua_isnoneornil(L, 4) && (lua_type(L, 4) != LUA_TTABLE || lua_getmetatable(L, 4)))
    return lun_error_here(L, "view:%s: its actions are a list of ui.Button ({ ui.Button(…) }), got %s", style,
                          luaL_typename(L, 4));
  if (!lua_isnoneornil(L, 5)) luaL_checkstring(L, 5);
  if (lun_rawfield(L, 1, "alertSpec") == LUA_TTABLE) {   /* it would replace the first without a word */
    lua_rawgeti(L, -1, 5);
    lun_error_here(L, "view:%s: this view presents %s already; attach the second to another view", style,
                   lua_type(L, -1) == LUA_TSTRING ? "a confirmationDialog" : "an alert");
  }
  lua_settop(L, 5);
  lua_createtable(L, 5, 0);                       /* 6: { title, binding, buttons, message, style } */
  if (dialog) {
    lua_pushstring(L, style);
    lua_rawseti(L, 6, 5);
  }
  lua_pushstring(L, lua_tostring(L, 2));          /* a number title as its text (the walk reads a string) */
  lua_rawseti(L, 6, 1);
  lua_pushvalue(L, 3);
  lua_rawseti(L, 6, 2);
  lua_pushvalue(L, 5);
  lua_rawseti(L, 6, 4);
  lua_replace(L, 5);                              /* 5: the alert spec */
  lua_newtable(L);                                /* 6: the buttons */
  if (!lua_isnil(L, 4)) {
    n = lun_rawlen_bounded(L, 4, "an alert's actions");
    for (i = 1; i <= n; i++) {
      lua_rawgeti(L, 4, i);
      lun_alert_button(L, -1, 3, (int)i, style);
      lua_rawseti(L, 6, i);
      lua_pop(L, 1);
    }
  }
  if (dialog && !lun_alert_has_cancel(L, 6))      /* a dialog's standard dismiss action */
    lun_alert_default_button(L, 6, 3, "Cancel", "cancel");
  else if (!dialog && lua_rawlen(L, 6) == 0)      /* an alert without actions: one "OK" */
    lun_alert_default_button(L, 6, 3, "OK", NULL);
  lua_rawseti(L, 5, 3);
  lua_pushvalue(L, 5);
  lua_setfield(L, 1, "alertSpec");                /* not "alert": that name is the modifier */
  lua_settop(L, 1);
  return 1;
}

/* view:alert(title, isPresented, actions?, message?) -> view. */
int lun_modifier_alert(lua_State *L) { return lun_modifier_dialog(L, "alert"); }

/* view:confirmationDialog(title, isPresented, actions, message?) -> view: as
 * an alert, and with the standard dismiss action — a "Cancel" button with
 * the role cancel — unless a button has that role (confirmationDialog(_:
 * isPresented:titleVisibility:actions:message:), "Dialogs include a
 * standard dismiss action by default"). */
int lun_modifier_confirmation_dialog(lua_State *L) { return lun_modifier_dialog(L, "confirmationDialog"); }

/* The walker's part: the view at v shows its alert while the binding is
 * true — an Alert node with the title and the buttons. */
void lun_walk_alert(lua_State *L, lun_Walk *W, int v) {
  size_t len;
  const char *title;
  if (lun_rawfield(L, v, "alertSpec") != LUA_TTABLE) { lua_pop(L, 1); return; }
  if (lua_rawgeti(L, -1, 1) != LUA_TSTRING || lua_rawgeti(L, -2, 2) == LUA_TNIL || !lun_binding_test(L, -1) ||
      lua_rawgeti(L, -3, 3) != LUA_TTABLE)
    luaL_error(L, "the view's 'alertSpec' field was altered");
  lun_binding_get(L, -2);
  if (!lua_isboolean(L, -1) && !lua_isnil(L, -1)) {   /* alert(_:isPresented:) takes a Binding<Bool>; nil: not set, false */
    lua_rawgeti(L, -5, 5);
    luaL_error(L, "view:%s(\"%s\", …): isPresented holds a %s; it is a Binding to a boolean",
               lua_isstring(L, -1) ? lua_tostring(L, -1) : "alert", lua_tostring(L, -5), luaL_typename(L, -2));
  }
  if (!lua_toboolean(L, -1)) { lua_pop(L, 5); return; }
  lua_pop(L, 1);
  title = lua_tolstring(L, -3, &len);
  lun_out_begin(L, LUN_VIEW_ALERT, title, len);
  if (lua_rawgeti(L, -4, 5) == LUA_TSTRING) {     /* a confirmationDialog, as attrs show */
    lun_describe(L, -1, 1);
    lun_out_attr(L, "style", 5, lua_tostring(L, -1), lua_rawlen(L, -1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (lua_rawgeti(L, -4, 4) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER) {   /* its message, as attrs show */
    size_t mlen;
    const char *message;
    lun_describe(L, -1, 1);
    message = lua_tolstring(L, -1, &mlen);
    lun_out_attr(L, "message", 7, message, mlen);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lun_walk_value(L, W, lua_gettop(L));            /* the buttons: a plain list of views */
  lun_out_end(L);
  lua_pop(L, 4);
}

/* Reports a sheet of the view at v, when its binding is true: a Sheet node
 * whose content sees `dismiss` as an action that sets the binding false.
 * With { item = b }, the content has the item as its identity, so another
 * item is a fresh content, and onDismiss runs for the one it replaces
 * ("If item changes, the system dismisses the sheet and replaces it"). */
void lun_walk_sheet(lua_State *L, lun_Walk *W, int v) {
  int32_t slot, old;
  int itemMode, item;
  if (lun_rawfield(L, v, "sheetSpec") != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_rawgeti(L, -1, 3);
  itemMode = lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_rawgeti(L, -1, 1);
  if (!lun_binding_test(L, -1)) lun_walk_altered(L, "sheet");
  lun_binding_get(L, -1);                         /* sheet, binding, value (the item) */
  if (!itemMode && !lua_isboolean(L, -1) && !lua_isnil(L, -1)) {   /* sheet(isPresented:) takes a Binding<Bool>; nil: false */
    lua_rawgeti(L, -3, 5);
    luaL_error(L, "view:%s: isPresented holds a %s; it is a Binding to a boolean", luaL_optstring(L, -1, "sheet"),
               luaL_typename(L, -2));
  }
  if (itemMode ? lua_isnil(L, -1) : !lua_toboolean(L, -1)) { lua_pop(L, 3); return; }
  item = lua_gettop(L);
  lun_out_begin(L, LUN_VIEW_SHEET, NULL, 0);
  if (lua_rawgeti(L, item - 2, 5) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "sheet") != 0)
    lun_walk_describe_attr(L, W, "style", lua_gettop(L));   /* fullScreenCover, popover */
  lua_pop(L, 1);
  if (W->life && lua_rawgeti(L, item - 2, 4) == LUA_TFUNCTION) {   /* onDismiss: when the sheet goes */
    lua_createtable(L, 3, 0);
    lua_pushinteger(L, LUN_ON_DISAPPEAR);
    lua_rawseti(L, -2, LUN_LIFE_KIND);
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, LUN_LIFE_FN);
    if (itemMode) {                               /* and when its item changes to another (by id):
                                                     the sheet is replaced (lun_life_stay) */
      lun_explicit_key(L, item);
      lua_rawseti(L, -2, LUN_LIFE_VALUE);
    }
    lun_life_add(L, W->life);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lun_dismiss_push(L, item - 1, itemMode);
  slot = lun_walk_store(L, W, -1);
  lua_pushliteral(L, "dismiss");                  /* the content, in this body, inherits it */
  lun_envwalk_set(L, W, -1, -2);
  lua_pop(L, 1);
  old = lun_out_env(L, "dismiss", 7, slot);
  if (old) {
    lua_getfield(L, W->record, "out");
    lua_rawgeti(L, -1, old);
    if (!lua_compare(L, -1, -3, LUA_OPEQ)) lun_out_env_changed(L);
    lua_pop(L, 2);
  }
  lun_envbuiltin_presented(L, W);                 /* and isPresented is true inside */
  lua_settop(L, item);                            /* sheet, binding, item */
  lua_rawgeti(L, item - 2, 2);
  if (itemMode) {                                 /* content(item), a new identity per item */
    lua_pushvalue(L, item);
    lua_call(L, 1, 1);
    if (lun_view_test(L, -1)) {
      if (lun_rawfield(L, -1, "identity") == LUA_TNIL) {
        lua_pushvalue(L, item);
        lua_setfield(L, -3, "identity");
      }
      lua_pop(L, 1);
    }
  } else if (lua_isfunction(L, -1)) lua_call(L, 0, 1);
  lun_walk_value(L, W, lua_gettop(L));
  lun_out_end(L);
  lua_settop(L, item - 3);
}
