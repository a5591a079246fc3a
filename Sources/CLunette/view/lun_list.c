/*
 * lun_list.c — what lists do beyond showing rows (issue 19, session 7):
 * selection (List(selection:), one value or a set), ForEach's onDelete and
 * onMove and the rows' part of them, swipeActions, searchable and toolbar.
 *
 * Selection. ui.List({ selection = binding }, data, row) or
 * ui.List({ selection = binding }, { children }): a row's value is its
 * element's id (a model's `id`, a table's `id`, else the element itself),
 * or, for a child view, its :tag(v). The binding holds one value (or nil),
 * or a set — a table { [value] = true } — for several (the kind of value it
 * holds decides, as SwiftUI's Set<ID> does). The List node shows
 * `selection=`; node:select(v) picks a row's value (several: toggles it);
 * rows of data show selected=true on their Row node, and a tagged child
 * view of a static List (in a Section or a Group too, three levels) on its
 * own node. A ForEach a static List holds (as deep) takes the List's selection.
 *
 * Rows that can go or move. ForEach(data, row):onDelete(fn) / :onMove(fn):
 * each row keeps its index (a slot with LUN_ROLE_ROW on its Row node);
 * node:delete() on any node inside a row calls fn({ index }), and
 * node:move(to) calls fn({ index }, to) — SwiftUI's IndexSet and
 * destination offset, 1-based as Lua's lists are: `to` is the position
 * before which the rows go, counted before they move (1 ... #data + 1).
 *
 * Extras. :swipeActions, :searchable and :toolbar add views the walker
 * shows after the view's own content (the view value's `extras`): a
 * SwipeActions node with its buttons, a TextField with searchable=true, a
 * Toolbar node with its items.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

static const char lun_key_list_selection = 0;   /* ui.List's options' binding, while the List is made */

/* Pushes the value a row of the element at idx stands for in a selection:
 * its id (a model's or a table's `id`), or the element itself. [-0, +1] */
void lun_list_row_value(lua_State *L, int idx) {
  int32_t handle;
  idx = lua_absindex(L, idx);
  if (lun_object_test(L, idx)) {
    int hasId;
    lua_pushliteral(L, "id");
    hasId = lun_object_prop(L, idx, -1);
    lua_pop(L, 1);
    if (hasId) lua_getfield(L, idx, "id"); else lua_pushvalue(L, idx);
    return;
  }
  if ((lua_type(L, idx) == LUA_TTABLE || lun_proxy_test(L, idx)) && !lun_host_test(L, idx, &handle)) {
    if (lua_getfield(L, idx, "id") != LUA_TNIL) return;
    lua_pop(L, 1);
  }
  lua_pushvalue(L, idx);
}

/* 1 if the value at idx is a view value of kind `kind`. [-0, +0] */
static int lun_list_kind(lua_State *L, int idx, int kind) {
  int is;
  if (!lun_view_test(L, idx)) return 0;
  lun_rawfield(L, idx, "kind");
  is = lua_tointeger(L, -1) == kind;
  lua_pop(L, 1);
  return is;
}

/* Appends { what, value } (value on top) to the list at sources. [-1, +0] */
static void lun_list_source(lua_State *L, int sources, const char *what) {
  lua_createtable(L, 2, 0);
  lua_pushstring(L, what);
  lua_rawseti(L, -2, 1);
  lua_insert(L, -2);
  lua_rawseti(L, -2, 2);
  lua_rawseti(L, sources, (lua_Integer)lua_rawlen(L, sources) + 1);
}

/* Gives the binding at bidx to each ForEach over data among the children
 * of the static List (or Section, Group) at vidx, `depth` containers in;
 * each child view's tag and each ForEach's data join what can be selected,
 * the list at sources ({ "tag", v }, { "data", t }). [-0, +0] */
static void lun_list_share(lua_State *L, int vidx, int bidx, int sources, int depth) {
  lua_Integer i, n = lun_rawlen_bounded(L, vidx, "a List's children");
  for (i = 1; i <= n; i++) {
    int child;
    lua_rawgeti(L, vidx, i);
    child = lua_gettop(L);
    if (lun_list_kind(L, child, LUN_VIEW_FOREACH) && lun_rawfield(L, child, "data") != LUA_TNIL) {
      lun_list_source(L, sources, "data");
      lua_pushvalue(L, bidx);
      lua_setfield(L, child, "selection");
    } else if (lun_view_test(L, child)) {
      lua_settop(L, child);
      if (depth < 3 && (lun_list_kind(L, child, LUN_VIEW_SECTION) || lun_list_kind(L, child, LUN_VIEW_GROUP)))
        lun_list_share(L, child, bidx, sources, depth + 1);
      lun_view_tag_of(L, child);
      if (!lua_isnil(L, -1)) lun_list_source(L, sources, "tag");
    }
    lua_settop(L, child - 1);
  }
}

/* 1 if the table at idx holds only options (string keys, at least one).
 * Stops at the first other key: data (an array, keys 1.. first) is told
 * from options at once, however long it is (a lazy List mounts in the
 * time of its window, P7). [-0, +0] */
static int lun_list_options_test(lua_State *L, int idx) {
  int strings = 0;
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  if (lua_getmetatable(L, idx)) { lua_pop(L, 1); return 0; }
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) { lua_pop(L, 1); return 0; }
    strings++;
  }
  return strings > 0;
}

/* Raises if the data at idx (a table, or a state table's proxy) is a
 * dictionary: it has no [1] and its first key is no integer. Rows are a list's elements
 * 1…n (SwiftUI's List and ForEach take a RandomAccessCollection); one key
 * is looked at, so a long list is checked at once (P7). name: "List". [-0, +0] */
void lun_list_check_data(lua_State *L, int idx, const char *name) {
  int top = lua_gettop(L);
  lua_pushvalue(L, idx);
  lun_proxy_unwrap(L, -1);
  if (lua_type(L, -1) != LUA_TTABLE || lua_getmetatable(L, -1) || lua_rawgeti(L, -1, 1) != LUA_TNIL) {
    lua_settop(L, top);                           /* not a plain table, or a list (with fields, maybe) */
    return;
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  if (lua_next(L, -2) && !lua_isinteger(L, -2)) {
    lun_describe(L, -2, 0);
    lun_error_here(L, "ui.%s: the data is a table with the key %s, not a list: rows are the elements 1…n "
                      "(pass a list, e.g. of its keys or its values)", name, lua_tostring(L, -1));
  }
  lua_settop(L, top);
}

/* ui.List(…)'s options form: ({ selection = binding }, data, row) or
 * ({ selection = binding }, { children }). Checks the options, keeps the
 * binding aside (lun_list_give_selection takes it) and leaves (data, row)
 * or (children) at 1, 2; returns 1 if it was that form. */
int lun_list_take_options(lua_State *L) {
  static const char *const options[] = {"selection", NULL};
  if (lua_gettop(L) == 1 && lua_type(L, 1) == LUA_TTABLE) {   /* List(selection:) and no rows after it */
    lua_pushliteral(L, "selection");
    if (lua_rawget(L, 1) != LUA_TNIL)
      lun_error_here(L, "ui.List({ selection = … }): %s: ui.List({ selection = b }, data, row) or "
                        "ui.List({ selection = b }, { views })", lun_list_options_test(L, 1)
                        ? "the rows are missing after the options" : "the options go in a table of their own, before the rows");
    lua_pop(L, 1);
  }
  if (lua_gettop(L) < 2 || lua_isfunction(L, 2) || !lun_list_options_test(L, 1)) return 0;   /* (data, row) */
  lun_check_keys(L, 1, options, "ui.List", "option");
  lua_getfield(L, 1, "selection");
  if (!lun_binding_test(L, -1)) {
    lun_describe(L, -1, 1);
    lun_error_here(L, "ui.List: selection must be a Binding (self[\"$selected\"]) to a value, or to a set "
                      "({ [id] = true }) for several, got %s", lua_tostring(L, -1));
  }
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_list_selection);
  lua_remove(L, 1);
  return 1;
}

/* Gives the List view value at vidx (just made) the selection kept aside by
 * lun_list_take_options: the binding, and the spec node:select checks
 * values against ({ kind = List, data = t } or { kind = List, sources }). [-0, +0] */
void lun_list_give_selection(lua_State *L, int vidx) {
  int bidx;
  vidx = lua_absindex(L, vidx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_list_selection);
  bidx = lua_gettop(L);
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_list_selection);
  lua_pushvalue(L, bidx);
  lua_setfield(L, vidx, "selection");
  lua_createtable(L, 0, 2);                       /* the control spec */
  lua_pushinteger(L, LUN_VIEW_LIST);
  lua_setfield(L, -2, "kind");
  if (lun_rawfield(L, vidx, "data") != LUA_TNIL) lua_setfield(L, -2, "data");
  else {
    lua_pop(L, 1);
    lua_newtable(L);
    lun_list_share(L, vidx, bidx, lua_gettop(L), 0);
    lua_setfield(L, -2, "sources");
  }
  lua_setfield(L, vidx, "control");
  lua_pop(L, 1);
}

/* 1 if the value at vidx is one a row of the data at didx stands for;
 * a long list is looked through within the time budget. [-0, +0] */
static int lun_list_in_data(lua_State *L, int didx, int vidx) {
  lun_State *S = lun_state(L);
  uint64_t start = lun_budget_clock();
  lua_Integer j, m = luaL_len(L, didx);
  int found = 0;
  for (j = 1; j <= m && !found; j++) {
    if ((j & 1023) == 0 && lun_budget_over(S, start))
      lun_error_here(L, "select: looking through the List's rows ran longer than the time budget");
    lua_geti(L, didx, j);
    lun_list_row_value(L, -1);
    found = lun_values_equal(L, -1, vidx);
    lua_pop(L, 2);
  }
  return found;
}

/* 1 if the value at vidx is one a row of the control spec at sidx stands for. [-0, +0] */
static int lun_list_selectable(lua_State *L, int sidx, int vidx) {
  lua_Integer i, n;
  int found = 0;
  if (lua_getfield(L, sidx, "data") != LUA_TNIL) {
    found = lun_list_in_data(L, lua_gettop(L), vidx);
    lua_pop(L, 1);
    return found;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, sidx, "sources") != LUA_TTABLE) { lua_pop(L, 1); return 0; }
  n = lun_rawlen_bounded(L, -1, "a List's selectable rows");
  for (i = 1; i <= n && !found; i++) {
    lua_rawgeti(L, -1, i);
    if (!lua_istable(L, -1)) luaL_error(L, "a view value was altered: its selection's sources hold what Lunette did not put there");
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    if (lua_type(L, -2) != LUA_TSTRING) luaL_error(L, "a view value was altered: its selection's sources hold what Lunette did not put there");
    if (strcmp(lua_tostring(L, -2), "tag") == 0) found = lun_values_equal(L, -1, vidx);
    else found = lun_list_in_data(L, lua_gettop(L), vidx);
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
  return found;
}

/* node:select(v) on a List with a selection (binding at bidx, control spec
 * at sidx, v at vidx): one value — the binding takes v (nil clears it);
 * a set — v joins it, or leaves it if it was there (a tap in edit mode).
 * v must be a row's value. [-0, +0] */
void lun_list_select(lua_State *L, int bidx, int sidx, int vidx) {
  int src;
  bidx = lua_absindex(L, bidx);
  sidx = lua_absindex(L, sidx);
  vidx = lua_absindex(L, vidx);
  if (lun_marker_kind(L, vidx) == LUN_MARK_NONE) { /* a row tagged ui.none: `.tag(nil as T?)` selects nil */
    lua_pushnil(L);
    lua_replace(L, vidx);
  }
  if (!lua_isnil(L, vidx) && !lun_list_selectable(L, sidx, vidx)) {
    lun_describe(L, vidx, 1);
    lun_error_here(L, "select: %s is the value of no row of the List (a row of data stands for its element's id "
                      "field, or for the element itself when it has none: select(obj), not ui.id(obj); a child "
                      "view for its :tag)", lua_tostring(L, -1));
  }
  lun_binding_get(L, bidx);
  src = lua_gettop(L);
  if (lua_type(L, src) != LUA_TTABLE && !lun_proxy_test(L, src)) {   /* one value */
    lun_binding_set(L, bidx, vidx);
    lua_pop(L, 1);
    return;
  }
  if (lua_isnil(L, vidx)) lun_error_here(L, "select: the List selects several (a set): pick a row's value, not nil");
  lun_proxy_unwrap(L, src);                       /* a set held in state: its raw table, to copy */
  lua_newtable(L);                                /* a set: a copy (a value) with v toggled */
  lua_pushnil(L);
  while (lua_next(L, src)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, src + 1);
  }
  lua_pushvalue(L, vidx);
  lua_pushvalue(L, vidx);
  lua_rawget(L, src + 1);
  if (lua_toboolean(L, -1)) lua_pushnil(L); else lua_pushboolean(L, 1);
  lua_remove(L, -2);
  lua_rawset(L, src + 1);
  lun_binding_set(L, bidx, src + 1);
  lua_settop(L, src - 1);
}

/* Stores the value on top in the walk's out table; returns its slot. [-1, +0] */
static int32_t lun_list_store(lua_State *L, lun_Walk *W) {
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  return W->slots;
}

/* 1 if the row value at vidx is selected by the marks at marks ({ sel,
 * set }: the selection, read once by the List's walk). [-0, +0] */
static int lun_list_selected(lua_State *L, int marks, int vidx) {
  int selected;
  vidx = lua_absindex(L, vidx);
  lua_getfield(L, marks, "sel");
  lua_getfield(L, marks, "set");
  if (lua_toboolean(L, -1)) {
    lua_pushvalue(L, vidx);
    lua_gettable(L, -3);                          /* the set, a value table (or its proxy) */
    selected = lua_toboolean(L, -1);
    lua_pop(L, 1);
  } else selected = lun_values_equal(L, -2, vidx);
  lua_pop(L, 2);
  return selected;
}

/* The walker at a List view value at v with a selection: keeps its binding
 * and spec for node:select and shows the selection (`selection=`). A
 * static List (children, no row function) also pushes the marks its
 * tagged children show (lun_list_tagged_row) and returns 1. [-0, +0|1] */
int lun_list_walk(lua_State *L, lun_Walk *W, int v) {
  int top = lua_gettop(L), set;
  if (lun_rawfield(L, v, "control") != LUA_TTABLE || lun_rawfield(L, v, "selection") == LUA_TNIL ||
      !lun_binding_test(L, -1)) {
    lua_settop(L, top);
    return 0;
  }
  lua_pushvalue(L, -1);
  lun_enabled_slot(L, W, LUN_ROLE_BINDING, lun_list_store(L, W));
  lua_pushvalue(L, -2);
  lun_enabled_slot(L, W, LUN_ROLE_CONTROL, lun_list_store(L, W));
  lun_binding_get(L, -1);
  set = lua_type(L, -1) == LUA_TTABLE || lun_proxy_test(L, -1);
  lun_describe(L, -1, 1);
  lun_out_attr(L, "selection", 9, lua_tostring(L, -1), lua_rawlen(L, -1));
  lua_pop(L, 1);
  if (lun_rawfield(L, v, "row") == LUA_TFUNCTION) {   /* rows of data: lun_list_rows_begin marks them */
    lua_settop(L, top);
    return 0;
  }
  lua_pop(L, 1);
  lua_createtable(L, 0, 2);                       /* the marks: { sel, set } */
  lua_insert(L, -2);
  lua_setfield(L, -2, "sel");
  lua_pushboolean(L, set);
  lua_setfield(L, -2, "set");
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  return 1;
}

/* A tagged view value at v, a child of a static List with a selection (its
 * marks at marks), its node open: shows selected=true when the selection
 * holds its tag, as a row of data does. An untagged view stands for no
 * value and shows nothing. [-0, +0] */
void lun_list_tagged_row(lua_State *L, lun_Walk *W, int marks, int v) {
  (void)W;
  lun_view_tag_of(L, v);
  if (!lua_isnil(L, -1) && lun_list_selected(L, marks, -1)) lun_out_attr(L, "selected", 8, "true", 4);
  lua_pop(L, 1);
}

/* 1 unless an editMode in the environment is off ("inactive"): a List
 * "configured with the onDelete(perform:) or onMove(perform:) modifier
 * provides controls to delete or move list items while in edit mode"
 * (https://developer.apple.com/documentation/swiftui/environmentvalues/editmode,
 * iOS). With no editMode (nil: macOS has none) rows move as ever. The read
 * is tracked: the rows render again when the mode changes. [-0, +0] */
static int lun_list_editing(lua_State *L, lun_Walk *W) {
  int editing = 1, top = lua_gettop(L);
  const char *mode;
  lua_pushliteral(L, "editMode");
  lun_envwalk_inherited(L, W, top + 1);
  if (lun_binding_test(L, -1)) {
    lun_binding_get(L, -1);
    mode = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    editing = strcmp(mode, "active") == 0 || strcmp(mode, "transient") == 0;   /* EditMode.isEditing */
  }
  lua_settop(L, top);
  return editing;
}

/* Before a list unit's rows: pushes what its rows show and keep, or nil —
 * { sel = the selection (tracked), set = several?, delete = onDelete,
 * move = onMove, while in edit mode }. Returns 1 unless nil. [-0, +1] */
int lun_list_rows_begin(lua_State *L, lun_Walk *W) {
  int any = 0, locked = 0;
  lua_createtable(L, 0, 4);
  if (lua_getfield(L, W->record, "selection") != LUA_TNIL && lun_binding_test(L, -1)) {
    lun_binding_get(L, -1);
    lua_pushboolean(L, lua_type(L, -1) == LUA_TTABLE || lun_proxy_test(L, -1));
    lua_setfield(L, -4, "set");
    lua_setfield(L, -3, "sel");
    lua_pushboolean(L, 1);
    lua_setfield(L, -3, "selects");
    any = 1;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, W->record, "deleteAction") == LUA_TFUNCTION) any = 1;
  lua_setfield(L, -2, "delete");
  if (lua_getfield(L, W->record, "moveAction") == LUA_TFUNCTION) {
    any = 1;
    if ((locked = !lun_list_editing(L, W))) { lua_pop(L, 1); lua_pushnil(L); }
  }
  lua_setfield(L, -2, "move");
  lua_pushboolean(L, locked);                     /* node:move refuses while edit mode is off */
  lua_setfield(L, W->record, "moveLocked");
  if (!any) { lua_pop(L, 1); lua_pushnil(L); }
  return any;
}

/* A row of a list unit, its Row node open (marks: what lun_list_rows_begin
 * pushed; elem: the element; i: its index): shows selected=true and its
 * value (tag=) under a selection, and keeps its index for node:delete and
 * node:move (deletable=true, movable=true, index=). [-0, +0] */
void lun_list_row(lua_State *L, lun_Walk *W, int marks, int elem, lua_Integer i) {
  int top = lua_gettop(L);
  size_t len;
  const char *s;
  if (lua_getfield(L, marks, "selects") == LUA_TBOOLEAN) {
    lun_list_row_value(L, elem);
    if (lun_list_selected(L, marks, -1)) lun_out_attr(L, "selected", 8, "true", 4);
    lun_describe(L, top + 2, 1);
    s = lua_tolstring(L, -1, &len);
    lun_out_attr(L, "tag", 3, s, len);
  }
  lua_settop(L, top);
  lua_getfield(L, marks, "delete");
  lua_getfield(L, marks, "move");
  if (!lua_isnil(L, -1) || !lua_isnil(L, -2)) {
    lua_pushinteger(L, i);
    lun_enabled_slot(L, W, LUN_ROLE_ROW, lun_list_store(L, W));
    if (!lua_isnil(L, -2)) lun_out_attr(L, "deletable", 9, "true", 4);
    if (!lua_isnil(L, -1)) {
      lua_pushfstring(L, "%I", (LUAI_UACINT)i);
      lun_out_attr(L, "movable", 7, "true", 4);
      lun_out_attr(L, "index", 5, lua_tostring(L, -1), lua_rawlen(L, -1));
    }
  }
  lua_settop(L, top);
}

/* Checks that view 1 is a ForEach over data, for modifier `name`. [-0, +0] */
static void lun_list_check_foreach(lua_State *L, const char *name) {
  if (!lun_view_test(L, 1)) luaL_argerror(L, 1, "view expected (call modifiers with ':')");
  if (!lun_list_kind(L, 1, LUN_VIEW_FOREACH) || lun_rawfield(L, 1, "data") == LUA_TNIL) {
    lun_view_name(L, 1);
    lun_error_here(L, "view:%s: it applies to a ForEach over data (ui.ForEach(items, row):%s(fn), in a List), not to %s",
                   name, name, lua_tostring(L, -1));
  }
  lua_pop(L, 1);
  if (!lua_isfunction(L, 2) && !lua_isnoneornil(L, 2))   /* nil: rows cannot go (or move), as SwiftUI's nil action */
    lun_error_here(L, "view:%s: a function (or nil) expected, got %s", name, luaL_typename(L, 2));
  lun_no_extra(L, strcmp(name, "onDelete") == 0 ? "view:onDelete" : "view:onMove", 1, 1);
  if (lun_rawfield(L, 1, strcmp(name, "onDelete") == 0 ? "deleteAction" : "moveAction") != LUA_TNIL && lua_isfunction(L, 2))
    lun_error_here(L, "view:%s: this ForEach has one already (a second would replace it without a word; nil removes it)", name);
  lua_pop(L, 1);
}

/* view:onDelete(fn) -> view: ForEach's onDelete(perform:) — fn(indices),
 * the 1-based indices of the rows to delete (node:delete()); nil: none. */
int lun_modifier_on_delete(lua_State *L) {
  lun_list_check_foreach(L, "onDelete");
  lua_settop(L, 2);
  lua_setfield(L, 1, "deleteAction");            /* not "onDelete": that name is the modifier */
  return 1;
}

/* view:onMove(fn) -> view: ForEach's onMove(perform:) — fn(indices, to),
 * to the position before which they go, counted before the move
 * (node:move(to)); nil: none. */
int lun_modifier_on_move(lua_State *L) {
  lun_list_check_foreach(L, "onMove");
  lua_settop(L, 2);
  lua_setfield(L, 1, "moveAction");
  return 1;
}

/* Appends the view value on top to view 1's extras. [-1, +0] */
static void lun_list_extra(lua_State *L) {
  if (lun_rawfield(L, 1, "extras") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, 1, "extras");
  }
  lua_insert(L, -2);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_pop(L, 1);
}

/* Checks the items at arg (a list of views) for modifier `name`. [-0, +0] */
static void lun_list_items_arg(lua_State *L, int arg, const char *name) {
  if (lua_type(L, arg) != LUA_TTABLE || lun_view_test(L, arg))
    lun_error_here(L, "view:%s: a list of views expected ({ ui.Button(…) }), got %s", name,
                   lun_view_test(L, arg) ? "one view (put it in a list)" : luaL_typename(L, arg));
}

/* view:swipeActions(buttons [, { edge = "trailing", allowsFullSwipe = true }])
 * -> view: swipeActions(edge:allowsFullSwipe:content:) — a SwipeActions node
 * after the view's content, holding the buttons (node:tap() on one runs it). */
int lun_modifier_swipe_actions(lua_State *L) {
  static const char *const options[] = {"edge", "allowsFullSwipe", NULL};
  static const char *const edges[] = {"trailing", "leading", NULL};
  int vidx;
  if (!lun_view_test(L, 1)) luaL_argerror(L, 1, "view expected (call modifiers with ':')");
  lua_settop(L, 3);
  lun_list_items_arg(L, 2, "swipeActions");
  vidx = lun_view_new(L, LUN_VIEW_SWIPEACTIONS);
  lua_createtable(L, 0, 2);
  lua_pushliteral(L, "trailing");
  lua_setfield(L, -2, "edge");
  if (!lua_isnil(L, 3)) {
    if (!lua_istable(L, 3) || lua_getmetatable(L, 3))
      luaL_argerror(L, 3, "an options table expected ({ edge = \"leading\", allowsFullSwipe = false })");
    lun_check_keys(L, 3, options, "view:swipeActions", "option");
    if (lua_getfield(L, 3, "edge") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING || (strcmp(lua_tostring(L, -1), edges[0]) && strcmp(lua_tostring(L, -1), edges[1]))) {
        lun_describe(L, -1, 1);
        lun_error_here(L, "view:swipeActions: edge must be \"trailing\" or \"leading\", got %s", lua_tostring(L, -1));
      }
      lua_setfield(L, -2, "edge");
    } else lua_pop(L, 1);
    if (lua_getfield(L, 3, "allowsFullSwipe") != LUA_TNIL) {
      if (!lua_isboolean(L, -1)) {
        lun_describe(L, -1, 1);
        lun_error_here(L, "view:swipeActions: allowsFullSwipe must be a boolean, got %s", lua_tostring(L, -1));
      }
      lua_setfield(L, -2, "allowsFullSwipe");
    } else lua_pop(L, 1);
  }
  lua_setfield(L, vidx, "attrs");
  lun_view_add_children(L, 2, vidx);
  lua_settop(L, vidx);
  lun_list_extra(L);
  lua_settop(L, 1);
  return 1;
}

/* view:searchable(text [, { prompt = "Search books" }]) -> view:
 * searchable(text:prompt:) — a search field (a TextField with
 * searchable=true, its placeholder the prompt, "Search" by default) after
 * the view's content; typing writes the binding. One per view value. */
int lun_modifier_searchable(lua_State *L) {
  static const char *const options[] = {"prompt", NULL};
  int vidx;
  if (!lun_view_test(L, 1)) luaL_argerror(L, 1, "view expected (call modifiers with ':')");
  lua_settop(L, 3);
  if (!lun_binding_test(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "a Binding to the search text expected (self[\"$query\"]), got %s", luaL_typename(L, 2)));
  if (lun_rawfield(L, 1, "searchField") != LUA_TNIL) lun_error_here(L, "view:searchable: this view is searchable already");
  lua_pop(L, 1);
  if (!lun_binding_is_functions(L, 2)) {         /* searchable(text: Binding<String>) */
    lun_binding_get(L, 2);
    if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TSTRING)
      lun_error_here(L, "view:searchable: its binding holds a %s; the search text is a string", luaL_typename(L, -1));
    lua_pop(L, 1);
  }
  vidx = lun_view_new(L, LUN_VIEW_TEXTFIELD);
  lua_pushliteral(L, "Search");
  if (!lua_isnil(L, 3)) {
    if (!lua_istable(L, 3) || lua_getmetatable(L, 3)) luaL_argerror(L, 3, "an options table expected ({ prompt = \"Search books\" })");
    lun_check_keys(L, 3, options, "view:searchable", "option");
    if (lua_getfield(L, 3, "prompt") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING) lun_error_here(L, "view:searchable: prompt must be a string, got %s", luaL_typename(L, -1));
      lua_replace(L, -2);
    } else lua_pop(L, 1);
  }
  lua_setfield(L, vidx, "text");
  lua_pushvalue(L, 2);
  lua_setfield(L, vidx, "binding");
  lua_createtable(L, 0, 1);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "searchable");
  lua_setfield(L, vidx, "attrs");
  lua_pushboolean(L, 1);
  lua_setfield(L, 1, "searchField");
  lua_settop(L, vidx);
  lun_list_extra(L);
  lua_settop(L, 1);
  return 1;
}

/* view:toolbar(items [, { placement = "automatic" }]) -> view: toolbar(content:)
 * — a Toolbar node after the view's content holding the items (buttons,
 * any view); several :toolbar calls add several. */
int lun_modifier_toolbar(lua_State *L) {
  static const char *const options[] = {"placement", NULL};
  static const char *const placements[] = {"automatic", "primaryAction", "confirmationAction", "cancellationAction",
                                           "destructiveAction", "navigation", "principal", "status", "bottomBar",
                                           "topBarLeading", "topBarTrailing", NULL};
  int vidx, i, ok = 0;
  if (!lun_view_test(L, 1)) luaL_argerror(L, 1, "view expected (call modifiers with ':')");
  lua_settop(L, 3);
  lun_list_items_arg(L, 2, "toolbar");
  vidx = lun_view_new(L, LUN_VIEW_TOOLBAR);
  if (!lua_isnil(L, 3)) {
    if (!lua_istable(L, 3) || lua_getmetatable(L, 3)) luaL_argerror(L, 3, "an options table expected ({ placement = \"bottomBar\" })");
    lun_check_keys(L, 3, options, "view:toolbar", "option");
    if (lua_getfield(L, 3, "placement") != LUA_TNIL) {
      for (i = 0; placements[i] && !ok; i++) ok = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), placements[i]) == 0;
      if (!ok) {
        lun_describe(L, -1, 1);
        lun_error_here(L, "view:toolbar: placement %s is not one Lunette knows (automatic, primaryAction, "
                          "confirmationAction, cancellationAction, destructiveAction, navigation, principal, status, "
                          "bottomBar, topBarLeading, topBarTrailing)", lua_tostring(L, -1));
      }
      lua_createtable(L, 0, 1);
      lua_insert(L, -2);
      lua_setfield(L, -2, "placement");
      lua_setfield(L, vidx, "attrs");
    } else lua_pop(L, 1);
  }
  lun_view_add_children(L, 2, vidx);
  lua_settop(L, vidx);
  lun_list_extra(L);
  lua_settop(L, 1);
  return 1;
}

/* Pushes the key a navigationDestination's type at idx stands for: a type
 * name ("string", "number", "boolean", "table"), or the name of a model
 * class or host type (its metatable's __metatable); raises otherwise. [-0, +1] */
static void lun_list_destination_key(lua_State *L, int idx) {
  static const char *const names[] = {"string", "number", "boolean", "table", NULL};
  int i;
  if (lua_type(L, idx) == LUA_TSTRING) {
    for (i = 0; names[i]; i++)
      if (strcmp(lua_tostring(L, idx), names[i]) == 0) { lua_pushvalue(L, idx); return; }
  } else if ((lua_type(L, idx) == LUA_TTABLE || lua_type(L, idx) == LUA_TUSERDATA) &&
             luaL_getmetafield(L, idx, "__metatable") != LUA_TNIL) {
    if (lua_type(L, -1) == LUA_TSTRING && !lun_view_test(L, idx) && !lun_viewtype_test(L, idx)) return;
    lua_pop(L, 1);
  }
  lun_describe(L, idx, 1);
  lun_error_here(L, "view:navigationDestination: `for` must be a model class (Book), a host type (ui.types.Inbox) "
                    "or a type name (\"string\", \"number\", \"boolean\", \"table\"), got %s", lua_tostring(L, -1));
}

/* view:navigationDestination(T, fn) or ({ ["for"] = T }, fn) -> view:
 * navigationDestination(for:destination:) — a value of type T on the path
 * of the stack around the view becomes fn(value)'s screen. It reaches the
 * stack as the preference "lunette.navigationDestinations" ({ { key, fn, where } }:
 * where it was given, "file:12: ", for a destination that returns no view). */
int lun_modifier_navigation_destination(lua_State *L) {
  static const char *const options[] = {"for", NULL};
  if (!lun_view_test(L, 1)) luaL_argerror(L, 1, "view expected (call modifiers with ':')");
  lua_settop(L, 3);
  if (lua_type(L, 2) == LUA_TTABLE && !lua_getmetatable(L, 2)) {   /* { ["for"] = Book } */
    lun_check_keys(L, 2, options, "view:navigationDestination", "option");
    lua_getfield(L, 2, "for");
    lua_replace(L, 2);
  } else if (lua_type(L, 2) == LUA_TTABLE) lua_pop(L, 1);
  lun_list_destination_key(L, 2);                 /* 4 */
  if (!lua_isfunction(L, 3))
    lun_error_here(L, "view:navigationDestination: a function(value) returning the screen expected, got %s", luaL_typename(L, 3));
  if (lun_rawfield(L, 1, "prefs") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, 1, "prefs");
  }
  lua_createtable(L, 2, 0);                       /* { "lunette.navigationDestinations", { { key, fn, where } } } */
  lua_pushliteral(L, "lunette.navigationDestinations");
  lua_rawseti(L, -2, 1);
  lua_createtable(L, 1, 0);
  lua_createtable(L, 3, 0);
  lua_pushvalue(L, 4);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, 2);
  luaL_where(L, 1);
  lua_rawseti(L, -2, 3);
  lua_rawseti(L, -2, 1);
  lua_rawseti(L, -2, 2);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_settop(L, 1);
  return 1;
}
