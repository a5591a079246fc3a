/*
 * lun_node.c — nodes: what app:find returns, and what a test (or a host,
 * through lun_node_invoke) does with them as a person would: tap, type,
 * toggle, pick, slide, step, focus, scroll, follow a link.
 *
 * A node is a handle the host resolves to the node rendered now (or to
 * nothing once it is gone); the Lua values it acts through (an action, a
 * binding, a control's spec) are in its unit's `out`, by slot.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#include "drive/drive.h"
#include <math.h>

/* The node id of argument 1, checked. */
static int32_t lun_node_check(lua_State *L) {
  int32_t id = ((lun_Handle *)luaL_checkudata(L, 1, LUN_MT_NODE))->id;
  lun_out_done_send(L, lun_state(L));             /* what it shows includes every run that ended */
  return id;
}

/* Pushes how a message names node 1: `Button "Save"`. [-0, +1] */
static void lun_node_name(lua_State *L) {
  size_t len;
  lun_State *S = lun_state(L);
  const char *s = lunh(S->rt, inspect, node_text, lun_node_check(L), LUN_NODE_TYPE, &len);
  lua_pushlstring(L, s ? s : "?", s ? len : 1);
  s = lunh(S->rt, inspect, node_text, lun_node_check(L), LUN_NODE_TEXT, &len);
  if (s && len) {
    lua_pushliteral(L, " \"");
    lua_pushlstring(L, s, len);
    lua_pushliteral(L, "\"");
    lua_concat(L, 4);
  }
}

/* Raises if slot of the out table at outidx was stored while its view was
 * disabled (D09): "cannot tap Button "Save": it is disabled". [-0, +0] */
static void lun_node_enabled(lua_State *L, int outidx, int32_t slot, const char *verb) {
  static const char *const verbs[][2] = {
    {"tapLink", "follow"}, {"setText", "type into"}, {"select", "pick from"}, {"setValue", "set the value of"},
    {"increment", "step"}, {"decrement", "step"}, {NULL, NULL}};
  const char *says = verb;
  int i;
  if (lua_getfield(L, outidx, "disabled") != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_rawgeti(L, -1, slot);
  if (lua_isnil(L, -1)) { lua_pop(L, 2); return; }
  for (i = 0; verbs[i][0]; i++)
    if (strcmp(verb, verbs[i][0]) == 0) says = verbs[i][1];
  lun_node_name(L);
  lun_enabled_refuse(L, says, lua_tostring(L, -1));
}

/* Raises if node 1 was found before a ui.reset(), which unmounted its app
 * (its id may name a node of a later app). [-0, +0] */
static void lun_node_live(lua_State *L, const char *verb) {
  if (((lun_Handle *)luaL_checkudata(L, 1, LUN_MT_NODE))->resets != lun_state(L)->resets)
    lun_error_here(L, "%s: the node was found before ui.reset(), which unmounted its app; find it again", verb);
}

/* Pushes the Lua value a node keeps for role, or raises naming the node. [-0, +1] */
static void lun_node_slot(lua_State *L, int role, const char *verb) {
  lun_State *S = lun_state(L);
  int ref = 0;
  int32_t slot = 0;
  int found;
  lun_node_live(L, verb);
  found = lunh(S->rt, inspect, node_info, lun_node_check(L), role, &ref, &slot);
  if (found <= 0) {
    size_t len;
    const char *what = lunh(S->rt, inspect, node_text, lun_node_check(L), LUN_NODE_TREE, &len);
    const char *nl = memchr(what, '\n', len);
    lua_pushlstring(L, what, nl ? (size_t)(nl - what) : len);
    if (found < 0) lun_error_here(L, "%s: %s was replaced by a later render; find it again", verb, lua_tostring(L, -1));
    lun_error_here(L, "%s: %s cannot be %s", verb, lua_tostring(L, -1),
                   role == LUN_ROLE_ACTION ? "tapped" : role == LUN_ROLE_SUBMIT ? "submitted"
                   : role == LUN_ROLE_FOCUS ? "focused (it has no :focused, or takes no input: a Text, an Image, …)"
                   : role == LUN_ROLE_CONTROL ? "used so (it is no Picker, Slider, Stepper or DatePicker)" : "edited");
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  lua_getfield(L, -1, "out");
  lun_node_enabled(L, lua_gettop(L), slot, verb);
  lua_rawgeti(L, -1, slot);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* Runs the function below nargs arguments as a person's act: no tracking
 * scope reads through it (what it reads is no view's dependency).
 * [-(nargs+1), +0] */
void lun_node_act_call(lua_State *L, int nargs) {
  lun_State *S = lun_state(L);
  int32_t saved = S->active;
  S->active = 0;
  lua_call(L, nargs, 0);
  S->active = saved;
}

/* Runs the function on top of the stack with nargs arguments as an event, then flushes. */
static void lun_node_event(lua_State *L, int nargs) {
  lun_node_act_call(L, nargs);
  lun_flush_now(L);
}

/* Runs the function the node keeps for role as an event, then flushes. */
static int lun_node_act(lua_State *L, int role, const char *verb) {
  lun_app_check_idle(L, verb);
  lun_node_slot(L, role, verb);
  lun_node_event(L, 0);
  return 0;
}

/* node:tap() -> (): runs a Button's action. */
static int lun_node_tap(lua_State *L) { return lun_node_act(L, LUN_ROLE_ACTION, "tap"); }
/* node:tapLink() -> (): follows a NavigationLink (taps its label), pushing
 * its destination onto the stack's path (T07). */
static int lun_node_tap_link(lua_State *L) { return lun_node_act(L, LUN_ROLE_ACTION, "tapLink"); }
/* node:submit() -> (): runs the node's onSubmit action. */
static int lun_node_submit(lua_State *L) { return lun_node_act(L, LUN_ROLE_SUBMIT, "submit"); }
/* node:focus() -> (): focuses a field with :focused, as a click would (T05). */
static int lun_node_focus(lua_State *L) { return lun_node_act(L, LUN_ROLE_FOCUS, "focus"); }

/* Pushes the binding and the control spec ({ kind, options | range }) of a
 * Picker, Slider or Stepper node at 1. [-0, +2] */
static void lun_node_control(lua_State *L, const char *verb) {
  lun_app_check_idle(L, verb);
  lun_node_slot(L, LUN_ROLE_CONTROL, verb);       /* first: "it is no Picker, Slider or Stepper" */
  lun_node_slot(L, LUN_ROLE_BINDING, verb);
  lua_insert(L, -2);
}

/* Writes the value on top into the binding below the spec, then flushes. [-1, +0] */
static void lun_node_control_set(lua_State *L) {
  lun_binding_set(L, -3, -1);
  lua_pop(L, 1);
  lun_flush_now(L);
}

/* node:select(value) -> (): picks one of a Picker's options: the tag equal
 * to value by contents (D03: a table tag as Swift's Hashable one), and an
 * option tagged ui.none for nil (SwiftUI's `.tag(nil as T?)`: the
 * selection becomes nil, not the marker). */
static int lun_node_select(lua_State *L) {
  lua_Integer i;
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  lun_node_control(L, "select");                  /* 3: the binding, 4: the spec */
  lua_getfield(L, 4, "kind");
  if (lua_tointeger(L, -1) == LUN_VIEW_LIST) {    /* List(selection:): a row's value (lun_list.c) */
    lun_list_select(L, 3, 4, 2);
    lun_flush_now(L);
    return 0;
  }
  lua_pop(L, 1);
  lua_getfield(L, -1, "options");
  if (lua_isnil(L, -1)) return lun_error_here(L, "select: the node is no Picker");
  if ((i = lun_picker_find(L, 5, 2)) > 0) {
    if (lun_proxy_test(L, 5)) lua_geti(L, 5, i);  /* the option: the tag, what it holds (from state: */
    else lua_rawgeti(L, 5, i);                    /* as state gives it) */
    if (lun_marker_kind(L, -1) == LUN_MARK_NONE) {
      lua_pop(L, 1);
      lua_pushnil(L);
    }
    lua_replace(L, 5);                            /* binding, spec, the value (lun_node_control_set) */
    lua_settop(L, 5);
    lun_node_control_set(L);
    return 0;
  }
  lun_describe(L, 2, 1);
  return lun_error_here(L, "select: %s is not one of the Picker's options", lua_tostring(L, -1));
}

/* The range of the control spec on top: low, high (a DatePicker without
 * one: every date). */
static void lun_node_range(lua_State *L, lua_Number *lo, lua_Number *hi, const char *verb) {
  if (lua_getfield(L, -1, "range") != LUA_TTABLE) {
    lua_getfield(L, -2, "kind");
    if (lua_tointeger(L, -1) == LUN_VIEW_DATEPICKER && strcmp(verb, "setValue") == 0) {
      *lo = -1e15;                                /* every date a DatePicker takes (lun_control.c) */
      *hi = 1e15;
      lua_pop(L, 2);
      return;
    }
    lun_error_here(L, "%s: the node has no range", verb);
  }
  lua_rawgeti(L, -1, 1);
  lua_rawgeti(L, -2, 2);
  *lo = lua_tonumber(L, -2);
  *hi = lua_tonumber(L, -1);
  lua_pop(L, 3);
}

/* node:setValue(x) -> (): moves a Slider (or sets a Stepper) to x, or
 * picks the date x (seconds since 1970) in a DatePicker, within its range.
 * A Slider with a step lands on the nearest of low, low + step, ... within
 * the range (Slider(value:in:step:)). */
static int lun_node_set_value(lua_State *L) {
  lua_Number x = luaL_checknumber(L, 2), lo, hi, step;
  luaL_argcheck(L, x == x, 2, "a number expected, not NaN");
  lua_settop(L, 2);
  lun_node_control(L, "setValue");
  lun_node_range(L, &lo, &hi, "setValue");
  if (x < lo || x > hi) return lun_error_here(L, "setValue: %f is outside the range %f ... %f", x, lo, hi);
  lua_getfield(L, -1, "kind");
  if (lua_tointeger(L, -1) == LUN_VIEW_SLIDER && lua_getfield(L, -2, "step") == LUA_TNUMBER) {
    lua_Number k, y;
    step = lua_tonumber(L, -1);
    k = floor((x - lo) / step + 0.5);             /* the nearest of low, low + step, ... */
    y = lo + k * step;
    if (isfinite(k) && isfinite(y)) {             /* a step too small to count in (or an endless range): x as given */
      if (y > hi) y = hi;                         /* past the end by rounding: the end */
      if (y < lo) y = lo;
      x = y;
    }
    if (lua_isinteger(L, -1) && x == floor(x) && x >= -9007199254740992.0 && x <= 9007199254740992.0)
      lua_pushinteger(L, (lua_Integer)x);
    else lua_pushnumber(L, x);
    lua_replace(L, 2);
  }
  lua_settop(L, 4);                               /* 3: the binding, 4: the control spec */
  lua_pushvalue(L, 2);
  lun_node_control_set(L);
  return 0;
}

/* x as an integer, clamped to the integers (NaN: 0): no conversion out of range. */
static lua_Integer lun_clamp_integer(lua_Number x) {
  if (x != x) return 0;
  if (x >= (lua_Number)LUA_MAXINTEGER) return LUA_MAXINTEGER;   /* 2^63: the first float past it */
  if (x <= (lua_Number)LUA_MININTEGER) return LUA_MININTEGER;
  return (lua_Integer)x;
}

/* node:increment() / node:decrement() -> (): a Stepper's step (its `step`,
 * 1 by default), kept within its range. An integer value steps in integers, clamped at the
 * integers' ends (no wrap, no signed overflow). */
static int lun_node_step(lua_State *L, int up, const char *verb) {
  lua_Number lo, hi, now, step;
  lua_Integer istep;
  int integral;
  lua_settop(L, 1);
  lun_node_control(L, verb);
  lua_getfield(L, -1, "kind");
  if (lua_tointeger(L, -1) == LUN_VIEW_DATEPICKER) return lun_error_here(L, "%s: a DatePicker has no step (setValue picks a date)", verb);
  lua_pop(L, 1);
  lun_node_range(L, &lo, &hi, verb);
  lua_getfield(L, -1, "step");                    /* Stepper(value:in:step:), 1 when none */
  integral = lua_isinteger(L, -1) || lua_isnil(L, -1);
  istep = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 1;
  step = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : 1;
  lua_pop(L, 1);
  lun_binding_get(L, -2);
  if (lua_isinteger(L, -1) && integral) {
    lua_Integer v = lua_tointeger(L, -1), low = lun_clamp_integer(ceil(lo)), high = lun_clamp_integer(floor(hi));
    if (up) v = v <= LUA_MAXINTEGER - istep ? v + istep : LUA_MAXINTEGER;
    else v = v >= LUA_MININTEGER + istep ? v - istep : LUA_MININTEGER;
    if (v > high) v = high;
    if (v < low) v = low;
    lua_pop(L, 1);
    lua_pushinteger(L, v);
  } else {
    now = lua_tonumber(L, -1) + (up ? step : -step);
    lua_pop(L, 1);
    if (now < lo) now = lo;
    if (now > hi) now = hi;
    lua_pushnumber(L, now);
  }
  lun_node_control_set(L);
  return 0;
}

static int lun_node_increment(lua_State *L) { return lun_node_step(L, 1, "increment"); }
static int lun_node_decrement(lua_State *L) { return lun_node_step(L, 0, "decrement"); }

/* Pushes the action ForEach's `field` (deleteAction, moveAction: its
 * onDelete, onMove) keeps for the row
 * the node at 1 is in, then the row's index and the count of its data;
 * raises naming the node when it is in no such row. [-0, +3] */
static void lun_node_row(lua_State *L, const char *verb, const char *field) {
  lun_State *S = lun_state(L);
  int ref = 0, out;
  int32_t slot = 0;
  int found;
  lun_node_live(L, verb);
  found = lunh(S->rt, inspect, node_info, lun_node_check(L), LUN_ROLE_ROW, &ref, &slot);
  if (found <= 0) {
    lun_node_name(L);
    if (found < 0) lun_error_here(L, "%s: %s was replaced by a later render; find it again", verb, lua_tostring(L, -1));
    lun_error_here(L, "%s: %s is in no row of a ForEach with :onDelete or :onMove", verb, lua_tostring(L, -1));
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);         /* the list unit's record */
  lua_getfield(L, -1, "out");
  out = lua_gettop(L);
  lun_node_enabled(L, out, slot, verb);
  if (lua_getfield(L, out - 1, field) != LUA_TFUNCTION) {
    lun_node_name(L);
    lun_error_here(L, "%s: the ForEach of %s's row has no :%s", verb, lua_tostring(L, -1),
                   strcmp(field, "deleteAction") == 0 ? "onDelete" : "onMove");
  }
  if (strcmp(field, "moveAction") == 0 && lua_getfield(L, out - 1, "moveLocked") == LUA_TBOOLEAN && lua_toboolean(L, -1)) {
    lun_node_name(L);                             /* onMove's controls show only while in edit mode */
    lun_error_here(L, "%s: %s cannot move: its List is not in edit mode (the editMode in its environment is "
                      "\"inactive\"; set it to \"active\")", verb, lua_tostring(L, -1));
  }
  if (strcmp(field, "moveAction") == 0) lua_pop(L, 1);
  lua_rawgeti(L, out, slot);
  lua_getfield(L, out - 1, "data");
  lua_pushinteger(L, luaL_len(L, -1));
  lua_replace(L, -2);
  lua_rotate(L, out - 1, -2);                     /* record, out to the top */
  lua_pop(L, 2);
}

/* Pushes a list holding the index at idx: SwiftUI's IndexSet of one row. [-0, +1] */
static void lun_node_index_set(lua_State *L, int idx) {
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, idx);
  lua_rawseti(L, -2, 1);
}

/* node:delete() -> (): deletes the row the node is in, as a swipe's Delete
 * does: its ForEach's onDelete runs with { index } (SwiftUI's IndexSet of
 * offsets, 1-based), as an event, then flushes. */
static int lun_node_delete(lua_State *L) {
  lua_settop(L, 1);
  lun_app_check_idle(L, "delete");
  lun_node_row(L, "delete", "deleteAction");      /* 2: onDelete, 3: index, 4: count */
  lua_pushvalue(L, 2);
  lun_node_index_set(L, 3);
  lun_node_event(L, 1);
  return 0;
}

/* node:move(to) -> (): moves the row the node is in before position `to`
 * (counted before the move: 1 ... #data + 1), as a drag does: its
 * ForEach's onMove runs with ({ index }, to), as an event, then flushes. */
static int lun_node_move(lua_State *L) {
  lua_Integer to = luaL_checkinteger(L, 2);
  lua_settop(L, 2);
  lun_app_check_idle(L, "move");
  lun_node_row(L, "move", "moveAction");          /* 3: onMove, 4: index, 5: count */
  if (to < 1 || to - 1 > lua_tointeger(L, 5)) {   /* to - 1: no overflow, whatever the data's __len says */
    lua_Integer count = lua_tointeger(L, 5), end = count < LUA_MAXINTEGER ? count + 1 : LUA_MAXINTEGER;
    return lun_error_here(L, "move: %I is outside 1 ... %I (the position the row goes before, counted before it "
                             "moves; %I: the end)", (LUAI_UACINT)to, (LUAI_UACINT)end, (LUAI_UACINT)end);
  }
  lua_pushvalue(L, 3);
  lun_node_index_set(L, 4);
  lua_pushinteger(L, to);
  lun_node_event(L, 2);
  return 0;
}

/* node:refresh() -> (): pulls to refresh a view with :refreshable(fn), or
 * a List inside one (the `refresh` in its environment), as SwiftUI's
 * refresh control does: calls the RefreshAction (lun_refresh.c: fn runs as
 * a task, the view shows refreshing=true until it ends, a refresh while one
 * runs does nothing). Flushes. */
static int lun_node_refresh(lua_State *L) {
  lun_State *S = lun_state(L);
  int ref = 0, found;
  int32_t slot = 0;
  lua_settop(L, 1);
  lun_app_check_idle(L, "refresh");
  found = lunh(S->rt, inspect, node_info, lun_node_check(L), LUN_ROLE_REFRESH, &ref, &slot);
  if (found <= 0) {
    lun_node_name(L);
    if (found < 0) return lun_error_here(L, "refresh: %s was replaced by a later render; find it again", lua_tostring(L, -1));
    return lun_error_here(L, "refresh: %s cannot be refreshed (it has no :refreshable, and no refresh in its environment)",
                          lua_tostring(L, -1));
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);         /* 2: the record */
  lua_getfield(L, 2, "out");                      /* 3 */
  lun_node_enabled(L, 3, slot, "refresh");
  lua_rawgeti(L, 3, slot);
  if (!lun_refresh_test(L, -1)) return luaL_error(L, "refresh: the node's action is gone");
  lua_call(L, 0, 0);
  lun_flush_now(L);
  return 0;
}

/* Protected part of lun_node_invoke: (handle, method, arg) -> (); the
 * node userdata takes the handle (its collection releases it). */
static int lun_node_invoke_k(lua_State *L) {
  const lun_HostValue *arg = (const lun_HostValue *)lua_touserdata(L, 3);
  lun_handle_push(L, (int32_t)lua_tointeger(L, 1), LUN_MT_NODE);
  lua_getfield(L, -1, (const char *)lua_touserdata(L, 2));
  lua_insert(L, -2);
  if (arg) lun_host_push_value(L, arg);
  lua_call(L, arg ? 2 : 1, 0);
  return 0;
}

int lun_node_invoke(lua_State *L, int32_t handle, const char *method, const lun_HostValue *arg) {
  if (!lua_checkstack(L, 6)) return LUN_ERROR;
  lua_pushcfunction(L, lun_node_invoke_k);
  lua_pushinteger(L, handle);
  lua_pushlightuserdata(L, (void *)method);
  lua_pushlightuserdata(L, (void *)arg);
  return lun_protect(L, 3, 0);
}

/* Raises unless node 1 is of one of the kinds named in `kinds` (its type
 * as trees show it): a person cannot toggle a text field or type into a
 * Toggle. `what` says which can. [-0, +0] */
static void lun_node_kind_check(lua_State *L, const char *verb, const char *const kinds[], const char *how,
                                const char *what) {
  size_t len;
  int i;
  const char *type = lunh(lun_state(L)->rt, inspect, node_text, lun_node_check(L), LUN_NODE_TYPE, &len);
  for (i = 0; type && kinds[i]; i++)
    if (strlen(kinds[i]) == len && memcmp(type, kinds[i], len) == 0) return;
  lun_node_name(L);
  lun_error_here(L, "%s: %s cannot be %s (only %s can)", verb, lua_tostring(L, -1), how, what);
}

/* node:toggle() -> (): flips a Toggle's binding. */
static int lun_node_toggle(lua_State *L) {
  static const char *const toggles[] = {"Toggle", NULL};
  lun_app_check_idle(L, "toggle");
  lun_node_slot(L, LUN_ROLE_BINDING, "toggle");
  lun_node_kind_check(L, "toggle", toggles, "toggled", "a Toggle");
  lun_binding_toggle(L, -1, "toggle");
  lun_flush_now(L);
  return 0;
}

/* node:setText(s) -> (): writes a TextField's binding. */
/* node:setText(s) -> (): writes a TextField's binding. One types into the
 * field that has the focus: once the text is known to fit, the field takes
 * the focus, as a click would (node:focus(); a field with no :focused takes
 * it from the scene's focus state), so its FocusState names it (D01: "a
 * value that SwiftUI updates as the placement of focus ... changes",
 * https://developer.apple.com/documentation/swiftui/focusstate); then the
 * text is written, and one flush shows both. */
static int lun_node_settext(lua_State *L) {
  static const char *const fields[] = {"TextField", "SecureField", NULL};
  int ref = 0, binding;
  int32_t slot = 0;
  size_t len;
  const char *type;
  luaL_checkstring(L, 2);
  lun_app_check_idle(L, "setText");
  lun_node_slot(L, LUN_ROLE_BINDING, "setText");
  binding = lua_gettop(L);
  lun_node_kind_check(L, "setText", fields, "typed into", "a TextField or a SecureField");
  type = lunh(lun_state(L)->rt, inspect, node_text, lun_node_check(L), LUN_NODE_TYPE, &len);
  lun_binding_typed(L, binding, 2, type && len == 11 && memcmp(type, "SecureField", 11) == 0, "setText");
  if (lunh(lun_state(L)->rt, inspect, node_info, lun_node_check(L), LUN_ROLE_FOCUS, &ref, &slot) > 0) {
    lun_node_slot(L, LUN_ROLE_FOCUS, "setText");
    lun_node_act_call(L, 0);                      /* no flush between it and the text: the node stays */
  }
  lun_binding_set(L, binding, -1);
  lun_flush_now(L);
  return 0;
}

/* node:scroll(row) -> (): moves a lazy List's window to start at row (as
 * far as the rows go), as scrolling does, then flushes (F13); refused
 * when the List is disabled, as other interactions are (D09). */
static int lun_node_scroll(lua_State *L) {
  lun_State *S = lun_state(L);
  lua_Integer row = luaL_checkinteger(L, 2);
  int ref = 0;
  int32_t unit = 0;
  luaL_argcheck(L, row >= 1, 2, "rows are numbered from 1");
  lun_app_check_idle(L, "scroll");
  if (lunh(S->rt, inspect, node_info, lun_node_check(L), LUN_ROLE_LIST, &ref, &unit) <= 0) {
    size_t len;
    const char *what = lunh(S->rt, inspect, node_text, lun_node_check(L), LUN_NODE_TREE, &len);
    const char *nl = memchr(what, '\n', len);
    lua_pushlstring(L, what, nl ? (size_t)(nl - what) : len);
    return lun_error_here(L, "scroll: %s is not a List on screen", lua_tostring(L, -1));
  }
  {                                               /* scrolling is interaction: refused under :disabled (D09) */
    int32_t saved = S->active;
    int top = lua_gettop(L), enabled;
    lua_pushliteral(L, "isEnabled");
    S->active = 0;                                /* a look, not a dependency */
    lun_env_read(L, unit, top + 1, LUN_ENV_KEYED, top + 1);
    S->active = saved;
    enabled = lua_toboolean(L, -1);
    lua_settop(L, top);
    if (!enabled) {
      lun_node_name(L);
      lun_enabled_refuse(L, "scroll", lua_tostring(L, -1));
    }
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  lua_pushinteger(L, row);
  lua_setfield(L, -2, "first");
  lun_out_done_send(L, S);                        /* a run that ended first, so it runs again */
  lunh(S->rt, scheduler, unit_invalidate, unit);
  lun_flush_now(L);
  return 0;
}

/* node:tree() -> the node's subtree as text. */
static int lun_node_tree(lua_State *L) {
  size_t len;
  const char *s = lunh(lun_state(L)->rt, inspect, node_text, lun_node_check(L), LUN_NODE_TREE, &len);
  lua_pushlstring(L, s, len);
  return 1;
}

/* __index of nodes: a method, or the fields type, text (label), value. */
static int lun_node_index(lua_State *L) {
  static const char *const fields[] = {"type", "text", "value", NULL};
  int what;
  size_t len;
  const char *s;
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "label") == 0) what = LUN_NODE_TEXT;
  else what = luaL_checkoption(L, 2, NULL, fields) + 1;
  s = lunh(lun_state(L)->rt, inspect, node_text, lun_node_check(L), what, &len);
  if (!s) return 0;
  lua_pushlstring(L, s, len);
  return 1;
}

/* __gc of nodes: lets the host forget the handle. */
static int lun_node_gc(lua_State *L) {
  lunh(lun_state(L)->rt, inspect, node_release_handle, lun_node_check(L));
  return 0;
}

/* __tostring of nodes: their line in the tree. */
static int lun_node_tostring(lua_State *L) {
  size_t len;
  const char *s = lunh(lun_state(L)->rt, inspect, node_text, lun_node_check(L), LUN_NODE_TREE, &len);
  const char *nl = memchr(s, '\n', len);
  lua_pushlstring(L, s, nl ? (size_t)(nl - s) : len);
  return 1;
}

void lun_open_node(lua_State *L) {
  static const luaL_Reg node[] = {
    {"tap", lun_node_tap}, {"tapLink", lun_node_tap_link}, {"submit", lun_node_submit}, {"toggle", lun_node_toggle},
    {"setText", lun_node_settext}, {"scroll", lun_node_scroll}, {"focus", lun_node_focus},
    {"select", lun_node_select}, {"setValue", lun_node_set_value}, {"increment", lun_node_increment},
    {"decrement", lun_node_decrement}, {"tree", lun_node_tree}, {"delete", lun_node_delete},
    {"move", lun_node_move}, {"refresh", lun_node_refresh}, {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_NODE);
  lua_newtable(L);
  luaL_setfuncs(L, node, 0);
  lua_pushcclosure(L, lun_node_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, lun_node_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, lun_node_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}
