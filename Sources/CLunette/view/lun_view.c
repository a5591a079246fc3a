/*
 * lun_view.c — view values and the built-in views that hold others or show
 * a value: the stacks, Group, Form, Section, ScrollView, Text, Image,
 * Label, Divider, ProgressView, Spacer, EmptyView, Button, List, ForEach.
 * (The controls bound to a value: lun_control.c; Picker: lun_picker.c;
 * view types, ui.View: lun_viewtype.c.)
 *
 * A view value is a description built by a body: a table with metatable
 * LUN_MT_VIEW and the fields
 *   kind (LUN_VIEW_*), text, action, binding, data, row, lazy,
 *   type + inputs (components), id (explicit identity), mods (modifiers),
 *   attrs (container options), and its children in 1..n.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

#include <float.h>

/* 1 if the value at idx is a view value (a table with LUN_MT_VIEW). */
int lun_view_test(lua_State *L, int idx) {
  return lun_is_view(L, idx);
}

/* The name of a built-in view kind, as shown in trees and errors. */
const char *lun_view_kind_name(int kind) {
#define LUN_VIEW_NAME_(id, name, make) name,
  static const char *const names[] = {"?", LUN_VIEW_KINDS(LUN_VIEW_NAME_)};
#undef LUN_VIEW_NAME_
  return kind > 0 && kind < LUN_VIEW_KIND_COUNT ? names[kind] : "?";
}

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
void lun_view_text_arg(lua_State *L, int arg, int vidx, const char *field) {
  if (lua_type(L, arg) != LUA_TNUMBER && lua_type(L, arg) != LUA_TSTRING)
    luaL_typeerror(L, arg, "string");
  lua_pushvalue(L, arg);
  lua_tostring(L, -1);
  lua_setfield(L, vidx, field);
}

/* Sets attrs[name] = the value on top of the view at vidx. [-1, +0] */
void lun_view_attr(lua_State *L, int vidx, const char *name) {
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
  lun_check_callback(L, 2);
  if (!lua_isnil(L, 3)) {                         /* { role = "destructive" }: Button(_:role:action:) */
    luaL_checktype(L, 3, LUA_TTABLE);
    lun_check_keys(L, 3, options, "ui.Button", "option");
    lua_getfield(L, 3, "role");
    lua_replace(L, 3);
    if (!lua_isnil(L, 3) && !lun_names_one_of(L, 3, roles)) {   /* ButtonRole: .cancel, .destructive */
      if (lua_type(L, 3) == LUA_TSTRING) lun_push_suggestion(L, lua_tostring(L, 3), 0, roles);
      else lua_pushliteral(L, "");
      lun_describe(L, 3, 1);
      return lun_error_here(L, "ui.Button: its role is \"cancel\" or \"destructive\", got %s%s", lua_tostring(L, -1),
                            lua_tostring(L, -2));
    }
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
  if (lun_is_callable(L, 2)) {                    /* a function, or a callable table (a busted spy) */
    int t = lua_type(L, 1);
    lun_check_callback(L, 2);
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
  lun_check_callback(L, 2);
  return lun_view_rows(L, LUN_VIEW_FOREACH, 0, 0);
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

void lun_open_view(lua_State *L) {
#define LUN_VIEW_MAKER_(id, name, make) {name, make},
  static const luaL_Reg kinds[] = {LUN_VIEW_KINDS(LUN_VIEW_MAKER_) {NULL, NULL}};
#undef LUN_VIEW_MAKER_
  const luaL_Reg *kind;
  lun_open_viewtype(L);
  for (kind = kinds; kind->name; kind++) {      /* ui.Text, ...: the kinds a script makes */
    if (!kind->func) continue;                 /* made by a modifier or the walker (Row, Sheet, ...) */
    lua_pushcfunction(L, kind->func);
    lua_setfield(L, -2, kind->name);
  }
}
