/*
 * lun_modifier.c — modifiers: methods on every view value.
 *
 * Each modifier appends a record { name, value } to the view's `mods`
 * (display modifiers, shown in the tree) or sets a dedicated field
 * (`id`, `env`). A modifier returns the view itself, so calls chain.
 * Unknown names raise an error listing the position and the view.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"

/* Argument kinds of a display modifier. */
typedef struct lun_ModSpec {
  const char *name;
  const char *arg;   /* "s" string, "f" function, "v" any, "b" a boolean or nil; the values
                        lun_modvalue.c checks: "F" a frame's sizes, "c" a colour, "t" a font's
                        text style, "B" a button style, "T" a text field style, "u" 0 to 1,
                        "l" a length, "P" padding's length or edges and length (two arguments),
                        "e" true, false (none recorded) or none */
} lun_ModSpec;

static const lun_ModSpec lun_display_mods[] = {
  {"navigationTitle", "s"}, {"font", "t"}, {"padding", "P"},
  {"foregroundStyle", "c"}, {"textFieldStyle", "T"}, {"buttonStyle", "B"},
  {"scaleEffect", "l"}, {"background", "c"}, {"onSubmit", "f"},
  {"opacity", "u"}, {"frame", "F"}, {"bold", "e"}, {"italic", "e"},
  {"disabled", "b"}, {"tag", "v"}, {"refreshable", "f"}, {NULL, NULL}};

/* Checks argument 2 of modifier `name`'s call against its spec; for a
 * value lun_modvalue.c checks, may put a checked copy in its place. */
static void lun_modifier_check(lua_State *L, const char *name, const char *arg) {
  switch (arg[0]) {
    case 's':
      if (lua_type(L, 2) != LUA_TSTRING && lua_type(L, 2) != LUA_TNUMBER) luaL_typeerror(L, 2, "string");
      break;
    case 'f':
      lun_check_callback(L, 2);
      break;
    case 'v':
      luaL_checkany(L, 2);
      break;
    case 'b':
      lun_enabled_check_arg(L);
      break;
    case 'F': case 'c': case 't': case 'B': case 'T': case 'u': case 'l': case 'e': case 'P':
      lun_modvalue_check(L, name, arg);
      break;
    default:
      break;
  }
}

/* Checks that argument 1 is a view value (a modifier called with ':'). */
static void lun_modifier_self(lua_State *L) {
  if (!lun_view_test(L, 1)) luaL_argerror(L, 1, "view expected (call modifiers with ':')");
}

/* Raises, naming the caller's line, if a modifier named `name` got more
 * than `most` arguments after the view. Trailing nils are no arguments (a
 * wrapper forwarding `...`), and one number after a modifier's string is
 * gsub's count (`:navigationTitle(s:gsub(...))`). [-0, +0] */
static void lun_modifier_arity(lua_State *L, const char *name, int most) {
  int got = lua_gettop(L);
  while (got > 1 && lua_isnil(L, got)) got--;
  got--;                                          /* the view */
  if (got == most + 1 && most >= 1 && lua_type(L, most + 1) == LUA_TSTRING && lua_type(L, got + 1) == LUA_TNUMBER)
    return;
  if (got > most)
    lun_error_here(L, "view:%s takes %s%d argument%s, got %d", name, most ? "at most " : "", most,
                   most == 1 ? "" : "s", got);
}

/* Raises, naming the caller's line, if the value at idx that `what` compares
 * between renders cannot be compared by its contents: a function or a
 * coroutine is a new one each render (SwiftUI's id and value parameters are
 * Equatable; a closure is not), so it would restart or fire every time (D03). [-0, +0] */
static void lun_modifier_comparable(lua_State *L, int idx, const char *what) {
  int t = lua_type(L, idx);
  if (t == LUA_TFUNCTION || t == LUA_TTHREAD)
    lun_error_here(L, "%s must be a value compared by its contents (a string, number, boolean, object or table "
                   "of them), got a %s", what, lua_typename(L, t));
}

/* Pushes view.field, creating an empty table there if missing. [-0, +1] */
static void lun_modifier_list(lua_State *L, const char *field) {
  if (lun_rawfield(L, 1, field) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, 1, field);
  }
}

/* A display modifier: (view, arg?) -> view. Upvalues: name, arg spec. */
/* Raises if the mods list on top already holds an :onSubmit: one a view
 * value, so a field's chain (lun_submit.c) runs its actions in the order
 * the views nest. [-0, +0] */
static void lun_modifier_one_submit(lua_State *L) {
  lua_Integer i, n = lun_rawlen_bounded(L, -1, "a view's modifier list");
  for (i = 1; i <= n; i++) {
    int is;
    lua_rawgeti(L, -1, i);
    is = lua_rawgeti(L, -1, 1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "onSubmit") == 0;
    lua_pop(L, 2);
    if (is) lun_error_here(L, "view:onSubmit: this view has one already; put the second on a view around it (ui.Group { view })");
  }
}

static int lun_modifier_display(lua_State *L) {
  lun_modifier_self(L);
  lun_modifier_arity(L, lua_tostring(L, lua_upvalueindex(1)),
                     lua_tostring(L, lua_upvalueindex(2))[0] == 'P' ? 2 : lua_tostring(L, lua_upvalueindex(2))[0] ? 1 : 0);
  lun_modifier_check(L, lua_tostring(L, lua_upvalueindex(1)), lua_tostring(L, lua_upvalueindex(2)));
  lua_settop(L, 2);
  if (lua_tostring(L, lua_upvalueindex(2))[0] == 'e') {   /* bold(_ isActive: Bool = true) */
    if (lua_isboolean(L, 2) && !lua_toboolean(L, 2)) { lua_settop(L, 1); return 1; }   /* false: not bold */
    lua_pushnil(L);                               /* true: recorded as :bold() */
    lua_replace(L, 2);
  }
  lun_modifier_list(L, "mods");
  if (strcmp(lua_tostring(L, lua_upvalueindex(1)), "onSubmit") == 0) lun_modifier_one_submit(L);
  lua_createtable(L, 2, 0);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 2);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  if (strcmp(lua_tostring(L, lua_upvalueindex(1)), "navigationTitle") == 0) {   /* the title reaches the stack */
    lun_modifier_list(L, "prefs");                /* around it as a preference (its top screen's title) */
    lua_createtable(L, 2, 0);
    lua_pushliteral(L, "lunette.navigationTitle");
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  }
  lua_settop(L, 1);
  return 1;
}

/* Puts an environment entry on the view at 1: an object (at 2, alone),
 * keyed by its type, or ("key", value). Returns the view. */
static int lun_modifier_env_put(lua_State *L) {
  lun_modifier_self(L);
  luaL_checkany(L, 2);
  lua_createtable(L, 2, 0);
  if (lua_gettop(L) == 3) {                       /* environment(obj): keyed by its type */
    lun_env_type_key(L, 2);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, 2);
  } else {
    if (lua_type(L, 2) != LUA_TSTRING)            /* (obj, extra): the object form takes it alone */
      lun_error_here(L, ":environment takes an object alone, or a key's name and a value: got a %s and a %s",
                     luaL_typename(L, 2), luaL_typename(L, 3));
    lun_envbuiltin_check(L, 2, 3);                /* a built-in value is checked as SwiftUI's type is */
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, 3);
  }
  lua_rawseti(L, -2, 2);
  lun_envlist_add(L, 1);
  lua_settop(L, 1);
  return 1;
}

/* view:environment(obj) or view:environment("key", value) -> view. An
 * ObservableObject goes in with :environmentObject: "This initializer only
 * accepts objects conforming to the Observable protocol. For reading
 * environment objects that conform to ObservableObject, use
 * EnvironmentObject instead"
 * (https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf). */
static int lun_modifier_environment(lua_State *L) {
  lun_no_extra(L, "view:environment", 2, 1);
  if (lua_gettop(L) == 2 && lua_type(L, 2) == LUA_TSTRING)   /* a key without its value */
    lun_error_here(L, "view:environment(\"%s\"): a key takes its value too (:environment(\"%s\", value)); "
                      ":environment(obj) takes a model", lua_tostring(L, 2), lua_tostring(L, 2));
  if (lua_gettop(L) == 2 && lun_object_is_observable_object(L, 2))
    lun_error_here(L, "view:environment: %s is an ObservableObject: pass it with :environmentObject(obj), "
                      "and read it with environmentObject = { name = Type }", luaL_tolstring(L, 2, NULL));
  if (lua_gettop(L) == 2 && lun_env_type_kind(L, 2)) {   /* environment(_:) takes an object, not its type */
    lun_env_type_key(L, 2);
    lun_error_here(L, "view:environment: %s is a type: pass an instance of it, :environment(%s(…))",
                   lua_tostring(L, -1) + 1, lua_tostring(L, -1) + 1);
  }
  if (lua_type(L, 2) == LUA_TSTRING && lun_env_reserved(lua_tostring(L, 2)))
    lun_error_here(L, "view:environment: a key may not begin with '@', nor be one of Lunette's own, "
                      "got '%s'", lua_tostring(L, 2));
  if (lua_gettop(L) >= 3 && lua_type(L, 2) == LUA_TSTRING && !lun_env_declared(L, 2))   /* no such key path */
    lun_error_here(L, "view:environment: environment key '%s' is not declared (ui.EnvironmentKey(\"%s\", default) "
                      "or ui.Entry)", lua_tostring(L, 2), lua_tostring(L, 2));
  return lun_modifier_env_put(L);
}

/* Appends a life modifier { kind, fn, value, initial } to view.life; returns the view. */
static int lun_modifier_life(lua_State *L, int kind, int fnarg, int valuearg, int initial) {
  lun_modifier_self(L);
  lun_check_callback(L, fnarg);
  lun_modifier_list(L, "life");
  lua_createtable(L, 4, 0);
  lua_pushinteger(L, kind);
  lua_rawseti(L, -2, LUN_LIFE_KIND);
  lua_pushvalue(L, fnarg);
  lua_rawseti(L, -2, LUN_LIFE_FN);
  if (valuearg) {
    lua_pushvalue(L, valuearg);
    lua_rawseti(L, -2, LUN_LIFE_VALUE);
  }
  lua_pushboolean(L, initial);
  lua_rawseti(L, -2, LUN_LIFE_INITIAL);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_settop(L, 1);
  return 1;
}

/* view:onAppear(fn) -> view: fn runs after the flush in which the view first appears. */
static int lun_modifier_on_appear(lua_State *L) { return lun_modifier_life(L, LUN_ON_APPEAR, 2, 0, 0); }
/* view:onDisappear(fn) -> view: fn runs after the flush in which the view goes away. */
static int lun_modifier_on_disappear(lua_State *L) { return lun_modifier_life(L, LUN_ON_DISAPPEAR, 2, 0, 0); }
/* view:task(fn) -> view: fn runs as a task when the view appears; closed when it goes. */
static int lun_modifier_task(lua_State *L) {
  static const char *const options[] = {"id", NULL};
  if (lua_isnoneornil(L, 3)) return lun_modifier_life(L, LUN_ON_TASK, 2, 0, 0);
  luaL_checktype(L, 3, LUA_TTABLE);               /* { id = v }: restarted when v changes (F06) */
  lun_check_keys(L, 3, options, "view:task", "option");
  lua_getfield(L, 3, "id");
  lua_replace(L, 3);
  lun_modifier_comparable(L, 3, "view:task: its id");
  lun_snapshot(L, 3, "task id");                  /* a table id is compared by its contents (Equatable) */
  return lun_modifier_life(L, LUN_ON_TASK, 2, 3, 1);
}

/* view:onReceive(publisher, fn) -> view: fn(v) for each value sent while the view is shown. */
static int lun_modifier_on_receive(lua_State *L) {
  int t = lua_type(L, 2);
  if ((t != LUA_TTABLE && t != LUA_TUSERDATA) || lua_getfield(L, 2, "sink") != LUA_TFUNCTION)
    luaL_argerror(L, 2, lua_pushfstring(L, "a publisher (ui.Subject, ui.Timer.publish, ...) expected, got %s", luaL_typename(L, 2)));
  lua_pop(L, 1);
  return lun_modifier_life(L, LUN_ON_RECEIVE, 3, 2, 0);
}

/* view:onChange(value, fn, { initial = bool }) -> view: fn(old, new) after
 * an update where value changed. A plain table is kept as a snapshot and
 * compared by contents, as an Equatable array is (F10). */
static int lun_modifier_on_change(lua_State *L) {
  static const char *const options[] = {"initial", NULL};
  int initial = 0;
  if (!lua_isnoneornil(L, 4)) {
    luaL_checktype(L, 4, LUA_TTABLE);
    lun_check_keys(L, 4, options, "view:onChange", "option");
    if (lua_getfield(L, 4, "initial") != LUA_TNIL && !lua_isboolean(L, -1))
      lun_error_here(L, "view:onChange: option 'initial' must be true or false, got %s",
                     lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                                                         : luaL_typename(L, -1));
    initial = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  lua_settop(L, 3);
  lun_modifier_comparable(L, 2, "view:onChange: the value it watches");
  lun_snapshot(L, 2, "onChange value");
  return lun_modifier_life(L, LUN_ON_CHANGE, 3, 2, initial);
}

/* view:environmentObject(obj) -> view: an ObservableObject for environmentObject sections. */
static int lun_modifier_environment_object(lua_State *L) {
  if (!lun_object_is_observable_object(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "ObservableObject expected, got %s", luaL_typename(L, 2)));
  lua_settop(L, 2);
  return lun_modifier_env_put(L);
}

/* Sets view.field = { arg 2, arg 3 } and returns the view. */
static int lun_modifier_pair(lua_State *L, const char *field) {
  lua_settop(L, 3);
  lua_createtable(L, 2, 0);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, 2);
  lua_setfield(L, 1, field);
  lua_settop(L, 1);
  return 1;
}

/* Raises if the view at 1 has the modifier kept in `field` already: one of
 * each a view value (a second would replace the first, silently). */
static void lun_modifier_once(lua_State *L, const char *field, const char *call) {
  if (lun_rawfield(L, 1, field) != LUA_TNIL)
    lun_error_here(L, "%s: this view has one already; put the second on a view around it (ui.Group { view })", call);
  lua_pop(L, 1);
}

/* view:animation(a, value) -> view: changes to this view are animated with
 * a when value changes; with a nil, they are not animated then, whatever
 * transaction reaches it. Written after a :transaction, it is outside it:
 * [3] = true, and the walk lets the transaction's fn see (and change) the
 * animation it adds (lun_walktx.c). */
static int lun_modifier_animation(lua_State *L) {
  int outer;
  lun_modifier_self(L);
  if (lua_gettop(L) < 3)                          /* animation(_:) alone is deprecated; watching nothing, it never fires */
    lun_error_here(L, "view:animation(a, value): the value it watches is missing (SwiftUI's animation(_:) without "
                   "a value is deprecated): give the value whose change animates this view");
  if (lua_isnil(L, 2)) {    /* :animation(nil, value): "If animation is nil, the view
                                                     doesn't animate" (animation(_:value:)); kept as false */
    lua_pushboolean(L, 0);
    lua_replace(L, 2);
  } else lun_animation_check(L, 2);
  lun_modifier_once(L, "anim", "view:animation(a, value)");
  lua_settop(L, 3);
  lun_modifier_comparable(L, 3, "view:animation: the value it watches");
  lun_snapshot(L, 3, "animation value");          /* a table value is compared by its contents (Equatable) */
  outer = lun_rawfield(L, 1, "txfn") != LUA_TNIL;
  lua_pop(L, 1);
  lun_modifier_pair(L, "anim");
  if (outer) {
    lun_rawfield(L, 1, "anim");
    lua_pushboolean(L, 1);
    lua_rawseti(L, -2, 3);
    lua_pop(L, 1);
  }
  return 1;
}

/* view:transaction(fn [, { value = v }]) -> view: fn(t) may read and
 * change the transaction that reaches this view; its animation then applies
 * to the view's subtree (T02). With a value, fn runs only in an update in
 * which the value changed (compared by contents, D03), as SwiftUI's
 * transaction(value:_:) "applies the given transaction mutation function
 * ... whenever value changes". */
static int lun_modifier_transaction(lua_State *L) {
  static const char *const options[] = {"value", NULL};
  lun_modifier_self(L);
  lun_check_callback(L, 2);
  lun_modifier_once(L, "txfn", "view:transaction(fn)");
  if (!lua_isnoneornil(L, 3)) {                   /* { value = v }: kept as { v } (nil is a value) */
    luaL_checktype(L, 3, LUA_TTABLE);
    lun_check_keys(L, 3, options, "view:transaction", "option");
    lua_getfield(L, 3, "value");
    lun_modifier_comparable(L, -1, "view:transaction: the value it watches");
    lun_snapshot(L, -1, "transaction value");
    lua_createtable(L, 1, 0);
    lua_insert(L, -2);
    lua_rawseti(L, -2, 1);
    lua_setfield(L, 1, "txval");
  }
  lua_settop(L, 2);
  lua_setfield(L, 1, "txfn");
  return 1;
}

/* view:sheet(isPresented, content [, { onDismiss = fn }]) -> view: presents
 * content (a view, or a function returning one) while the binding is true;
 * its `dismiss` sets it false. view:sheet({ item = binding, onDismiss = fn },
 * function(item) ... end): presents content(item) while the binding holds a
 * value, a new sheet for each item; its `dismiss` sets it nil (sheet(item:),
 * T07). onDismiss runs once each time the sheet goes (sheet(isPresented:
 * onDismiss:content:)). */
static int lun_modifier_present(lua_State *L, const char *style) {
  static const char *const itemOptions[] = {"item", "onDismiss", NULL};
  static const char *const options[] = {"onDismiss", NULL};
  char owner[32];
  int itemMode = 0;
  snprintf(owner, sizeof owner, "view:%s", style);
  lun_modifier_self(L);
  lua_settop(L, 4);
  if (lua_type(L, 2) == LUA_TTABLE && !lua_getmetatable(L, 2)) {
    lun_check_keys(L, 2, itemOptions, owner, "option");
    if (!lua_isnil(L, 4)) luaL_argerror(L, 4, "with { item = ... }, onDismiss goes in that table");
    lua_getfield(L, 2, "onDismiss");
    lua_replace(L, 4);                            /* the options' onDismiss, where the other form has it */
    if (lua_getfield(L, 2, "item") == LUA_TNIL || !lun_binding_test(L, -1))
      luaL_argerror(L, 2, "{ item = binding } expected (self[\"$selected\"])");
    lua_replace(L, 2);
    if (!lua_isfunction(L, 3))
      luaL_argerror(L, 3, lua_pushfstring(L, "a function(item) returning a view expected, got %s", luaL_typename(L, 3)));
    itemMode = 1;
  } else if (!lua_isnil(L, 4)) {
    luaL_checktype(L, 4, LUA_TTABLE);
    lun_check_keys(L, 4, options, owner, "option");
    lua_getfield(L, 4, "onDismiss");
    lua_replace(L, 4);
  }
  if (!lua_isnil(L, 4) && !lua_isfunction(L, 4))
    luaL_argerror(L, 4, lua_pushfstring(L, "onDismiss must be a function, got %s", luaL_typename(L, 4)));
  if (!lun_binding_test(L, 2))
    luaL_argerror(L, 2, lua_pushfstring(L, "Binding expected (self[\"$showSheet\"]), got %s", luaL_typename(L, 2)));
  if (!lua_isfunction(L, 3) && !lun_view_test(L, 3) && !lun_viewtype_test(L, 3))
    luaL_argerror(L, 3, lua_pushfstring(L, "a view or a function returning one expected, got %s", luaL_typename(L, 3)));
  if (lun_rawfield(L, 1, "sheetSpec") == LUA_TTABLE) {   /* it would replace the first without a word */
    lua_rawgeti(L, -1, 5);
    lun_error_here(L, "%s: this view presents a %s already; attach the second to another view", owner,
                   lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "sheet");
  }
  lua_pop(L, 1);
  lua_createtable(L, 5, 0);                       /* { binding, content, itemMode, onDismiss, style } */
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, 2);
  lua_pushboolean(L, itemMode);
  lua_rawseti(L, -2, 3);
  lua_pushvalue(L, 4);
  lua_rawseti(L, -2, 4);
  lua_pushstring(L, style);
  lua_rawseti(L, -2, 5);
  lua_setfield(L, 1, "sheetSpec");            /* not "sheet": that name is the modifier */
  lua_settop(L, 1);
  return 1;
}

/* view:sheet(isPresented | { item, onDismiss }, content [, { onDismiss }]) -> view. */
static int lun_modifier_sheet(lua_State *L) { return lun_modifier_present(L, "sheet"); }
/* view:fullScreenCover(…) -> view: a sheet drawn over the whole screen
 * (https://developer.apple.com/documentation/swiftui/view/fullscreencover(ispresented:ondismiss:content:)). */
static int lun_modifier_full_screen_cover(lua_State *L) { return lun_modifier_present(L, "fullScreenCover"); }
/* view:popover(…) -> view: a sheet drawn beside its view
 * (https://developer.apple.com/documentation/swiftui/view/popover(ispresented:attachmentanchor:arrowedge:content:)). */
static int lun_modifier_popover(lua_State *L) { return lun_modifier_present(L, "popover"); }

/* view:id(v) -> view: explicit identity. */
static int lun_modifier_id(lua_State *L) {
  lun_modifier_self(L);
  luaL_checkany(L, 2);
  lun_no_extra(L, "view:id", 1, 1);
  lun_modifier_comparable(L, 2, "view:id's value");   /* id(_:) takes a Hashable value: a closure is new each render */
  lua_settop(L, 2);
  if (lun_rawfield(L, 1, "identity") != LUA_TNIL) {   /* kept apart from the method's name, so a second call reaches it */
    lun_describe(L, -1, 1);
    return lun_error_here(L, "view:id: this view has an :id already (%s); a view value has one identity: give one :id, "
                             "a table of the values if it depends on several (:id({ a, b }) compares by contents)",
                          lua_tostring(L, -1));
  }
  lua_pop(L, 1);
  lua_setfield(L, 1, "identity");
  return 1;
}

/* view:focused(binding[, value]) -> view: the field is focused while the
 * binding holds value (true by default), as .focused($focus, equals:);
 * node:focus() sets it (T05). As in SwiftUI, whose focused(_:) takes a
 * FocusState<Bool>.Binding and focused(_:equals:) a FocusState<Value>.Binding,
 * the binding must reach a focusState name: a plain state's would let two
 * fields be focused at once. */
static int lun_modifier_focused(lua_State *L) {
  int equals = !lua_isnoneornil(L, 3), kind;
  lun_modifier_self(L);
  lun_no_extra(L, "view:focused", 2, 1);
  switch (lun_rawfield(L, 1, "kind") == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : 0) {
    case LUN_VIEW_VSTACK: case LUN_VIEW_HSTACK: case LUN_VIEW_ZSTACK: case LUN_VIEW_GROUP: case LUN_VIEW_LIST:
    case LUN_VIEW_FOREACH: case LUN_VIEW_FORM: case LUN_VIEW_SECTION: case LUN_VIEW_SCROLLVIEW:
    case LUN_VIEW_COMPONENT:                      /* SwiftUI's "when focus enters the modified view": */
      lun_error_here(L, "view:focused on a %s: focus within a view that holds others is not offered; put "
                        ":focused on the field inside it", lun_view_kind_name((int)lua_tointeger(L, -1)));
      break;
    default:
      break;
  }
  lua_pop(L, 1);
  kind = lun_binding_test(L, 2) ? lun_self_focus_binding(L, 2) : 0;
  if (kind == LUN_FOCUS_BOOL && equals && !lua_isboolean(L, 3)) {   /* equals: a Bool state's value is a Bool */
    lun_binding_target(L, 2);
    return lun_error_here(L, "view:focused: '%s' is a Bool focusState (declared %s = false), given a %s: pass it "
                          "alone, :focused(self[\"$%s\"]), or list the name to focus a field by a value",
                          lua_tostring(L, -1), lua_tostring(L, -1), luaL_typename(L, 3), lua_tostring(L, -1));
  }
  if (kind == LUN_FOCUS_VALUE && !equals) {
    lun_binding_target(L, 2);
    return lun_error_here(L, "view:focused: '%s' holds which field is focused (nil when none): give the value that "
                          "names this field, :focused(self[\"$%s\"], value), or declare a Bool one "
                          "(focusState = { %s = false })", lua_tostring(L, -1), lua_tostring(L, -1), lua_tostring(L, -1));
  }
  if (!kind) {
    const char *name = "isFocused", *got;
    if (lun_binding_test(L, 2)) {
      lun_binding_target(L, 2);
      if (lua_type(L, -1) == LUA_TSTRING) {
        name = lua_tostring(L, -1);
        got = lua_pushfstring(L, "a binding to '%s', which is no focusState name", name);
      } else {
        got = "a Binding that reaches no focusState name (a constant, a get/set pair, an element)";
      }
    } else {
      got = luaL_typename(L, 2);
    }
    return lun_error_here(L, "view:focused: a FocusState binding expected (declare focusState = { %s%s%s } and pass "
                          "self[\"$%s\"]), got %s", equals ? "\"" : "", name, equals ? "\"" : " = false", name, got);
  }
  if (!equals) { lua_settop(L, 2); lua_pushboolean(L, 1); }
  return lun_modifier_pair(L, "focus");           /* the last one given: a value built once takes a new one each render */
}

/* Appends { key, value } to the view's list `field`. */
static int lun_modifier_pair_list(lua_State *L, const char *field) {
  lun_modifier_self(L);
  luaL_checkstring(L, 2);
  lua_settop(L, 3);
  if (lun_rawfield(L, 1, field) != LUA_TTABLE) {   /* raw: a missing field is no modifier to look up */
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, 1, field);
  }
  lua_createtable(L, 2, 0);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, 2);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_settop(L, 1);
  return 1;
}

/* view:preference(key, value) -> view: a value for ancestors' onPreferenceChange (T06). */
static int lun_modifier_preference(lua_State *L) {
  lun_pref_check_declared(L, 2, "view:preference");
  return lun_modifier_pair_list(L, "prefs");
}

/* view:onPreferenceChange(key, fn) -> view: fn(value) after an update that changed the
 * key's value reduced over this view's subtree (T06). */
static int lun_modifier_on_preference_change(lua_State *L) {
  lua_Integer site;
  lun_pref_check_declared(L, 2, "view:onPreferenceChange");
  lun_check_callback(L, 3);
  site = lun_site_here(L);                        /* where it is written: part of its identity */
  lun_modifier_pair_list(L, "prefWatch");
  lun_rawfield(L, 1, "prefWatch");
  lua_rawgeti(L, -1, (lua_Integer)lua_rawlen(L, -1));
  lua_pushinteger(L, site);
  lua_rawseti(L, -2, 3);
  lua_settop(L, 1);
  return 1;
}

/* __index of view values: the modifier named by the key, or an error. */
static int lun_view_index(lua_State *L) {
  const char *key;
  if (!lun_view_test(L, 1)) luaL_typeerror(L, 1, "view");
  lua_settop(L, 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  key = luaL_tolstring(L, 2, NULL);
  lun_view_name(L, 1);
  return lun_error_here(L, "unknown modifier '%s' on %s", key, lua_tostring(L, -1));
}

/* __tostring of view values: (view) -> "Text \"Dune\"" or "BookView". */
static int lun_view_tostring(lua_State *L) {
  if (!lun_view_test(L, 1)) luaL_typeerror(L, 1, "view");
  lua_settop(L, 1);
  lun_view_name(L, 1);
  if (lun_rawfield(L, 1, "text") == LUA_TSTRING) lua_pushfstring(L, "%s \"%s\"", lua_tostring(L, -2), lua_tostring(L, -1));
  else lua_pop(L, 1);
  return 1;
}

/* The modifiers that are not display modifiers, by their Lua names, with
 * the most arguments each takes after the view (more is an error, never
 * dropped: a SwiftUI developer's `:onAppear(fn, extra)` or
 * `:transaction(fn, value)` must not look as if it did something). */
typedef struct lun_Method {
  const char *name;
  lua_CFunction fn;
  int most;
} lun_Method;

static const lun_Method lun_modifier_methods[] = {
  {"environment", lun_modifier_environment, 2},
  {"environmentObject", lun_modifier_environment_object, 1},
  {"transformEnvironment", lun_modifier_transform_environment, 2},
  {"sheet", lun_modifier_sheet, 3},
  {"fullScreenCover", lun_modifier_full_screen_cover, 3},
  {"popover", lun_modifier_popover, 3},
  {"alert", lun_modifier_alert, 4},
  {"confirmationDialog", lun_modifier_confirmation_dialog, 4},
  {"animation", lun_modifier_animation, 2},
  {"transaction", lun_modifier_transaction, 2},
  {"onAppear", lun_modifier_on_appear, 1},
  {"onDisappear", lun_modifier_on_disappear, 1},
  {"task", lun_modifier_task, 2},
  {"onReceive", lun_modifier_on_receive, 2},
  {"onChange", lun_modifier_on_change, 3},
  {"id", lun_modifier_id, 1},
  {"focused", lun_modifier_focused, 2},
  {"preference", lun_modifier_preference, 2},
  {"onPreferenceChange", lun_modifier_on_preference_change, 2},
  {"onDelete", lun_modifier_on_delete, 1},
  {"onMove", lun_modifier_on_move, 1},
  {"swipeActions", lun_modifier_swipe_actions, 2},
  {"searchable", lun_modifier_searchable, 2},
  {"toolbar", lun_modifier_toolbar, 2},
  {"navigationDestination", lun_modifier_navigation_destination, 2},
  {NULL, NULL, 0}
};

/* A modifier of lun_modifier_methods: (view, ...) -> view, its arguments
 * counted first. Upvalues: its function, the most it takes, its name (the
 * functions use no upvalues of their own). */
static int lun_modifier_method(lua_State *L) {
  lun_modifier_arity(L, lua_tostring(L, lua_upvalueindex(3)), (int)lua_tointeger(L, lua_upvalueindex(2)));
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* Creates the view metatable with its modifiers: () -> (). */
void lun_open_modifier(lua_State *L) {
  const lun_ModSpec *m;
  const lun_Method *f;
  lun_State *S = lun_state(L);
  if (lun_newmetatable(L, LUN_MT_VIEW)) {         /* its identity and a ref, for lun_view_test and lun_view_new */
    S->viewMeta = lua_topointer(L, -1);
    lua_pushvalue(L, -1);
    S->viewMetaRef = (int32_t)luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_newtable(L);                                /* the modifiers */
  for (m = lun_display_mods; m->name; m++) {
    lua_pushstring(L, m->name);
    lua_pushstring(L, m->arg);
    lua_pushcclosure(L, lun_modifier_display, 2);
    lua_setfield(L, -2, m->name);
  }
  for (f = lun_modifier_methods; f->name; f++) {
    lua_pushcfunction(L, f->fn);
    lua_pushinteger(L, f->most);
    lua_pushstring(L, f->name);
    lua_pushcclosure(L, lun_modifier_method, 3);
    lua_setfield(L, -2, f->name);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "__modifiers");
  lua_pushcclosure(L, lun_view_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, lun_view_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}
