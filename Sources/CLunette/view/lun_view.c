/*
 * lun_view.c — view values, view types (ui.View) and the built-in views.
 *
 * A view value is a description built by a body: a table with metatable
 * LUN_MT_VIEW and the fields
 *   kind (LUN_VIEW_*), text, action, binding, data, row, lazy,
 *   type + inputs (components), id (explicit identity), mods (modifiers),
 *   attrs (container options), and its children in 1..n.
 * A view type is a userdata (LUN_MT_VIEWTYPE) whose user values are
 *   1: info { name, id, body, sections, state, env, envmode, stateClass,
 *      methods (2 again: a read through self finds them from the record's info) }
 *   2: its methods table (function BookView:helper() ... end).
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#define LUN_MT_VIEWTYPE "lunette.ViewType"

#include <float.h>
#include <math.h>
#include <time.h>

/* 1 if the value at idx is a view value (a table with LUN_MT_VIEW). */
int lun_view_test(lua_State *L, int idx) {
  return lun_is_view(L, idx);
}

/* 1 if the value at idx is a view type (ui.View). */
LUN_HOT int lun_viewtype_test(lua_State *L, int idx) {
  return lun_has_meta(L, idx, LUA_TUSERDATA, lun_state(L)->viewTypeMeta);
}

/* Raises unless the value at idx is a view type (as luaL_checkudata does). */
static void lun_viewtype_check(lua_State *L, int idx) {
  if (!lun_viewtype_test(L, idx)) luaL_typeerror(L, idx, LUN_MT_VIEWTYPE);
}

/* The name of a built-in view kind, as shown in trees and errors. */
const char *lun_view_kind_name(int kind) {
#define LUN_VIEW_NAME_(id, name, make) name,
  static const char *const names[] = {"?", LUN_VIEW_KINDS(LUN_VIEW_NAME_)};
#undef LUN_VIEW_NAME_
  return kind > 0 && kind < LUN_VIEW_KIND_COUNT ? names[kind] : "?";
}

/* Raises, naming the caller's line, if the constructor `name` got a value
 * past its `most` arguments: an option, a callback or a value it would not
 * use (D10); Lua's usual extras pass (lun_no_extra_view). [-0, +0] */
#define lun_view_arity(L, name, most) lun_no_extra_view((L), (name), (most))

static void lun_view_bound_value(lua_State *L, int kind, int labelarg, int bindarg);
static int lun_view_bound_peek(lua_State *L, int bindarg);

/* Pushes a new view value of the given kind. [-0, +1] */
LUN_HOT int lun_view_new(lua_State *L, int kind) {
  const lun_State *S = lun_state(L);
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, kind);
  lun_setkey(L, S, -2, LUN_K_KIND);
  lua_rawgeti(L, LUA_REGISTRYINDEX, S->viewMetaRef);
  lua_setmetatable(L, -2);
  return lua_gettop(L);
}

/* Checks that argument arg is a string or number and stores it as field. */
static void lun_view_text_arg(lua_State *L, int arg, int vidx, const char *field) {
  if (lua_type(L, arg) != LUA_TNUMBER && lua_type(L, arg) != LUA_TSTRING)
    luaL_typeerror(L, arg, "string");
  lua_pushvalue(L, arg);
  lua_tostring(L, -1);
  lua_setfield(L, vidx, field);
}

/* Sets attrs[name] = the value on top of the view at vidx. [-1, +0] */
static void lun_view_attr(lua_State *L, int vidx, const char *name) {
  if (lun_rawfield(L, vidx, "attrs") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, vidx, "attrs");
  }
  lua_insert(L, -2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

/* How many children one container may list. */
#define LUN_MAX_CHILDREN 1000000

/* Records that child n of view vidx stands at `slot` of its constructor
 * (holes and nested arrays counted), so its identity does not move when a
 * sibling before it comes and goes (F02). [-0, +0] */
static void lun_view_slot(lua_State *L, int vidx, lua_Integer n, const char *slot) {
  if (lun_rawfield(L, vidx, "slots") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, vidx, "slots");
  }
  lua_pushstring(L, slot);
  lua_rawseti(L, -2, n);
  lua_pop(L, 1);
}

/* Counts one entry a flattening visits: a nested array shared along many
 * paths is flattened once per path (23 levels of a = {a, a}: 8 million
 * children), in C, where the budget's hook never fires. */
static void lun_view_visit(lua_State *L, long *visits) {
  if (++*visits > LUN_MAX_VISITED)
    lun_error_here(L, "the children of a view: more than %d entries along their paths (a list shared many times inside them?)",
                   LUN_MAX_VISITED);
  lun_budget_every(L, (unsigned long)*visits);
}

/* Copies the children of the table at src into view vidx, flattening plain
 * arrays (to LUN_MAX_NESTING levels) and skipping nil/false; string keys
 * become attributes. A child whose slot in the constructor (0-based, "2.1"
 * inside a nested array; prefix names the array's own slot) differs from
 * its place among the children keeps its slot (lun_view_slot). *visits
 * counts the entries visited (lun_view_visit). */
static void lun_view_children(lua_State *L, int src, int vidx, int depth, const char *prefix, long *visits) {
  lua_Integer i, max = 0, n = (lua_Integer)lua_rawlen(L, vidx);
  lun_nest(L, depth, "the children of a view");
  lua_pushnil(L);
  while (lua_next(L, src)) {
    lua_pop(L, 1);
    lun_view_visit(L, visits);
    if (lua_isinteger(L, -1) && lua_tointeger(L, -1) > max) {
      max = lua_tointeger(L, -1);
      if (max > LUN_MAX_CHILDREN) luaL_error(L, "child %I is out of range (at most %d children)", max, LUN_MAX_CHILDREN);
    }
    else if (lua_type(L, -1) == LUA_TSTRING) {
      if (lun_rawfield(L, vidx, "attrs") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, vidx, "attrs");
      }
      lua_pushvalue(L, -2);
      lua_gettable(L, src);
      lua_setfield(L, -2, lua_tostring(L, -3));
      lua_pop(L, 1);
    }
  }
  for (i = 1; i <= max; i++) {
    int t = lua_rawgeti(L, src, i);
    lun_view_visit(L, visits);
    if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, -1))) { lua_pop(L, 1); continue; }
    if (t == LUA_TTABLE && !lua_getmetatable(L, -1)) {
      if (prefix) lua_pushfstring(L, "%s.%I", prefix, i - 1); else lua_pushfstring(L, "%I", i - 1);
      lun_view_children(L, lua_gettop(L) - 1, vidx, depth + 1, lua_tostring(L, -1), visits);
      n = (lua_Integer)lua_rawlen(L, vidx);
      lua_pop(L, 2);
      continue;
    }
    if (t == LUA_TTABLE) lua_pop(L, 1);
    if (!lun_view_test(L, -1) && !lun_viewtype_test(L, -1))
      luaL_error(L, "child %d is a %s, expected a view", (int)i, luaL_typename(L, -1));
    lua_rawseti(L, vidx, ++n);
    if (prefix) {
      lua_pushfstring(L, "%s.%I", prefix, i - 1);
      lun_view_slot(L, vidx, n, lua_tostring(L, -1));
      lua_pop(L, 1);
    } else if (i != n) {
      lua_pushfstring(L, "%I", i - 1);
      lun_view_slot(L, vidx, n, lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
}

/* Copies the views of the list at src into the view at vidx as its
 * children (lun_view_children). [-0, +0] */
void lun_view_add_children(lua_State *L, int src, int vidx) {
  long visits = 0;
  lun_view_children(L, lua_absindex(L, src), lua_absindex(L, vidx), 0, NULL, &visits);
}

/* Checks the options (the string keys) of the table at idx for container
 * `name`, which knows `known` (spacing: a number, 0 or more; alignment: one
 * of `alignments`): anything else is an error, never ignored. [-0, +0] */
static void lun_view_options(lua_State *L, int idx, const char *name, const char *const known[],
                             const char *const alignments[]) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) == LUA_TSTRING) {
      const char *key = lua_tostring(L, -2);
      int i, found = 0;
      for (i = 0; known[i] && !found; i++) found = strcmp(key, known[i]) == 0;
      if (!found && !known[0]) lun_error_here(L, "ui.%s takes no options, got '%s'", name, key);
      if (!found) {                               /* this key alone: not the children's indices beside it */
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, -3);
        lua_pushboolean(L, 1);
        lua_rawset(L, -3);
        lua_pushfstring(L, "ui.%s", name);
        lun_check_keys(L, lua_gettop(L) - 1, known, lua_tostring(L, -1), "option");   /* raises, naming it and the known */
      }
      if (strcmp(key, "spacing") == 0 && !(lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) > -1e6 &&
                                           lua_tonumber(L, -1) < 1e6))   /* negative overlaps, as SwiftUI's does */
        lun_error_here(L, "ui.%s: spacing must be a number from -1e6 to 1e6, got %s", name,
                       (lun_describe(L, -1, 1), lua_tostring(L, -1)));
      if (strcmp(key, "alignment") == 0) {
        const char *a = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        for (i = 0, found = 0; alignments[i] && !found; i++) found = strcmp(a, alignments[i]) == 0;
        if (!found) {
          luaL_Buffer b;
          luaL_buffinit(L, &b);
          for (i = 0; alignments[i]; i++) { if (i) luaL_addstring(&b, ", "); luaL_addstring(&b, alignments[i]); }
          luaL_pushresult(&b);
          lun_error_here(L, "ui.%s: alignment must be one of %s", name, lua_tostring(L, -1));
        }
      }
    }
    lua_pop(L, 1);
  }
}

/* Puts a list of the one view at idx in its place (VStack { Text("a") }:
 * a ViewBuilder takes one view as well as several); other values stay. [-0, +0] */
static void lun_view_one_child(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (!lun_view_test(L, idx) && !lun_viewtype_test(L, idx)) return;
  lua_createtable(L, 1, 0);
  lua_pushvalue(L, idx);
  lua_rawseti(L, -2, 1);
  lua_replace(L, idx);
}

/* Shared body of the containers: (children) or (options, children) -> view,
 * as SwiftUI's HStack(spacing: 8) { … }; options may also stand among the
 * children (ui.HStack{ spacing = 8, … }). They become the node's attributes. */
static int lun_view_container(lua_State *L, int kind, const char *name, const char *const known[],
                              const char *const alignments[]) {
  int vidx;
  lun_view_arity(L, name, 2);
  if (!known[0] && !lua_isnoneornil(L, 2))          /* Form(…, …): it has no options to take first */
    lun_error_here(L, "ui.%s takes no options, only its views (got a second argument)", name);
  lua_settop(L, 2);
  lun_view_one_child(L, lua_isnil(L, 2) ? 1 : 2);
  if (!lua_isnil(L, 2)) {                         /* (options, children) */
    if (lua_type(L, 1) != LUA_TTABLE || lua_getmetatable(L, 1))
      luaL_argerror(L, 1, "an options table expected before the children ({ spacing = 8 })");
    luaL_checktype(L, 2, LUA_TTABLE);
    lun_view_options(L, 1, name, known, alignments);
    lua_pushnil(L);
    while (lua_next(L, 1)) {                      /* ui.HStack({ spacing = 8 }, { … }): the options join */
      if (lua_type(L, -2) != LUA_TSTRING) luaL_argerror(L, 1, "the options table holds only options; children come second");
      lua_pop(L, 1);
    }
  }
  if (lua_isnil(L, 1)) { lua_newtable(L); lua_replace(L, 1); } else luaL_checktype(L, 1, LUA_TTABLE);
  lun_view_options(L, lua_isnil(L, 2) ? 1 : 2, name, known, alignments);
  vidx = lun_view_new(L, kind);
  if (!lua_isnil(L, 2)) lun_view_add_children(L, 1, vidx);   /* the options, as attributes */
  lun_view_add_children(L, lua_isnil(L, 2) ? 1 : 2, vidx);
  return 1;
}

static const char *const lun_stack_options[] = {"spacing", "alignment", NULL};
static const char *const lun_zstack_options[] = {"alignment", NULL};
static const char *const lun_no_options[] = {NULL};
static const char *const lun_vertical[] = {"leading", "center", "trailing", NULL};
static const char *const lun_horizontal[] = {"top", "center", "bottom", "firstTextBaseline", "lastTextBaseline", NULL};
const char *const lun_view_alignments[] = {"topLeading", "top", "topTrailing", "leading", "center", "trailing",
                                       "bottomLeading", "bottom", "bottomTrailing", NULL};

/* ui.VStack{...} / ui.VStack({ spacing, alignment }, {...}) -> view. */
static int lun_ui_vstack(lua_State *L) { return lun_view_container(L, LUN_VIEW_VSTACK, "VStack", lun_stack_options, lun_vertical); }
/* ui.HStack{...} / ui.HStack({ spacing, alignment }, {...}) -> view. */
static int lun_ui_hstack(lua_State *L) { return lun_view_container(L, LUN_VIEW_HSTACK, "HStack", lun_stack_options, lun_horizontal); }
/* ui.Group{...} -> view. */
static int lun_ui_group(lua_State *L) { return lun_view_container(L, LUN_VIEW_GROUP, "Group", lun_no_options, lun_no_options); }

/* ui.ZStack{...} / ui.ZStack({ alignment }, {...}) -> view: children drawn over each other. */
static int lun_ui_zstack(lua_State *L) { return lun_view_container(L, LUN_VIEW_ZSTACK, "ZStack", lun_zstack_options, lun_view_alignments); }
/* ui.Form{...} -> view. */
static int lun_ui_form(lua_State *L) { return lun_view_container(L, LUN_VIEW_FORM, "Form", lun_no_options, lun_no_options); }

/* ui.Section(header, {...} [, footer]) -> view: Section(_:content:footer:),
 * the footer as text (shown as footer=). */
static int lun_ui_section(lua_State *L) {
  int vidx;
  lun_no_extra(L, "ui.Section", 3, 0);
  lua_settop(L, 3);
  if (lua_type(L, 1) == LUA_TTABLE && lua_isnil(L, 2)) {   /* Section { … } (and its footer): no header */
    lua_copy(L, 1, 2);
    lua_pushnil(L);
    lua_replace(L, 1);
  }
  lun_view_one_child(L, 2);
  if (lua_isnil(L, 2)) { lua_newtable(L); lua_replace(L, 2); }
  else if (lua_type(L, 2) != LUA_TTABLE || lua_getmetatable(L, 2))
    return lun_error_here(L, "ui.Section: its content (argument 2) is a view or a list of views, got %s", luaL_typename(L, 2));
  lun_view_options(L, 2, "Section", lun_no_options, lun_no_options);
  vidx = lun_view_new(L, LUN_VIEW_SECTION);
  if (!lua_isnil(L, 1)) lun_view_text_arg(L, 1, vidx, "text");
  lun_view_add_children(L, 2, vidx);
  if (!lua_isnil(L, 3)) {                         /* Section(_:content:footer:)'s footer, as text: footer= */
    if (lua_type(L, 3) != LUA_TSTRING && lua_type(L, 3) != LUA_TNUMBER)
      lun_error_here(L, "ui.Section: its footer (argument 3) is text, got a %s", luaL_typename(L, 3));
    lua_pushvalue(L, 3);
    lua_tostring(L, -1);
    lun_view_attr(L, vidx, "footer");             /* beside the attributes its list gave */
  }
  return 1;
}

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
static int lun_view_control(lua_State *L, int kind, int labelarg, int bindarg, int specarg) {
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

/* ui.ScrollView{ … }, ui.ScrollView("horizontal", { … }) or
 * ui.ScrollView({ axes = "horizontal", showsIndicators = false }, { … }) ->
 * view: SwiftUI's ScrollView(_:showsIndicators:content:), scrolling its
 * content along its axes ("vertical" by default, "horizontal", or both
 * listed) (https://developer.apple.com/documentation/swiftui/scrollview). [-0, +1] */
static int lun_ui_scrollview(lua_State *L) {
  static const char *const options[] = {"axes", "showsIndicators", NULL};
  int vidx, ok = 1;
  if (lua_gettop(L) > 2) lun_error_here(L, "ui.ScrollView takes its axes or options, then its children, got %d arguments", lua_gettop(L));
  lun_view_arity(L, "ScrollView", 2);
  lua_settop(L, 2);
  if (lua_type(L, 1) == LUA_TSTRING) {
    lua_createtable(L, 0, 1);                     /* ScrollView(.horizontal) { … }: the axes first */
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "axes");
    lua_replace(L, 1);
    if (!lua_istable(L, 2)) lun_error_here(L, "ui.ScrollView: its children expected after the axes, got %s", luaL_typename(L, 2));
  }
  lun_view_container(L, LUN_VIEW_SCROLLVIEW, "ScrollView", options, lun_no_options);
  vidx = lua_gettop(L);
  if (lun_rawfield(L, vidx, "attrs") != LUA_TTABLE) { lua_pop(L, 1); return 1; }
  if (lua_getfield(L, -1, "axes") == LUA_TSTRING) {
    ok = strcmp(lua_tostring(L, -1), "vertical") == 0 || strcmp(lua_tostring(L, -1), "horizontal") == 0;
  } else if (lua_istable(L, -1) && (lua_getmetatable(L, -1) ? (lua_pop(L, 1), 0) : 1)) {
    lua_Integer i, n = (lua_Integer)lua_rawlen(L, -1);
    ok = n >= 1 && n <= 2;
    lua_createtable(L, 2, 0);                     /* a copy of what was checked: the script's table may change */
    for (i = 1; i <= n && ok; i++) {
      const char *a = lua_rawgeti(L, -2, i) == LUA_TSTRING ? lua_tostring(L, -1) : "";
      ok = strcmp(a, "vertical") == 0 || strcmp(a, "horizontal") == 0;
      lua_rawseti(L, -2, i);
    }
    if (ok) {
      lua_pushvalue(L, -1);
      lua_setfield(L, -4, "axes");
    }
    lua_pop(L, 1);
  } else ok = lua_isnil(L, -1);
  if (!ok) {
    lun_describe(L, -1, 1);
    lun_error_here(L, "ui.ScrollView: axes must be \"vertical\", \"horizontal\" or both listed ({ \"horizontal\", \"vertical\" }), got %s",
                   lua_tostring(L, -1));
  }
  if (lua_getfield(L, -2, "showsIndicators") != LUA_TNIL && !lua_isboolean(L, -1)) {
    lun_describe(L, -1, 1);
    lun_error_here(L, "ui.ScrollView: showsIndicators must be a boolean, got %s", lua_tostring(L, -1));
  }
  lua_settop(L, vidx);
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
static int lun_ui_datepicker(lua_State *L) {
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

/* How many entries of a Picker's options (and labels) its node lists. */
#define LUN_MAX_SHOWN_OPTIONS 1000

/* Pushes the list at idx as a Picker's node shows it: every entry (up to
 * LUN_MAX_SHOWN_OPTIONS), strings quoted with " and \ escaped, so that the
 * preview reads them back as they are. [-0, +1] */
void lun_view_list_text(lua_State *L, int idx) {
  luaL_Buffer b;
  lua_Integer i, n;
  idx = lua_absindex(L, idx);
  n = lun_rawlen_bounded(L, idx, "a Picker's options");
  luaL_buffinit(L, &b);
  luaL_addchar(&b, '{');
  for (i = 1; i <= n && i <= LUN_MAX_SHOWN_OPTIONS; i++) {
    if (i > 1) luaL_addstring(&b, ", ");
    if (lua_rawgeti(L, idx, i) == LUA_TSTRING) {
      size_t len, k;
      const char *s = lua_tolstring(L, -1, &len);  /* kept alive by the list */
      lua_pop(L, 1);
      luaL_addchar(&b, '"');
      for (k = 0; k < len; k++) {
        if (s[k] == '"' || s[k] == '\\') luaL_addchar(&b, '\\');
        luaL_addchar(&b, s[k]);
      }
      luaL_addchar(&b, '"');
    } else {
      lun_describe(L, -1, 1);
      lua_remove(L, -2);
      luaL_addvalue(&b);
    }
  }
  if (n > LUN_MAX_SHOWN_OPTIONS) luaL_addstring(&b, ", ...");
  luaL_addchar(&b, '}');
  luaL_pushresult(&b);
}

/* Pushes the tag of the view value at idx (its last :tag(v)), or nil. [-0, +1] */
void lun_view_tag_of(lua_State *L, int idx) {
  lua_Integer i;
  if (lun_rawfield(L, idx, "mods") == LUA_TTABLE) {
    for (i = lun_rawlen_bounded(L, -1, "a view's modifier list"); i >= 1; i--) {
      if (lua_rawgeti(L, -1, i) == LUA_TTABLE) {
        int tag = lua_rawgeti(L, -1, 1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "tag") == 0;
        lua_pop(L, 1);
        if (tag) {                                /* mods, entry -> its value */
          lua_rawgeti(L, -1, 2);
          lua_replace(L, -3);
          lua_pop(L, 1);
          return;
        }
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  lua_pushnil(L);
}

/* Protected part of lun_picker_element_id: (element) -> element.id. */
static int lun_picker_id_k(lua_State *L) {
  lua_getfield(L, 1, "id");
  return 1;
}

/* Pushes the tag a ForEach gives the row of the element at eidx: its id
 * (element.id, a table's or a model's), else the element itself — a plain
 * value tags its row with itself, as ForEach(values, id: \.self) does. A
 * model without an `id` (reading it raises) is its own tag. [-0, +1] */
static void lun_picker_element_id(lua_State *L, int eidx) {
  eidx = lua_absindex(L, eidx);
  if (lua_type(L, eidx) == LUA_TTABLE || lua_type(L, eidx) == LUA_TUSERDATA) {
    lua_pushcfunction(L, lun_picker_id_k);
    lua_pushvalue(L, eidx);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK && !lua_isnil(L, -1)) return;
    lua_pop(L, 1);
  }
  lua_pushvalue(L, eidx);
}

/* Appends to the values (at vals) and labels (at labs) of a Picker the
 * option view at oidx: its tag, else `tag` (at tidx, 0: none, an error
 * naming the option), and its text or name. *m counts the options. The
 * label of the picker is at 1. [-0, +0] */
static void lun_picker_add(lua_State *L, int vals, int labs, int oidx, int tidx, lua_Integer *m, lua_Integer i) {
  int top = lua_gettop(L);
  if (++*m > LUN_MAX_CHILDREN) luaL_argerror(L, 3, "too many options");
  lun_view_tag_of(L, oidx);                       /* top + 1: its tag */
  if (lua_isnil(L, -1) && tidx) { lua_pop(L, 1); lua_pushvalue(L, tidx); }   /* ForEach's implicit tag */
  if (lua_isnil(L, -1))
    lun_error_here(L, "ui.Picker \"%s\": option %d (%s) has no :tag(value); tag each option view with the value it picks",
                   luaL_tolstring(L, 1, NULL), (int)i, luaL_tolstring(L, oidx, NULL));
  lua_rawseti(L, vals, *m);
  if (lun_rawfield(L, oidx, "text") != LUA_TSTRING) { lua_pop(L, 1); lun_view_name(L, oidx); }
  lua_rawseti(L, labs, *m);
  lua_settop(L, top);
}

/* A ui.ForEach over data among a Picker's options (option i, at fidx): a
 * row per element, each tagged with its element's id unless it has a :tag
 * of its own, as SwiftUI's ForEach tags the views of a Picker. The row
 * function runs here, in the body that made the Picker (so what it reads
 * is that body's). [-0, +0] */
static void lun_picker_foreach(lua_State *L, int vals, int labs, int fidx, lua_Integer *m, lua_Integer i) {
  lua_Integer j, n;
  int top = lua_gettop(L), data, row;
  fidx = lua_absindex(L, fidx);
  lun_rawfield(L, fidx, "data");
  data = lua_gettop(L);
  lun_rawfield(L, fidx, "row");
  row = lua_gettop(L);
  n = luaL_len(L, data);                          /* a tracked list too: what the body reads */
  if (n > LUN_MAX_CHILDREN) luaL_argerror(L, 3, "too many options");
  for (j = 1; j <= n; j++) {
    lua_geti(L, data, j);                         /* top + 3: the element */
    lua_pushvalue(L, row);
    lua_pushvalue(L, top + 3);
    lua_pushinteger(L, j);
    lua_call(L, 2, 1);                            /* top + 4: its row */
    if (!lun_view_test(L, top + 4))
      lun_error_here(L, "ui.Picker \"%s\": option %d (ForEach), row %d is no view (got %s)",
                     luaL_tolstring(L, 1, NULL), (int)i, (int)j, luaL_typename(L, top + 4));
    lun_picker_element_id(L, top + 3);            /* top + 5 */
    lun_picker_add(L, vals, labs, top + 4, top + 5, m, i);
    lua_settop(L, row);
  }
  lua_settop(L, top);
}

/* 1 if the value at idx is a ui.ForEach over data. */
static int lun_picker_is_foreach(lua_State *L, int idx) {
  int is;
  if (!lun_view_test(L, idx)) return 0;
  lun_rawfield(L, idx, "kind");
  is = lua_tointeger(L, -1) == LUN_VIEW_FOREACH;
  lua_pop(L, 1);
  if (is) {
    is = lun_rawfield(L, idx, "row") == LUA_TFUNCTION;
    lua_pop(L, 1);
  }
  return is;
}

/* ui.Picker(label, binding, { option, ... }) -> view. An option is a value,
 * or a view tagged with the value it picks (ui.Text("Vanilla"):tag("vanilla")),
 * as SwiftUI's Picker content is
 * (https://developer.apple.com/documentation/swiftui/view/tag(_:includeoptional:)),
 * or a ui.ForEach over data, whose rows are tagged with their elements' ids
 * (https://developer.apple.com/documentation/swiftui/picker, "Iterating
 * over a picker's options"): then the node shows `options` (the values)
 * and `labels` (what each shows), and node:select takes the value. */
/* The index of the option among a Picker's options (at oidx: a table, or a
 * list held in state) that the value at vidx selects, or 0: by contents
 * (D03: a table tag as Swift's Hashable one), an option ui.none standing
 * for nil (SwiftUI's `.tag(nil as T?)`). May raise past the comparison's
 * bound (lun_values_equal). [-0, +0] */
lua_Integer lun_picker_find(lua_State *L, int oidx, int vidx) {
  lua_Integer i, n, found = 0;
  int top = lua_gettop(L), none, isnil;
  oidx = lua_absindex(L, oidx);
  vidx = lua_absindex(L, vidx);
  isnil = lua_isnil(L, vidx) || lun_marker_kind(L, vidx) == LUN_MARK_NONE;
  lua_pushvalue(L, oidx);                         /* top+1: the options, a list in state as its raw table */
  lun_proxy_unwrap(L, top + 1);
  lua_pushvalue(L, vidx);                         /* top+2: the value, likewise */
  lun_proxy_unwrap(L, top + 2);
  if (!lua_istable(L, top + 1)) return lua_settop(L, top), 0;
  n = lun_rawlen_bounded(L, top + 1, "a Picker's options");
  for (i = 1; i <= n && !found; i++) {
    lua_rawgeti(L, top + 1, i);                   /* top+3: the option */
    lua_pushvalue(L, top + 3);                    /* top+4: as its raw table */
    lun_proxy_unwrap(L, top + 4);
    none = lun_marker_kind(L, top + 3) == LUN_MARK_NONE;
    if (none ? isnil : lun_values_equal(L, top + 4, top + 2)) found = i;
    lua_settop(L, top + 2);
  }
  lua_settop(L, top);
  return found;
}

/* Pushes Lua's name of the type of the value at idx, as a Picker's tags
 * are told apart: models and Swift objects by their class ("Book"), read
 * raw (no metamethod runs). [-0, +1] */
static void lun_picker_type(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (lun_proxy_test(L, idx)) { lua_pushliteral(L, "table"); return; }   /* a table state holds */
  if (lua_type(L, idx) == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
    lua_pushliteral(L, "__name");
    if (lua_rawget(L, -2) == LUA_TSTRING) { lua_remove(L, -2); return; }
    lua_pop(L, 2);
  }
  lua_pushstring(L, luaL_typename(L, idx));
}

/* 1 if the values at a and b are of one Picker tag type (lun_picker_type). [-0, +0] */
static int lun_picker_same_type(lua_State *L, int a, int b) {
  int same, t = lua_type(L, a);
  if (t == lua_type(L, b) && t != LUA_TUSERDATA) return 1;   /* most tags: strings, numbers, tables */
  b = lua_absindex(L, b);
  lun_picker_type(L, a);
  lun_picker_type(L, b);
  same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

/* Checks a Picker's tags, the list at 3 (label at 1, binding at 2): a list
 * without holes or other keys, of one type, the selection's when it holds
 * one ("the type of the tag must match the type of the selection",
 * https://developer.apple.com/documentation/swiftui/picker). [-0, +0] */
static void lun_picker_check(lua_State *L) {
  lua_Integer n = (lua_Integer)lua_rawlen(L, 3), entries = 0, i;
  const char *label = luaL_tolstring(L, 1, NULL);
  int first;
  lua_pushnil(L);
  while (lua_next(L, 3)) {
    lua_pop(L, 1);
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > n)
      lun_error_here(L, "ui.Picker \"%s\": its options are a list ({ \"a\", \"b\" }, or views with :tag), got a key %s",
                     label, (lun_describe(L, -1, 0), lua_tostring(L, -1)));
    entries++;
  }
  for (i = 1; entries < n && i <= n; i++) {
    if (lua_rawgeti(L, 3, i) == LUA_TNIL) lun_error_here(L, "ui.Picker \"%s\": option %d is nil (a hole in the options)", label, (int)i);
    lua_pop(L, 1);
  }
  for (i = 1, first = 0; i <= n && !first; i++) {   /* the first tag that is not ui.none (nil: any selection's) */
    lua_rawgeti(L, 3, i);
    if (lun_is_none(L, -1)) lua_pop(L, 1); else first = lua_gettop(L);
  }
  if (!first) { lua_pop(L, 1); return; }
  for (; i <= n; i++) {
    lua_rawgeti(L, 3, i);
    if (!lun_is_none(L, -1) && !lun_picker_same_type(L, -1, first)) {
      lun_picker_type(L, -1);
      lun_picker_type(L, first);
      lun_error_here(L, "ui.Picker \"%s\": option %d is a %s, the first a %s: a Picker's tags are of one type, its selection's",
                     label, (int)i, lua_tostring(L, -2), lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
  if (lun_view_bound_peek(L, 2)) {
    if (!lua_isnil(L, -1) && !lun_picker_same_type(L, -1, first)) {
      lun_picker_type(L, -1);
      lun_picker_type(L, first);
      lun_error_here(L, "ui.Picker \"%s\": its binding holds a %s, its options are of type %s: a Picker's tags are of its selection's type",
                     label, lua_tostring(L, -2), lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 2);                                  /* the first option, the label's text */
}

static int lun_ui_picker(lua_State *L) {
  lua_Integer i, n, m = 0;
  int views = 0;
  lun_view_arity(L, "Picker", 3);
  if (lun_proxy_test(L, 3)) {                      /* options a model or state holds: a copy of their list */
    lun_proxy_unwrap(L, 3);
    lun_copy_shallow(L, 3);
    lua_replace(L, 3);
  }
  luaL_checktype(L, 3, LUA_TTABLE);
  lua_settop(L, 3);
  n = (lua_Integer)lua_rawlen(L, 3);
  if (n > LUN_MAX_CHILDREN) luaL_argerror(L, 3, "too many options");
  for (i = 1; i <= n && !views; i++) {
    lua_rawgeti(L, 3, i);
    views = lun_view_test(L, -1);
    lua_pop(L, 1);
  }
  if (!views) {
    lun_picker_check(L);
    return lun_view_control(L, LUN_VIEW_PICKER, 1, 2, 3);
  }
  lua_createtable(L, (int)n, 0);                  /* 4: the values */
  lua_createtable(L, (int)n, 0);                  /* 5: what each shows */
  for (i = 1; i <= n; i++) {
    if (lua_rawgeti(L, 3, i) == LUA_TNIL)
      lun_error_here(L, "ui.Picker \"%s\": option %d is nil (a hole in the options)", luaL_tolstring(L, 1, NULL), (int)i);
    if (lun_picker_is_foreach(L, 6)) lun_picker_foreach(L, 4, 5, 6, &m, i);
    else if (lun_view_test(L, 6)) lun_picker_add(L, 4, 5, 6, 0, &m, i);
    else {                                        /* a plain value: itself, shown as text */
      if (++m > LUN_MAX_CHILDREN) luaL_argerror(L, 3, "too many options");
      lua_pushvalue(L, 6);
      lua_rawseti(L, 4, m);
      luaL_tolstring(L, 6, NULL);
      lua_rawseti(L, 5, m);
    }
    lua_pop(L, 1);
  }
  lua_pushvalue(L, 4);
  lua_replace(L, 3);
  lua_remove(L, 4);                               /* 4: the labels */
  lun_picker_check(L);
  lun_view_control(L, LUN_VIEW_PICKER, 1, 2, 3);
  lua_getfield(L, 5, "control");                  /* the labels, beside the options, for the walk */
  lua_pushvalue(L, 4);
  lua_setfield(L, -2, "labels");
  lua_pop(L, 1);
  return 1;
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


/* ui.Slider(binding, { low, high } [, { step = n }]) -> view: SwiftUI's
 * Slider(value:in:step:), its value one of low, low + n, ... within the
 * range ("with a range of 0 to 100, and a step of 5, the slider's
 * increments would be 0, 5, 10, and so on",
 * https://developer.apple.com/documentation/swiftui/slider). */
static int lun_ui_slider(lua_State *L) {
  if (lua_type(L, 1) == LUA_TSTRING && lun_binding_test(L, 2))   /* Slider(value:in:) has no title */
    lun_error_here(L, "ui.Slider takes (binding, { low, high } [, { step = n }]), as Slider(value:in:step:): "
                      "its title goes in a ui.Text beside it");
  lun_view_arity(L, "Slider", 3);
  lun_view_range_arg(L, 2, "Slider");
  lua_settop(L, 3);
  lun_view_control(L, LUN_VIEW_SLIDER, 0, 1, 2);
  lun_view_bound_value(L, LUN_VIEW_SLIDER, 0, 1);
  lun_view_step_option(L, 3, "ui.Slider");
  return 1;
}

/* ui.Stepper(label, binding, { low, high } [, { step = n }]) -> view:
 * SwiftUI's Stepper(_:value:in:step:), stepping by n (1 by default). */
static int lun_ui_stepper(lua_State *L) {
  lun_view_arity(L, "Stepper", 4);
  lun_view_range_arg(L, 3, "Stepper");
  lua_settop(L, 4);
  lun_view_control(L, LUN_VIEW_STEPPER, 1, 2, 3);
  lun_view_bound_value(L, LUN_VIEW_STEPPER, 1, 2);
  lun_view_step_option(L, 4, "ui.Stepper");
  return 1;
}

/* ui.Text(s) -> view. */
LUN_HOT static int lun_ui_text(lua_State *L) {
  int vidx;
  lun_view_arity(L, "Text", 1);
  lua_settop(L, 1);
  vidx = lun_view_new(L, LUN_VIEW_TEXT);
  if (lua_type(L, 1) != LUA_TNUMBER && lua_type(L, 1) != LUA_TSTRING) luaL_typeerror(L, 1, "string");
  lua_pushvalue(L, 1);
  lua_tostring(L, -1);
  lun_setkey(L, lun_state(L), vidx, LUN_K_TEXT);
  return 1;
}

/* Checks that argument arg is a symbol's name (a non-empty string), naming
 * the view and what it got. [-0, +0] */
static void lun_view_symbol_arg(lua_State *L, int arg, const char *view, const char *what) {
  if (lua_type(L, arg) != LUA_TSTRING || lua_rawlen(L, arg) == 0) {
    lun_describe(L, arg, 1);
    lun_error_here(L, "ui.%s: %s must be a symbol's name (\"star.fill\"), got %s", view, what, lua_tostring(L, -1));
  }
}

/* ui.Image(name) or ui.Image{ systemName = "star.fill" } -> view: an
 * image by its name, or SwiftUI's Image(systemName:), a named symbol
 * (https://developer.apple.com/documentation/swiftui/image/init(systemname:)):
 * its node shows the name and systemName=true. [-0, +1] */
static int lun_ui_image(lua_State *L) {
  static const char *const options[] = {"systemName", NULL};
  int vidx;
  lun_view_arity(L, "Image", 1);                  /* a row's index passes: ui.ForEach(names, ui.Image) */
  lua_settop(L, 1);
  if (lua_type(L, 1) == LUA_TTABLE && !lua_getmetatable(L, 1)) {
    lun_check_keys(L, 1, options, "ui.Image", "option");
    lua_getfield(L, 1, "systemName");
    lun_view_symbol_arg(L, 2, "Image", "systemName");
    vidx = lun_view_new(L, LUN_VIEW_IMAGE);
    lua_pushvalue(L, 2);
    lua_setfield(L, vidx, "text");
    lua_pushboolean(L, 1);
    lun_view_attr(L, vidx, "systemName");
    return 1;
  }
  if (lua_type(L, 1) == LUA_TSTRING && lua_rawlen(L, 1) == 0)
    lun_error_here(L, "ui.Image: its name is empty (an image's name, or { systemName = \"star\" })");
  vidx = lun_view_new(L, LUN_VIEW_IMAGE);
  lun_view_text_arg(L, 1, vidx, "text");
  return 1;
}

/* ui.Label(title, systemImage) -> view: SwiftUI's Label(_:systemImage:),
 * a title with a symbol (https://developer.apple.com/documentation/swiftui/label):
 * its node shows the title and systemImage="bolt.fill". [-0, +1] */
static int lun_ui_label(lua_State *L) {
  int vidx;
  lun_view_arity(L, "Label", 3);
  lua_settop(L, 3);
  if (!lua_isnil(L, 3) && !lun_usual_extra(L, 3, 1))
    lun_error_here(L, "ui.Label takes a title and a symbol's name: ui.Label(\"Lightning\", \"bolt.fill\")");
  lun_view_symbol_arg(L, 2, "Label", "the systemImage (its second argument)");
  vidx = lun_view_new(L, LUN_VIEW_LABEL);
  lun_view_text_arg(L, 1, vidx, "text");
  lua_pushvalue(L, 2);
  lun_view_attr(L, vidx, "systemImage");
  return 1;
}

/* ui.Divider() -> view: a line between other content
 * (https://developer.apple.com/documentation/swiftui/divider). [-0, +1] */
static int lun_ui_divider(lua_State *L) {
  if (lua_gettop(L) > 0) lun_error_here(L, "ui.Divider takes no arguments, got %s", luaL_typename(L, 1));
  lun_view_new(L, LUN_VIEW_DIVIDER);
  return 1;
}

/* Pushes x, as the integer argument arg was when x is that integer (3, not 3.0). [-0, +1] */
static void lun_push_as_given(lua_State *L, int arg, lua_Number x) {
  if (lua_isinteger(L, arg) && x == (lua_Number)lua_tointeger(L, arg)) lua_pushvalue(L, arg);
  else if (lua_isnoneornil(L, arg) && x == 1) lua_pushinteger(L, 1);
  else lua_pushnumber(L, x);
}

/* ui.ProgressView([label], [value [, total]]) -> view: SwiftUI's
 * ProgressView — indeterminate without a value; with one, `value` of
 * `total` (1 by default), pinned to 0...total as SwiftUI pins it
 * (https://developer.apple.com/documentation/swiftui/progressview). */
static int lun_ui_progress(lua_State *L) {
  int vidx, at = lua_type(L, 1) == LUA_TSTRING ? 2 : 1;
  lua_Number value, total = 1;
  if (lun_view_test(L, 1))                        /* ProgressView(value:total:label:)'s view label */
    lun_error_here(L, "ui.ProgressView: its label (argument 1) is text, got a view (a view label is not offered)");
  lun_no_extra(L, "ui.ProgressView", at + 1, 0);
  if (!lua_isnoneornil(L, at + 1)) {
    total = luaL_checknumber(L, at + 1);          /* "nil represents indeterminate progress, in which case the */
    luaL_argcheck(L, lua_isnil(L, at) || (total > 0 && total <= DBL_MAX), at + 1,   /* progress view ignores total" */
                  "the total must be a positive, finite number");
  }
  lua_settop(L, 3);
  vidx = lun_view_new(L, LUN_VIEW_PROGRESS);
  if (at == 2) lun_view_text_arg(L, 1, vidx, "text");
  if (lua_isnil(L, at)) return 1;                 /* indeterminate */
  value = luaL_checknumber(L, at);
  luaL_argcheck(L, value == value, at, "the value must be a number, not NaN");
  if (value < 0) value = 0;
  if (value > total) value = total;
  lua_createtable(L, 0, 2);
  lun_push_as_given(L, at, value);
  lua_setfield(L, -2, "value");
  lun_push_as_given(L, at + 1, total);
  lua_setfield(L, -2, "total");
  lua_setfield(L, vidx, "attrs");
  return 1;
}

/* ui.Spacer([minLength]) -> view: Spacer(minLength:), "The minimum length
 * this spacer can be shrunk to, along the axis or axes of expansion"
 * (https://developer.apple.com/documentation/swiftui/spacer/minlength),
 * shown as an attribute. */
static int lun_ui_spacer(lua_State *L) {
  int vidx;
  lua_Number length;
  lun_no_extra(L, "ui.Spacer", 1, 0);
  lua_settop(L, 1);
  if (lua_isnil(L, 1)) {
    lun_view_new(L, LUN_VIEW_SPACER);
    return 1;
  }
  if (lua_type(L, 1) != LUA_TNUMBER)
    lun_error_here(L, "ui.Spacer: its minLength (argument 1) is a number, got a %s", luaL_typename(L, 1));
  length = lua_tonumber(L, 1);
  luaL_argcheck(L, length >= 0 && length <= DBL_MAX, 1, "minLength must be a non-negative, finite number");
  vidx = lun_view_new(L, LUN_VIEW_SPACER);
  lua_createtable(L, 0, 1);
  lun_push_as_given(L, 1, length);
  lua_setfield(L, -2, "minLength");
  lua_setfield(L, vidx, "attrs");
  return 1;
}
/* ui.EmptyView() -> view. */
static int lun_ui_empty(lua_State *L) { lun_view_arity(L, "EmptyView", 0); lun_view_new(L, LUN_VIEW_EMPTY); return 1; }

/* ui.Button(label, action [, { role }]) -> view; label: a string, or a view
 * (Button(action:label:): the view is the button's child, and a tap on any
 * node of it taps the button). */
static int lun_ui_button(lua_State *L) {
  static const char *const options[] = {"role", NULL};
  static const char *const roles[] = {"cancel", "destructive", NULL};
  int vidx;
  lun_view_arity(L, "Button", 3);
  lua_settop(L, 3);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  if (!lua_isnil(L, 3)) {                         /* { role = "destructive" }: Button(_:role:action:) */
    luaL_checktype(L, 3, LUA_TTABLE);
    lun_check_keys(L, 3, options, "ui.Button", "option");
    lua_getfield(L, 3, "role");
    lua_replace(L, 3);
    if (!lua_isnil(L, 3)) luaL_checkoption(L, 3, NULL, roles);
  }
  vidx = lun_view_new(L, LUN_VIEW_BUTTON);
  if (lun_view_test(L, 1) || lun_viewtype_test(L, 1)) {   /* Button(action:label:): a view as its label */
    lua_pushvalue(L, 1);
    lua_rawseti(L, vidx, 1);
  } else lun_view_text_arg(L, 1, vidx, "text");
  lua_pushvalue(L, 2);
  lua_setfield(L, vidx, "action");
  if (!lua_isnil(L, 3)) {
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 3);
    lua_setfield(L, -2, "role");
    lua_setfield(L, vidx, "attrs");
  }
  return 1;
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
static int lun_view_bound_peek(lua_State *L, int bindarg) {
  if (lun_binding_is_functions(L, bindarg)) return 0;
  lua_pushcfunction(L, lun_view_bound_get);
  lua_pushvalue(L, bindarg);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) { lua_pop(L, 1); return 0; }
  return 1;
}

/* Raises, naming the control, its label (at labelarg, or none) and the
 * value's type (never the value: it may be secret), if the binding at
 * bindarg holds what the control of kind cannot edit. [-0, +0] */
static void lun_view_bound_value(lua_State *L, int kind, int labelarg, int bindarg) {
  int t;
  const char *name = lun_view_kind_name(kind);
  if (!lun_view_bound_peek(L, bindarg)) return;
  t = lua_type(L, -1);
  if (!lun_view_bound_takes(kind, t)) {
    if (labelarg)
      lun_error_here(L, "ui.%s \"%s\": its binding holds a %s; a %s's is %s", name, lua_tostring(L, labelarg),
                     lua_typename(L, t), name, lun_view_bound_wants(kind));
    lun_error_here(L, "ui.%s: its binding holds a %s; a %s's is %s", name, lua_typename(L, t), name, lun_view_bound_wants(kind));
  }
  lua_pop(L, 1);
}

/* Shared body of Toggle, TextField and SecureField: (label, binding
 * [, prompt]) -> view; a text field's prompt (at 3, checked by
 * lun_view_prompted) is shown as prompt=. */
static int lun_view_bound(lua_State *L, int kind) {
  int vidx;
  lua_settop(L, 3);                               /* a text field's prompt at 3 (lun_view_prompted) */
  if (!lun_binding_test(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "Binding expected (self[\"$name\"] or ui.Bindable(obj).name), got %s",
                                         luaL_typename(L, 2)));
  if (lua_type(L, 1) != LUA_TNUMBER && lua_type(L, 1) != LUA_TSTRING) luaL_typeerror(L, 1, "string");
  lun_view_bound_value(L, kind, 1, 2);
  vidx = lun_view_new(L, kind);
  lun_view_text_arg(L, 1, vidx, "text");
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
static int lun_ui_toggle(lua_State *L) {
  lun_view_arity(L, "Toggle", 2);
  lua_settop(L, 2);
  return lun_view_bound(L, LUN_VIEW_TOGGLE);
}
/* ui.TextField(placeholder, binding [, prompt]) -> view. */
static int lun_ui_textfield(lua_State *L) { return lun_view_prompted(L, LUN_VIEW_TEXTFIELD, "ui.TextField"); }
/* ui.SecureField(placeholder, binding [, prompt]) -> view: a TextField whose text is
 * never shown — its node's value is one bullet per character
 * (https://developer.apple.com/documentation/swiftui/securefield). */
static int lun_ui_securefield(lua_State *L) { return lun_view_prompted(L, LUN_VIEW_SECUREFIELD, "ui.SecureField"); }

/* Shared body of List and ForEach: (data, row) or ({children}) -> view;
 * shift: the arguments the caller took first (List's options), for messages. */
static int lun_view_rows(lua_State *L, int kind, int lazy, int shift) {
  int vidx, i;
  for (i = 3; i <= lua_gettop(L); i++)            /* ForEach(_:id:content:)'s id: is not offered: say so (D10) */
    if (!lua_isnil(L, i))
      lun_error_here(L, "ui.%s takes (data, row), got a %s as argument %d: a row is identified by its element's id "
                     "field, or by the element itself (there is no id option)",
                     kind == LUN_VIEW_LIST ? "List" : "ForEach", luaL_typename(L, i), i + shift);
  lua_settop(L, 2);
  if (lua_isfunction(L, 2)) {
    int t = lua_type(L, 1);
    if (t != LUA_TTABLE && t != LUA_TUSERDATA)
      luaL_argerror(L, 1, lua_pushfstring(L, "collection expected, got %s", luaL_typename(L, 1)));
    lun_list_check_data(L, 1, kind == LUN_VIEW_LIST ? "List" : "ForEach");
    vidx = lun_view_new(L, kind);
    lua_pushvalue(L, 1);
    lua_setfield(L, vidx, "data");
    lua_pushvalue(L, 2);
    lua_setfield(L, vidx, "row");
    lua_pushboolean(L, lazy);
    lua_setfield(L, vidx, "lazy");
    return 1;
  }
  if (!lua_isnoneornil(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "row function expected, got %s", luaL_typename(L, 2)));
  return lun_view_container(L, kind, kind == LUN_VIEW_LIST ? "List" : "ForEach", lun_no_options, lun_no_options);
}

/* ui.List(data, row) or ui.List{...} -> view; with a selection first,
 * ui.List({ selection = binding }, data, row) or ui.List({ selection =
 * binding }, { … }) (List(selection:), lun_list.c). */
static int lun_ui_list(lua_State *L) {
  if (!lun_list_take_options(L)) return lun_view_rows(L, LUN_VIEW_LIST, 1, 0);
  lun_view_rows(L, LUN_VIEW_LIST, 1, 1);          /* the options were argument 1 */
  lun_list_give_selection(L, -1);
  return 1;
}
/* ui.ForEach(data, row) -> view. */
static int lun_ui_foreach(lua_State *L) {
  luaL_checktype(L, 2, LUA_TFUNCTION);
  return lun_view_rows(L, LUN_VIEW_FOREACH, 0, 0);
}

/* Registers the names section `d` of the definition table at defidx lists. */
static void lun_viewtype_section(lua_State *L, int defidx, int infoidx, const lun_Section *d) {
  const char *name = d->name;
  int sections, kind = d->kind, holds = d->holds;
  lua_getfield(L, infoidx, "sections");
  sections = lua_gettop(L);
  if (lua_getfield(L, defidx, name) == LUA_TNIL) { lua_pop(L, 2); return; }
  if (!lua_istable(L, -1)) luaL_error(L, "ui.View: section '%s' must be a table", name);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_isinteger(L, -2)) {               /* list form: { "name", ... } */
      if (lua_type(L, -1) != LUA_TSTRING) luaL_error(L, "ui.View: section '%s' lists a non-string", name);
      lua_pushvalue(L, -1);
    } else {
      if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "ui.View: section '%s' has a non-string key", name);
      lua_pushvalue(L, -2);
    }
    lua_pushinteger(L, kind);
    lua_rawset(L, sections);
    if (holds) {                                  /* held objects: subscribed before each body run */
      if (lua_getfield(L, infoidx, "objects") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, infoidx, "objects");
      }
      if (lua_isinteger(L, -3)) lua_pushvalue(L, -2); else lua_pushvalue(L, -3);
      lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_setfield(L, infoidx, name);
  lua_pop(L, 1);
}

/* Checks an entry of section `name` (environment or environmentObject):
 * the stack ends key, type, "@Type". @Environment takes an @Observable
 * object, @EnvironmentObject an ObservableObject ("This initializer only
 * accepts objects conforming to the Observable protocol. For reading
 * environment objects that conform to ObservableObject, use
 * EnvironmentObject instead",
 * https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf). [-0, +0] */
static void lun_viewtype_env_kind(lua_State *L, const char *name, int mode) {
  int object = strcmp(name, "environmentObject") == 0, kind = lun_env_type_kind(L, -2);
  const char *type = lua_tostring(L, -1) + 1, *entry, *optional = mode == LUN_ENV_OPTIONAL ? "ui.optional(" : "";
  if (kind == 0 || (kind == LUN_ENV_OBSERVABLE_OBJECT) == object) return;
  entry = luaL_tolstring(L, -3, NULL);
  luaL_error(L, "ui.View: %s entry '%s' is %s: read it with %s = { %s = %s%s%s }", name, entry,
             object ? "an @Observable type" : "an ObservableObject", object ? "environment" : "environmentObject",
             entry, optional, type, *optional ? ")" : "");
}

/* Adds the environment keys and read modes of section `name` to info.envkey/envmode. */
static void lun_viewtype_env(lua_State *L, int infoidx, const char *name) {
  int envidx, keys, modes;
  if (lua_getfield(L, infoidx, name) == LUA_TNIL) { lua_pop(L, 1); return; }
  envidx = lua_gettop(L);
  if (lua_getfield(L, infoidx, "envkey") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, infoidx, "envkey");
  }
  keys = lua_gettop(L);
  if (lua_getfield(L, infoidx, "envmode") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, infoidx, "envmode");
  }
  modes = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, envidx)) {
    int mode = 0;
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(name, "environment") == 0) {
      if (lun_env_reserved(lua_tostring(L, -1))) {   /* "@Type" is how objects are kept by type: not a key */
        const char *keyname = lua_tostring(L, -1), *entry = luaL_tolstring(L, -2, NULL);
        luaL_error(L, "ui.View: environment entry '%s' names the key '%s': a key may not begin with '@', "
                      "nor be one of Lunette's own", entry, keyname);
      }
      mode = LUN_ENV_KEYED;
      lua_pushvalue(L, -1);
    } else {
      if (luaL_testudata(L, -1, LUN_MT_MARKER)) {
        lua_getiuservalue(L, -1, 1);
        if (lua_tointeger(L, -1) != LUN_MARK_OPTIONAL) luaL_error(L, "ui.View: bad environment entry '%s'", lua_tostring(L, -3));
        lua_pop(L, 1);
        lua_getiuservalue(L, -1, 2);
        lua_replace(L, -2);
        mode = LUN_ENV_OPTIONAL;
      } else mode = strcmp(name, "environmentObject") == 0 ? LUN_ENV_OBJECT : LUN_ENV_REQUIRED;
      lun_env_type_key(L, -1);                    /* key, type, "@Type" */
      lun_viewtype_env_kind(L, name, mode);
    }
    lua_pushvalue(L, -3);
    lua_insert(L, -2);
    lua_rawset(L, keys);
    lua_pushvalue(L, -2);
    lua_pushinteger(L, mode);
    lua_rawset(L, modes);
    lua_pop(L, 1);
  }
  lua_pop(L, 3);
}

/* Builds the hidden Observable class holding a view type's state. */
static void lun_viewtype_state_class(lua_State *L, int infoidx, const char *name) {
  if (lua_getfield(L, infoidx, "state") == LUA_TNIL) { lua_pop(L, 1); return; }
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, -3)) {                       /* every name starts nil (ui.none) until its value is */
    lua_pop(L, 1);                                /* stored: a factory reading a later one sees nil */
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lun_marker_new(L, LUN_MARK_NONE, -1);
    lua_remove(L, -2);
    lua_rawset(L, -4);
  }
  lua_pushfstring(L, "%s.state", name);
  lun_class_define(L, lua_tostring(L, -1), -2, LUN_CLASS_OBSERVABLE, NULL);
  lua_getmetatable(L, -1);
  lua_getfield(L, -1, "__instances");
  lua_setfield(L, infoidx, "stateClass");
  lua_pop(L, 5);
}

/* Raises on a key of the definition at defidx that is no section (F08). */
static void lun_viewtype_check_sections(lua_State *L, int defidx, const char *name) {
  const char *known[32];                          /* lun_sections has a dozen */
  int i;
  for (i = 0; lun_sections[i].name && i < 31; i++) known[i] = lun_sections[i].name;
  known[i] = NULL;
  lua_pushfstring(L, "ui.View('%s')", name);
  lun_check_sections(L, defidx, known, lua_tostring(L, -1));
  lua_pop(L, 1);
}

/* If the definition at defidx has a focusState section ({ "field", ... },
 * and `isFocused = false` for a Bool one), replaces it by a copy whose
 * state declares those names, starting nil (or false): @FocusState, no
 * field focused at first. Pushes the set of its Bool names (nil if it has
 * no focusState): what focused(_:) takes, where focused(_:equals:) takes
 * the others. [-0, +1] */
static void lun_viewtype_focus(lua_State *L, int defidx, const char *name) {
  int names, copy, state, bools;
  defidx = lua_absindex(L, defidx);
  if (lua_getfield(L, defidx, "focusState") == LUA_TNIL) return;
  lua_newtable(L);
  bools = lua_gettop(L);
  lua_insert(L, bools - 1);
  bools--;
  if (!lua_istable(L, -1)) luaL_error(L, "ui.View('%s'): focusState must list names: { \"field\" }", name);
  names = lua_gettop(L);
  lun_copy_shallow(L, defidx);                    /* the copy of the definition */
  copy = lua_gettop(L);
  if (lua_getfield(L, defidx, "state") == LUA_TTABLE) lun_copy_shallow(L, -1);   /* its state, and the focus names */
  else lua_newtable(L);
  lua_remove(L, -2);
  state = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, names)) {
    int isBool = lua_type(L, -2) == LUA_TSTRING && lua_isboolean(L, -1) && !lua_toboolean(L, -1);
    if (!isBool && !(lua_isinteger(L, -2) && lua_type(L, -1) == LUA_TSTRING))
      luaL_error(L, "ui.View('%s'): focusState '%s': list a name ({ \"field\" }, nil when no field has focus) or "
                 "give a Bool one false ({ isFocused = false })", name, luaL_tolstring(L, -2, NULL));
    lua_pushvalue(L, isBool ? -2 : -1);           /* the name */
    lua_pushvalue(L, -1);
    if (lua_rawget(L, state) != LUA_TNIL) luaL_error(L, "ui.View('%s'): '%s' is declared twice", name, lua_tostring(L, -2));
    lua_pop(L, 1);
    if (isBool) {
      lua_pushvalue(L, -1);
      lua_pushboolean(L, 1);
      lua_rawset(L, bools);
    }
    if (isBool) lua_pushboolean(L, 0);
    else {
      lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_module);   /* ui.none: starts nil */
      lua_getfield(L, -1, "none");
      lua_remove(L, -2);
    }
    lua_rawset(L, state);
    lua_pop(L, 1);
  }
  lua_setfield(L, copy, "state");
  lua_replace(L, defidx);
  lua_pop(L, 1);
}

/* The `state` section of a definition at defidx: a default that is an
 * object (a model, an ObservableObject, a Swift object) is refused — the
 * definition is made once, so every view would share it, where SwiftUI
 * "always instantiates its default value when SwiftUI instantiates the
 * view" (https://developer.apple.com/documentation/swiftui/state); a
 * function that makes one is called for each view. [-0, +0] */
/* 1 if the value at idx is one every view would share when kept as a
 * default: a model, a Swift object or a subject (references; a plain table
 * is copied for each view, F04). [-0, +0] */
static int lun_state_shared(lua_State *L, int idx) {
  int32_t handle;
  return lun_object_test(L, idx) || lun_host_test(L, idx, &handle) || lun_subject_test(L, idx);
}

/* Pushes the first value every view would share found at idx or inside its
 * plain tables (bounded: nesting below 32, at most *budget entries in all)
 * and returns 1; 0, pushing nothing, if none. [-0, +(0|1)] */
static int lun_state_find_shared(lua_State *L, int idx, int depth, long *budget) {
  idx = lua_absindex(L, idx);
  if (lun_state_shared(L, idx)) { lua_pushvalue(L, idx); return 1; }
  if (depth >= 32 || lua_type(L, idx) != LUA_TTABLE) return 0;
  if (lua_getmetatable(L, idx)) { lua_pop(L, 1); return 0; }   /* a plain table only: it is copied, F04 */
  luaL_checkstack(L, 4, "checking a state default");
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (--*budget < 0) { lua_pop(L, 2); return 0; }   /* past the bound: copied as it is (F04) */
    if (lun_state_find_shared(L, -1, depth + 1, budget)) {
      lua_replace(L, -3);                         /* culprit, value */
      lua_pop(L, 1);
      return 1;
    }
    lua_pop(L, 1);
  }
  return 0;
}

void lun_state_check(lua_State *L, int defidx, const char *section, const char *view) {
  long budget = 100000;
  defidx = lua_absindex(L, defidx);
  if (lua_getfield(L, defidx, section) != LUA_TTABLE) { lua_pop(L, 1); return; }
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_type(L, -2) == LUA_TSTRING && lun_state_find_shared(L, -1, 0, &budget)) {
      lun_describe(L, -1, 1);
      lun_error_here(L, "%s: %s '%s' holds %s, made once where the view is defined: every %s would share it. "
                     "Give a function that makes it for each view: %s = function() return ... end",
                     view, section, lua_tostring(L, -4), lua_tostring(L, -1), view, lua_tostring(L, -4));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* The `inputs` section of a definition at defidx (issue 19): its list
 * entries are the names of required inputs, its keyed entries optional
 * inputs with their defaults (ui.none: nil). [-0, +0] */
void lun_inputs_check(lua_State *L, int defidx, const char *section, const char *view) {
  defidx = lua_absindex(L, defidx);
  if (lua_getfield(L, defidx, section) == LUA_TNIL) { lua_pop(L, 1); return; }
  if (!lua_istable(L, -1)) luaL_error(L, "ui.View('%s'): inputs must be a table: { \"book\", count = 0 }", view);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_isinteger(L, -2) ? lua_type(L, -1) != LUA_TSTRING : lua_type(L, -2) != LUA_TSTRING) {
      lun_describe(L, lua_isinteger(L, -2) ? -1 : -2, 1);
      luaL_error(L, "ui.View('%s'): inputs lists names (\"book\", required) and name = default (count = 0), got %s",
                 view, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Records in info.required the inputs a caller must pass (name -> section
 * kind): a `binding`, `bindable` or `observedObject` declaration has no
 * default, as Swift's memberwise initializer requires a @Binding, @Bindable
 * or @ObservedObject argument; nor does a name `inputs` lists without a
 * default. [-0, +0] */
static void lun_viewtype_required(lua_State *L, int infoidx) {
  int n = 0;
  lua_getfield(L, infoidx, "sections");
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, -3)) {
    const lun_Section *d = lun_section_of((int)lua_tointeger(L, -1));
    if (d && d->kind == LUN_SECTION_INPUT && lua_getfield(L, infoidx, "inputs") == LUA_TTABLE) {
      int defaulted;                              /* count = 0: optional */
      lua_pushvalue(L, -3);
      defaulted = lua_rawget(L, -2) != LUA_TNIL;
      lua_pop(L, 2);
      if (defaulted) { lua_pop(L, 1); continue; }
    } else if (d && d->kind == LUN_SECTION_INPUT) lua_pop(L, 1);
    if (d && d->input) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, -4);
      n++;
    } else lua_pop(L, 1);
  }
  if (n) lua_setfield(L, infoidx, "required"); else lua_pop(L, 1);
  lua_pop(L, 1);
}

/* Pushes how a caller passes input `name` = value: "pin = value", or for a
 * property's input ("sel.value", lun_dynamic_inputs) "sel = { value = value }". [-0, +1] */
static void lun_input_hint(lua_State *L, const char *name, const char *value) {
  luaL_Buffer b;
  const char *dot;
  int open = 0;
  luaL_buffinit(L, &b);
  while ((dot = strchr(name, '.')) != NULL) {
    luaL_addlstring(&b, name, (size_t)(dot - name));
    luaL_addstring(&b, " = { ");
    name = dot + 1;
    open++;
  }
  luaL_addstring(&b, name);
  luaL_addstring(&b, " = ");
  luaL_addstring(&b, value);
  while (open-- > 0) luaL_addstring(&b, " }");
  luaL_pushresult(&b);
}

/* Raises at the caller's line when the inputs table at inputs (0: none)
 * of the view type at tidx lacks a required input (lun_viewtype_required),
 * or gives a `binding` input something that is no Binding. [-0, +0] */
static void lun_viewtype_check_required(lua_State *L, int tidx, int inputs) {
  static const char *const what[] = {"", "a Binding the caller passes (%s { %s })",
                                     "an observable object the caller passes (%s { %s })",
                                     "an ObservableObject the caller passes (%s { %s })",
                                     "an input the caller passes (%s { %s })"};
  static const char *const value[] = {"", "self[\"$flag\"]", "model", "object", "…"};
  int info;
  lua_getiuservalue(L, tidx, 1);
  info = lua_gettop(L);
  if (lua_getfield(L, info, "required") != LUA_TTABLE) { lua_pop(L, 2); return; }
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    int kind = (int)lua_tointeger(L, -1), t = LUA_TNIL;
    const char *section = kind == LUN_SECTION_BINDING ? "binding" : kind == LUN_SECTION_BINDABLE ? "bindable"
                        : kind == LUN_SECTION_INPUT ? "inputs" : "observedObject";
    lua_getfield(L, info, "name");
    if (inputs) {
      lua_pushvalue(L, -3);
      t = lua_rawget(L, inputs);
    } else lua_pushnil(L);
    if (t == LUA_TNIL) {
      int w = kind == LUN_SECTION_BINDING ? 1 : kind == LUN_SECTION_BINDABLE ? 2 : kind == LUN_SECTION_INPUT ? 4 : 3;
      lun_input_hint(L, lua_tostring(L, -4), value[w]);
      lua_pushfstring(L, what[w], lua_tostring(L, -3), lua_tostring(L, -1));
      lun_error_here(L, "%s: missing input '%s': %s = { \"%s\" } declares %s", lua_tostring(L, -4),
                     lua_tostring(L, -6), section, lua_tostring(L, -6), lua_tostring(L, -1));
    }
    if (kind == LUN_SECTION_BINDING && !lun_binding_test(L, -1))
      lun_error_here(L, "%s: input '%s' must be a Binding (pass self[\"$%s\"]), got %s", lua_tostring(L, -2),
                     lua_tostring(L, -4), lua_tostring(L, -4), luaL_typename(L, -1));
    lua_pop(L, 3);
  }
  lua_pop(L, 2);
}

/* For a view type (at tidx) that declares `inputs`, the caller's inputs
 * (arg `arg`, a table or nil): a name no input section declares is an
 * error naming the view and the name; a defaulted input the caller left
 * out takes its default (ui.none: nil; a plain table default is copied),
 * in a copy of the caller's table, which replaces it. [-0, +0] */
static void lun_viewtype_plain_inputs(lua_State *L, int tidx, int arg) {
  int info, sections, names, given;
  lua_getiuservalue(L, tidx, 1);
  info = lua_gettop(L);
  if (lua_getfield(L, info, "inputs") != LUA_TTABLE) { lua_settop(L, info - 1); return; }
  lua_getfield(L, info, "sections");
  sections = lua_gettop(L);
  lua_newtable(L);                                /* the names a caller may pass */
  names = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, sections)) {
    const lun_Section *d = lun_section_of((int)lua_tointeger(L, -1));
    if (d && d->input) { lua_pushvalue(L, -2); lua_pushboolean(L, 1); lua_rawset(L, names); }
    lua_pop(L, 1);
  }
  if (lua_istable(L, arg)) lun_copy_shallow(L, arg); else lua_newtable(L);
  given = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, given)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    if (lua_type(L, -1) != LUA_TSTRING || lua_rawget(L, names) == LUA_TNIL) {
      lua_getfield(L, info, "name");
      lun_push_key_suggestion(L, lua_type(L, -3) == LUA_TSTRING ? lua_tostring(L, -3) : "", names, 0);
      lun_describe(L, -4, 1);
      lun_error_here(L, "%s: unknown input %s%s; the view declares its inputs (inputs = { … }, binding, bindable, "
                        "observedObject)", lua_tostring(L, -3), lua_tostring(L, -1), lua_tostring(L, -2));
    }
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  while (lua_next(L, info + 1)) {                 /* the defaults: key at top - 1, value at top */
    int key = lua_gettop(L) - 1, value = key + 1, plain;
    if (lua_type(L, key) == LUA_TSTRING && !lun_is_none(L, value)) {
      lua_pushvalue(L, key);
      if (lua_rawget(L, given) == LUA_TNIL) {
        plain = lua_type(L, value) == LUA_TTABLE && !lua_getmetatable(L, value);
        lua_settop(L, value);
        lua_pushvalue(L, key);
        if (plain) lun_copy_shallow(L, value); else lua_pushvalue(L, value);
        lua_rawset(L, given);
      }
    }
    lua_settop(L, key);
  }
  lua_replace(L, arg);
  lua_settop(L, info - 1);
}

/* ui.View(name, body | definition) -> view type. */
static int lun_ui_view(lua_State *L) {
  const char *name;
  size_t len;
  int infoidx, i;
  if (lua_type(L, 1) != LUA_TSTRING) luaL_typeerror(L, 1, "string (the view's name)");
  if (lua_gettop(L) == 3 && lua_istable(L, 2) && lua_type(L, 3) == LUA_TSTRING) lua_settop(L, 2);   /* require's data */
  lun_no_extra(L, "ui.View", 2, 0);
  name = lua_tolstring(L, 1, &len);
  if (len == 0 || len > LUN_MAX_NAME)               /* the host keeps every view type's name (R19) */
    luaL_argerror(L, 1, lua_pushfstring(L, "a view's name is 1 to %d bytes, got %d", LUN_MAX_NAME, (int)(len > 1000000 ? 1000000 : len)));
  lun_check_name_text(L, 1, "a view's name");
  if (lua_isfunction(L, 2)) {
    lua_createtable(L, 0, 1);
    lua_pushvalue(L, 2);
    lua_setfield(L, -2, "body");
    lua_replace(L, 2);
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  lun_viewtype_check_sections(L, 2, name);
  lun_sections_check(L, 2, name);                 /* what they declare can be (storage defaults: T04) */
  lun_dynamic_expand(L, 2, name);                 /* properties' sections join the view's (F14) */
  lua_settop(L, 2);
  lun_viewtype_focus(L, 2, name);                 /* focusState names are state that starts nil (T05); 3: its Bool names */
  if (lua_getfield(L, 2, "body") != LUA_TFUNCTION)
    luaL_error(L, "ui.View('%s'): the definition needs a body function", name);
  lua_pop(L, 1);
  lun_typename_claim(L, "ui.View", "view", name);   /* one view per name in one scope */
  lua_settop(L, 3);
  lua_newuserdatauv(L, 1, 2);                     /* 4: the view type */
  lua_createtable(L, 0, 8);                       /* 5: info */
  infoidx = 5;
  lua_pushvalue(L, 3);
  lua_setfield(L, infoidx, "focusBool");
  lua_pushvalue(L, 1);
  lua_setfield(L, infoidx, "name");
  lua_pushinteger(L, lunh(lun_state(L)->rt, output, view_type, name, len));
  lua_setfield(L, infoidx, "id");
  lua_getfield(L, 2, "body");
  lua_setfield(L, infoidx, "body");
  lua_newtable(L);
  lua_setfield(L, infoidx, "sections");
  for (i = 0; lun_sections[i].name; i++)
    if (lun_sections[i].registers) lun_viewtype_section(L, 2, infoidx, &lun_sections[i]);
  lun_dynamic_sections(L, 2, infoidx);
  lun_viewtype_env(L, infoidx, "environment");
  lun_viewtype_env(L, infoidx, "environmentObject");
  lun_viewtype_required(L, infoidx);
  lun_viewtype_state_class(L, infoidx, name);
  lua_settop(L, infoidx);
  lua_newtable(L);                                /* its methods; info.methods too (a read through self) */
  lua_pushvalue(L, -1);
  lua_setfield(L, infoidx, "methods");
  lua_setiuservalue(L, 4, 2);
  lua_setiuservalue(L, 4, 1);
  luaL_setmetatable(L, LUN_MT_VIEWTYPE);
  return 1;
}

/* Pushes the name of the view value at idx: "Text", "BookView". [-0, +1] */
void lun_view_name(lua_State *L, int idx) {
  int kind;
  lun_rawfield(L, idx, "kind");
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  if (kind == LUN_VIEW_COMPONENT && (lun_rawfield(L, idx, "type"), lun_viewtype_test(L, -1))) {
    lua_getiuservalue(L, -1, 1);
    lua_getfield(L, -1, "name");
    lua_replace(L, -3);
    lua_pop(L, 1);
    return;
  }
  if (kind == LUN_VIEW_COMPONENT) lua_pop(L, 1);
  lua_pushstring(L, lun_view_kind_name(kind));
}

/* __call of a view type: (type, inputs?) -> view value. */
static int lun_viewtype_call(lua_State *L) {
  int vidx;
  lun_viewtype_check(L, 1);
  lua_settop(L, 2);
  if (!lua_isnoneornil(L, 2) && !lua_istable(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "table of inputs expected, got %s", luaL_typename(L, 2)));
  lun_dynamic_inputs(L, 1, 2);                    /* a property's inputs, under its name (issue 19) */
  lun_viewtype_check_required(L, 1, lua_istable(L, 2) ? 2 : 0);   /* a missing binding names itself here */
  lun_viewtype_plain_inputs(L, 1, 2);             /* inputs = { "book", count = 0 } (issue 19) */
  vidx = lun_view_new(L, LUN_VIEW_COMPONENT);
  lua_pushvalue(L, 1);
  lun_setkey(L, lun_state(L), vidx, LUN_K_TYPE);
  lun_view_site(L, vidx);
  if (lua_istable(L, 2)) lua_pushvalue(L, 2); else lua_newtable(L);
  lun_setkey(L, lun_state(L), vidx, LUN_K_INPUTS);
  return 1;
}

/* __index of a view type: its methods, or `name`. */
static int lun_viewtype_index(lua_State *L) {
  lun_viewtype_check(L, 1);
  lua_settop(L, 2);
  if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "name") == 0) {
    lua_getiuservalue(L, 1, 1);
    lua_getfield(L, -1, "name");
    return 1;
  }
  return lun_type_method(L);
}

/* __newindex of a view type: defines a method. */
static int lun_viewtype_newindex(lua_State *L) {
  lun_viewtype_check(L, 1);
  return lun_type_define_method(L);
}

/* __tostring of a view type: "View BookView". */
static int lun_viewtype_tostring(lua_State *L) {
  lun_viewtype_check(L, 1);
  lua_settop(L, 1);
  lua_getiuservalue(L, 1, 1);
  lua_getfield(L, -1, "name");
  lua_pushfstring(L, "View %s", lua_tostring(L, -1));
  return 1;
}

void lun_open_view(lua_State *L) {
#define LUN_VIEW_MAKER_(id, name, make) {name, make},
  static const luaL_Reg kinds[] = {LUN_VIEW_KINDS(LUN_VIEW_MAKER_) {NULL, NULL}};
#undef LUN_VIEW_MAKER_
  const luaL_Reg *kind;
  static const luaL_Reg typemeta[] = {
    {"__call", lun_viewtype_call}, {"__index", lun_viewtype_index},
    {"__newindex", lun_viewtype_newindex}, {"__tostring", lun_viewtype_tostring},
    {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_VIEWTYPE);
  lun_state(L)->viewTypeMeta = lua_topointer(L, -1);   /* the registry keeps it for the state's life */
  luaL_setfuncs(L, typemeta, 0);
  lua_pop(L, 1);
  for (kind = kinds; kind->name; kind++) {      /* ui.Text, ...: the kinds a script makes */
    if (!kind->func) continue;                 /* made by a modifier or the walker (Row, Sheet, ...) */
    lua_pushcfunction(L, kind->func);
    lua_setfield(L, -2, kind->name);
  }
}
