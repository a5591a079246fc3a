/*
 * lun_control.c — the controls bound to a value: Toggle, TextField,
 * SecureField, Slider, Stepper and DatePicker. Each takes a label and a
 * binding (ui.Binding, or a model's or state's "$name"), checks the bound
 * value's type against what the control edits, and keeps the binding in
 * the view value for the walk to hand the host (a Picker: lun_picker.c).
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

#include <math.h>
#include <time.h>

/* Checks a range argument { low, high } of control `name`: two numbers,
 * low <= high, nothing else (SwiftUI's ClosedRange). [-0, +0] */
static void lun_view_range_arg(lua_State *L, int arg, const char *name) {
  lua_Number lo = 0, hi = 0;
  int ok;
  if (lun_proxy_test(L, arg)) {                    /* a range a model or state holds: a copy of its pair */
    lun_proxy_unwrap(L, arg);
    lun_copy_shallow(L, arg);
    lua_replace(L, arg);
  }
  ok = lua_type(L, arg) == LUA_TTABLE && !lua_getmetatable(L, arg);
  if (ok) {
    int entries = 0;
    lua_pushnil(L);
    while (lua_next(L, arg)) {
      lua_pop(L, 1);
      if (++entries > 2) { lua_pop(L, 1); break; }   /* and the key: a third entry is enough to refuse */
    }
    lua_rawgeti(L, arg, 1);
    lua_rawgeti(L, arg, 2);
    ok = entries == 2 && lua_type(L, -2) == LUA_TNUMBER && lua_type(L, -1) == LUA_TNUMBER;
    if (ok) { lo = lua_tonumber(L, -2); hi = lua_tonumber(L, -1); }
    lua_pop(L, 2);
    ok = ok && lo <= hi;                          /* NaN fails it; math.huge is a bound (0...Double.infinity) */
  }
  if (!ok) lun_error_here(L, "ui.%s: its range (argument %d) is { low, high }, two numbers with low <= high, got %s",
                          name, arg, lua_type(L, arg) == LUA_TTABLE ? (lun_describe(L, arg, 1), lua_tostring(L, -1))
                                                                      : luaL_typename(L, arg));
}

/* A bound control: kind, label (or nil) at labelarg, binding at bindarg,
 * and the control's spec (options or range) at specarg. */
int lun_view_control(lua_State *L, int kind, int labelarg, int bindarg, int specarg) {
  int vidx;
  if (lua_gettop(L) < 3) lua_settop(L, 3);
  if (!lun_binding_test(L, bindarg))
    luaL_argerror(L, bindarg, lua_pushfstring(L, "Binding expected (self[\"$name\"]), got %s", luaL_typename(L, bindarg)));
  vidx = lun_view_new(L, kind);
  if (labelarg) lun_view_text_arg(L, labelarg, vidx, "text");
  lua_pushvalue(L, bindarg);
  lua_setfield(L, vidx, "binding");
  lua_createtable(L, 0, 2);                       /* the spec the walker keeps for node methods */
  lua_pushinteger(L, kind);
  lua_setfield(L, -2, "kind");
  lua_pushvalue(L, specarg);
  lua_setfield(L, -2, kind == LUN_VIEW_PICKER ? "options" : "range");
  lua_setfield(L, vidx, "control");
  return 1;
}

/* Checks that the value at idx is a date: a finite number of seconds since
 * 1970, as the bridge carries a Swift Date. [-0, +0] */
static void lun_view_date_arg(lua_State *L, int idx, const char *label, const char *what) {
  lua_Number t = lua_type(L, idx) == LUA_TNUMBER ? lua_tonumber(L, idx) : 0;
  if (lua_type(L, idx) != LUA_TNUMBER || t != t || t > 1e15 || t < -1e15) {
    lun_describe(L, idx, 1);
    lun_error_here(L, "ui.DatePicker \"%s\": %s is %s; a date is a number of seconds since 1970 (os.time(), "
                   "or a Swift Date through the bridge)", label, what, lua_tostring(L, -1));
  }
}

/* Checks a DatePicker's displayedComponents at idx: "date",
 * "hourAndMinute", or both listed. [-0, +0] */
static void lun_view_components_arg(lua_State *L, int idx, const char *label) {
  int ok;
  if (lua_type(L, idx) == LUA_TSTRING) {
    ok = strcmp(lua_tostring(L, idx), "date") == 0 || strcmp(lua_tostring(L, idx), "hourAndMinute") == 0;
  } else if (lua_istable(L, idx) && !lua_getmetatable(L, idx)) {
    lua_Integer i, n = (lua_Integer)lua_rawlen(L, idx);
    ok = n >= 1 && n <= 2;
    for (i = 1; i <= n && ok; i++) {
      const char *c = lua_rawgeti(L, idx, i) == LUA_TSTRING ? lua_tostring(L, -1) : "";
      ok = strcmp(c, "date") == 0 || strcmp(c, "hourAndMinute") == 0;
      lua_pop(L, 1);
    }
  } else ok = 0;
  if (!ok) {
    lun_describe(L, idx, 1);
    lun_error_here(L, "ui.DatePicker \"%s\": displayedComponents must be \"date\", \"hourAndMinute\" or both listed, got %s",
                   label, lua_tostring(L, -1));
  }
}

/* ui.DatePicker(label, binding [, { range = { low, high }, displayedComponents = "date" }])
 * -> view: SwiftUI's DatePicker(_:selection:in:displayedComponents:)
 * (https://developer.apple.com/documentation/swiftui/datepicker). A date is
 * a number of seconds since 1970, as the bridge carries a Swift Date; the
 * node shows it as `value` and, in UTC, as `date`; node:setValue(seconds)
 * picks one within the range. [-0, +1] */
int lun_ui_datepicker(lua_State *L) {
  static const char *const options[] = {"range", "displayedComponents", NULL};
  const char *label;
  int vidx;
  if (lua_gettop(L) > 3) lun_error_here(L, "ui.DatePicker takes a label, a binding and options, got %d arguments", lua_gettop(L));
  lua_settop(L, 3);
  if (lua_type(L, 1) != LUA_TSTRING && lua_type(L, 1) != LUA_TNUMBER) luaL_typeerror(L, 1, "string");
  label = lua_tostring(L, 1);
  if (!lun_binding_test(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "Binding expected (self[\"$date\"]), got %s", luaL_typename(L, 2)));
  lua_createtable(L, 0, 3);                       /* 4: the control's spec */
  lua_pushinteger(L, LUN_VIEW_DATEPICKER);
  lua_setfield(L, 4, "kind");
  if (!lua_isnil(L, 3)) {
    if (!lua_istable(L, 3) || lua_getmetatable(L, 3))
      luaL_argerror(L, 3, "an options table expected ({ range = { low, high }, displayedComponents = \"date\" })");
    lun_check_keys(L, 3, options, "ui.DatePicker", "option");
    if (lua_getfield(L, 3, "range") != LUA_TNIL) {   /* in: low...high */
      if (!lua_istable(L, -1)) lun_error_here(L, "ui.DatePicker \"%s\": range must be { low, high }, got %s", label, luaL_typename(L, -1));
      lua_rawgeti(L, -1, 1);
      lun_view_date_arg(L, -1, label, "the range's low end");
      lua_rawgeti(L, -2, 2);
      lun_view_date_arg(L, -1, label, "the range's high end");
      if (lua_tonumber(L, -2) > lua_tonumber(L, -1)) lun_error_here(L, "ui.DatePicker \"%s\": the range's low end is after its high end", label);
      lua_createtable(L, 2, 0);                   /* a copy: the script's table may change */
      lua_insert(L, -3);
      lua_rawseti(L, -3, 2);
      lua_rawseti(L, -2, 1);
      lua_setfield(L, 4, "range");
      lua_pop(L, 1);
    } else lua_pop(L, 1);
    if (lua_getfield(L, 3, "displayedComponents") != LUA_TNIL) {
      lun_view_components_arg(L, lua_gettop(L), label);
      if (lua_istable(L, -1) && lua_rawlen(L, -1) == 1) lua_rawgeti(L, -1, 1);
      if (lua_type(L, -1) == LUA_TSTRING) lua_setfield(L, 4, "components");   /* one of them; both: the default */
    }
    lua_settop(L, 4);
  }
  lun_binding_get(L, 2);                          /* the date shown now */
  lun_view_date_arg(L, -1, label, "the binding's value");
  lua_pop(L, 1);
  vidx = lun_view_new(L, LUN_VIEW_DATEPICKER);
  lun_view_text_arg(L, 1, vidx, "text");
  lua_pushvalue(L, 2);
  lua_setfield(L, vidx, "binding");
  lua_pushvalue(L, 4);
  lua_setfield(L, vidx, "control");
  if (lua_getfield(L, 4, "components") == LUA_TSTRING) lun_view_attr(L, vidx, "displayedComponents"); else lua_pop(L, 1);
  return 1;
}

/* Pushes the date of `seconds` since 1970 as text, in UTC: "2024-03-01
 * 12:30", or its date or time alone when components says so; "" when it
 * is past year 9999 or before year 1. [-0, +1] */
void lun_date_text(lua_State *L, lua_Number seconds, const char *components) {
  char buf[64];
  struct tm tm;
  time_t t;
  const char *format = components && strcmp(components, "date") == 0 ? "%Y-%m-%d"
                     : components && strcmp(components, "hourAndMinute") == 0 ? "%H:%M" : "%Y-%m-%d %H:%M";
  if (!(seconds >= -62135596800.0 && seconds < 253402300800.0)) { lua_pushliteral(L, ""); return; }
  t = (time_t)floor(seconds);
  if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof buf, format, &tm)) { lua_pushliteral(L, ""); return; }
  lua_pushstring(L, buf);
}

/* Reads the { step = n } options at arg of the control `name` (none: nil)
 * and keeps the step in the control spec of the view on top, an integer if
 * given as one. [-0, +0] */
static void lun_view_step_option(lua_State *L, int arg, const char *name) {
  static const char *const options[] = {"step", NULL};
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  lun_check_keys(L, arg, options, name, "option");
  lua_getfield(L, -1, "control");
  if (lua_getfield(L, arg, "step") != LUA_TNIL) {
    luaL_argcheck(L, lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) > 0 && lua_tonumber(L, -1) < 1e15, arg,
                  "step must be a positive number");
    lua_setfield(L, -2, "step");
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 2);
}

/* 1 if the range argument at arg (the top but one) was left out: nil, or
 * an options table in its place — no entry [1], and empty or with a key
 * that is a string (a misspelt option is then named as one) — with
 * nothing after it. Whether any key is a string, not which comes first:
 * a table's order differs from run to run. [-0, +0] */
static int lun_view_range_omitted(lua_State *L, int arg) {
  int options = 0, keys = 0;
  if (lua_isnil(L, arg)) return 1;
  if (lua_type(L, arg) != LUA_TTABLE || !lua_isnil(L, arg + 1)) return 0;
  if (lua_getmetatable(L, arg)) { lua_pop(L, 1); return 0; }
  if (lua_rawgeti(L, arg, 1) == LUA_TNIL) {
    options = 1;                                  /* empty, until a key says otherwise */
    lua_pushnil(L);
    while (lua_next(L, arg)) {
      lua_pop(L, 1);
      options = lua_type(L, -1) == LUA_TSTRING;
      if (options || ++keys > 16) { lua_pop(L, 1); break; }   /* an options table holds a few keys */
    }
  }
  lua_settop(L, arg + 1);
  return options;
}

/* Shared body of Slider and Stepper: ([label,] binding [, { low, high }]
 * [, { step = n }]) -> view, the label at labelarg (0: none). Without a
 * range a Slider's is 0...1 (Slider(value:in:) defaults `in` to 0...1) and
 * a Stepper has none (Stepper(_:value:step:): no bounds), shown as
 * { -math.huge, math.huge }. [-0, +1] */
static int lun_view_ranged(lua_State *L, int kind, const char *name, const char *call, int labelarg) {
  int bindarg = labelarg + 1;
  lun_view_arity(L, name, bindarg + 2);
  lua_settop(L, bindarg + 2);
  if (lun_view_range_omitted(L, bindarg + 1)) {
    lua_pushvalue(L, bindarg + 1);                /* the options, or nil, one place on */
    lua_replace(L, bindarg + 2);
    lua_createtable(L, 2, 0);
    if (kind == LUN_VIEW_SLIDER) lua_pushinteger(L, 0); else lua_pushnumber(L, -HUGE_VAL);
    lua_rawseti(L, -2, 1);
    if (kind == LUN_VIEW_SLIDER) lua_pushinteger(L, 1); else lua_pushnumber(L, HUGE_VAL);
    lua_rawseti(L, -2, 2);
    lua_replace(L, bindarg + 1);
  }
  lun_view_range_arg(L, bindarg + 1, name);
  lua_settop(L, bindarg + 2);
  lun_view_control(L, kind, labelarg, bindarg, bindarg + 1);
  lun_view_bound_value(L, kind, labelarg, bindarg);
  lun_view_step_option(L, bindarg + 2, call);
  return 1;
}

/* ui.Slider(binding [, { low, high }] [, { step = n }]) -> view: SwiftUI's
 * Slider(value:in:step:), its value one of low, low + n, ... within the
 * range ("with a range of 0 to 100, and a step of 5, the slider's
 * increments would be 0, 5, 10, and so on",
 * https://developer.apple.com/documentation/swiftui/slider), 0...1 when
 * none is given (init(value:in:onEditingChanged:), `in bounds = 0...1`). */
int lun_ui_slider(lua_State *L) {
  if (lua_type(L, 1) == LUA_TSTRING && lun_binding_test(L, 2))   /* Slider(value:in:) has no title */
    lun_error_here(L, "ui.Slider takes (binding [, { low, high }] [, { step = n }]), as Slider(value:in:step:): "
                      "its title goes in a ui.Text beside it");
  return lun_view_ranged(L, LUN_VIEW_SLIDER, "Slider", "ui.Slider", 0);
}

/* ui.Stepper(label, binding [, { low, high }] [, { step = n }]) -> view:
 * SwiftUI's Stepper(_:value:in:step:), stepping by n (1 by default), or
 * Stepper(_:value:step:) with no bounds when no range is given. */
int lun_ui_stepper(lua_State *L) {
  return lun_view_ranged(L, LUN_VIEW_STEPPER, "Stepper", "ui.Stepper", 1);
}

/* Protected part of lun_view_bound_value: (binding) -> its value. */
static int lun_view_bound_get(lua_State *L) {
  lun_binding_get(L, 1);
  return 1;
}

/* What a control's binding may hold, for messages: SwiftUI's types —
 * Toggle(isOn: Binding<Bool>), TextField(_:text:) and
 * TextField(value:format:) (typed text is read as a number then),
 * SecureField(_:text:) (Binding<String> only), Stepper(_:value:in:step:)
 * and Slider(value:in:step:) (a number). */
static const char *lun_view_bound_wants(int kind) {
  switch (kind) {
    case LUN_VIEW_TOGGLE: return "a boolean (true or false)";
    case LUN_VIEW_TEXTFIELD: return "a string, or a number it edits as text";
    case LUN_VIEW_SECUREFIELD: return "a string";
    default: return "a number";
  }
}

/* 1 if the value at idx is a number a Slider or a Stepper cannot step
 * (NaN, an infinity): SwiftUI's are Strideable values in a range. */
static int lun_view_bound_unsteppable(lua_State *L, int kind, int idx) {
  lua_Number n;
  if ((kind != LUN_VIEW_SLIDER && kind != LUN_VIEW_STEPPER) || lua_type(L, idx) != LUA_TNUMBER) return 0;
  n = lua_tonumber(L, idx);
  return n != n || n == HUGE_VAL || n == -HUGE_VAL;
}

/* 1 if a control of kind can edit a value of Lua type t (nil: not set yet). */
static int lun_view_bound_takes(int kind, int t) {
  if (t == LUA_TNIL) return 1;
  switch (kind) {
    case LUN_VIEW_TOGGLE: return t == LUA_TBOOLEAN;
    case LUN_VIEW_TEXTFIELD: return t == LUA_TSTRING || t == LUA_TNUMBER;
    case LUN_VIEW_SECUREFIELD: return t == LUA_TSTRING;
    default: return t == LUA_TNUMBER;
  }
}

/* Pushes the value of the binding at bindarg, or nothing (returns 0) when
 * it is a ui.Binding(get, set) (its get is the script's: it runs once a
 * render, in the walk) or its get raises (the walk reports it). */
int lun_view_bound_peek(lua_State *L, int bindarg) {
  if (lun_binding_is_functions(L, bindarg)) return 0;
  lua_pushcfunction(L, lun_view_bound_get);
  lua_pushvalue(L, bindarg);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) { lua_pop(L, 1); return 0; }
  return 1;
}

/* Raises, naming the control, its label (at labelarg, or none) and the
 * value's type (never the value: it may be secret), if the binding at
 * bindarg holds what the control of kind cannot edit. [-0, +0] */
void lun_view_bound_value(lua_State *L, int kind, int labelarg, int bindarg) {
  int t;
  const char *name = lun_view_kind_name(kind);
  if (!lun_view_bound_peek(L, bindarg)) return;
  t = lua_type(L, -1);
  if (lun_view_bound_unsteppable(L, kind, -1))
    lun_error_here(L, "ui.%s: its binding holds %s; a %s's value is a finite number", name,
                   lua_tonumber(L, -1) != lua_tonumber(L, -1) ? "NaN (0/0)" : "an infinity", name);
  if (!lun_view_bound_takes(kind, t)) {
    if (labelarg)
      lun_error_here(L, "ui.%s \"%s\": its binding holds a %s; a %s's is %s", name, lua_tostring(L, labelarg),
                     lua_typename(L, t), name, lun_view_bound_wants(kind));
    lun_error_here(L, "ui.%s: its binding holds a %s; a %s's is %s", name, lua_typename(L, t), name, lun_view_bound_wants(kind));
  }
  lua_pop(L, 1);
}

/* The walk's check of what a ui.Binding(get, set) gave the control of kind
 * (view value at vidx, the value at validx): raises as lun_view_bound_value
 * does, where the body is (place), if the control cannot edit it — a
 * Toggle shown "on" for the number 0, a Stepper's step replacing a string,
 * were silent. [-0, +0] */
void lun_view_bound_check(lua_State *L, int kind, int vidx, int validx, const char *place) {
  int t = lua_type(L, validx);
  const char *name = lun_view_kind_name(kind);
  if (lun_view_bound_unsteppable(L, kind, validx))
    luaL_error(L, "%sui.%s: its binding's get gave %s; a %s's value is a finite number", place, name,
               lua_tonumber(L, validx) != lua_tonumber(L, validx) ? "NaN (0/0)" : "an infinity", name);
  if (kind == LUN_VIEW_PICKER || kind == LUN_VIEW_DATEPICKER || lun_view_bound_takes(kind, t)) return;
  if (lun_rawfield(L, vidx, "text") == LUA_TSTRING) lua_pushfstring(L, " \"%s\"", lua_tostring(L, -1));
  else lua_pushliteral(L, "");                    /* a label that is a view */
  luaL_error(L, "%sui.%s%s: its binding's get gave a %s; a %s's is %s", place, name, lua_tostring(L, -1),
             lua_typename(L, t), name, lun_view_bound_wants(kind));
}

/* Shared body of Toggle, TextField and SecureField: (label, binding
 * [, prompt]) -> view; a text field's prompt (at 3, checked by
 * lun_view_prompted) is shown as prompt=. */
static int lun_view_bound(lua_State *L, int kind) {
  int vidx, viewLabel;
  lua_settop(L, 3);                               /* a text field's prompt at 3 (lun_view_prompted) */
  if (!lun_binding_test(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "Binding expected (self[\"$name\"] or ui.Bindable(obj).name), got %s",
                                         luaL_typename(L, 2)));
  /* Toggle(isOn:label:): a view as its label, its child (a click on it toggles, as a label does) */
  viewLabel = kind == LUN_VIEW_TOGGLE && (lun_view_test(L, 1) || lun_viewtype_test(L, 1));
  if (!viewLabel && lua_type(L, 1) != LUA_TNUMBER && lua_type(L, 1) != LUA_TSTRING)
    luaL_typeerror(L, 1, kind == LUN_VIEW_TOGGLE ? "string or view" : "string");
  lun_view_bound_value(L, kind, viewLabel ? 0 : 1, 2);
  vidx = lun_view_new(L, kind);
  if (viewLabel) {
    lua_pushvalue(L, 1);
    lua_rawseti(L, vidx, 1);
  } else lun_view_text_arg(L, 1, vidx, "text");
  lua_pushvalue(L, 2);
  lua_setfield(L, vidx, "binding");
  if (!lua_isnil(L, 3)) {
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 3);
    lua_tostring(L, -1);
    lua_setfield(L, -2, "prompt");
    lua_setfield(L, vidx, "attrs");
  }
  return 1;
}

/* A text field of kind: (placeholder, binding [, prompt]), the prompt of
 * TextField(_:text:prompt:) — "A Text representing the prompt of the text
 * field which provides users with guidance on what to type into the text
 * field" (https://developer.apple.com/documentation/swiftui/textfield) —
 * shown as prompt=. */
static int lun_view_prompted(lua_State *L, int kind, const char *call) {
  lun_no_extra(L, call, 3, 0);
  if (!lua_isnoneornil(L, 3) && lua_type(L, 3) != LUA_TSTRING && lua_type(L, 3) != LUA_TNUMBER)
    lun_error_here(L, "%s: its prompt (argument 3) is text, got a %s", call, luaL_typename(L, 3));
  return lun_view_bound(L, kind);
}

/* ui.Toggle(label, binding) -> view. */
int lun_ui_toggle(lua_State *L) {
  lun_view_arity(L, "Toggle", 2);
  lua_settop(L, 2);
  return lun_view_bound(L, LUN_VIEW_TOGGLE);
}
/* ui.TextField(placeholder, binding [, prompt]) -> view. */
int lun_ui_textfield(lua_State *L) { return lun_view_prompted(L, LUN_VIEW_TEXTFIELD, "ui.TextField"); }
/* ui.SecureField(placeholder, binding [, prompt]) -> view: a TextField whose text is
 * never shown — its node's value is one bullet per character
 * (https://developer.apple.com/documentation/swiftui/securefield). */
int lun_ui_securefield(lua_State *L) { return lun_view_prompted(L, LUN_VIEW_SECUREFIELD, "ui.SecureField"); }
