/*
 * lun_picker.c — ui.Picker: its options (a list of values, tagged child
 * views, ForEach over data), their tags and types checked alike, and the
 * text a Picker's node shows of them.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

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

int lun_ui_picker(lua_State *L) {
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
