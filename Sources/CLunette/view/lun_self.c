/*
 * lun_self.c — `self` inside a body: a view's inputs, state and environment.
 *
 * `self` is a userdata (lun_Self) whose user value is the unit's record:
 *   { unit, type, info, inputs, state, out }.
 * Reads resolve, in order: a declared section (state, environment, binding,
 * bindable), a projection "$name", an input, a method of the view type.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#define LUN_MT_SELF "lunette.Self"


typedef struct lun_Self {
  int32_t unit;
  int32_t work;        /* LUN_SELF_* bits: what a run of its view does before the body (lun_self_work) */
} lun_Self;

/* Self's section kind for the key at kidx (0 if none), self at 1: its second
 * user value is its view's info.sections, kept there so that a read through
 * self looks the key up in one step (lun_self_create, lun_self_retype). */
static int lun_self_kind(lua_State *L, int kidx) {
  int kind;
  if (lua_getiuservalue(L, 1, 2) != LUA_TTABLE) { lua_pop(L, 1); return 0; }
  lua_pushvalue(L, kidx);
  lua_rawget(L, -2);
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 2);
  return kind;
}

/* Pushes the name of the view that owns self (at idx). [-0, +1] */
static void lun_self_viewname(lua_State *L, int idx) {
  lua_getiuservalue(L, idx, 1);
  lua_getfield(L, -1, "info");
  lua_getfield(L, -1, "name");
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* Pushes self's section kind for the key at kidx (nil if none). Returns it. */
static int lun_self_section(lua_State *L, int recidx, int kidx) {
  const lun_State *S = lun_state(L);
  int kind;
  lun_getkey(L, S, recidx, LUN_K_INFO);
  lun_getkey(L, S, -1, LUN_K_SECTIONS);
  lua_pushvalue(L, kidx);
  lua_rawget(L, -2);
  kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 3);
  return kind;
}

/* Pushes record.field[k] for the key at kidx. [-0, +1] */
static void lun_self_field(lua_State *L, int recidx, const char *field, int kidx) {
  lua_getfield(L, recidx, field);
  lua_pushvalue(L, kidx);
  lua_gettable(L, -2);
  lua_remove(L, -2);
}

/* Reads the environment entry for key kidx of self at 1 (checked by the
 * metamethod that calls this). [-0, +1] */
static int lun_self_env(lua_State *L, int recidx, int kidx) {
  lun_Self *self = (lun_Self *)lua_touserdata(L, 1);
  int mode;
  if (!self->unit && lua_getfield(L, recidx, "goneEnv") == LUA_TTABLE) {   /* a view gone: what it had */
    lua_pushvalue(L, kidx);
    if (lua_rawget(L, -2) != LUA_TNIL) return 1;
    lua_pop(L, 1);
  }
  lua_getfield(L, recidx, "info");
  lua_getfield(L, -1, "envmode");
  lua_pushvalue(L, kidx);
  lua_rawget(L, -2);
  mode = (int)lua_tointeger(L, -1);
  lua_getfield(L, -3, "envkey");
  lua_pushvalue(L, kidx);
  lua_rawget(L, -2);
  return lun_env_read(L, self->unit, lua_gettop(L), mode, kidx);
}

/* Pushes self's state holder; raises if the view has not rendered yet. [-0, +1] */
static void lun_self_state(lua_State *L, int recidx) {
  if (lua_getfield(L, recidx, "state") != LUA_TUSERDATA) {
    lun_self_viewname(L, 1);
    lun_error_here(L, "%s: state is not available before the view's first render", lua_tostring(L, -1));
  }
}

/* Pushes the storage cell behind name kidx of self's view: its appStorage
 * or, for kind LUN_SECTION_SCENE, its sceneStorage. [-0, +1] */
static void lun_self_cell(lua_State *L, int recidx, int kidx, int kind) {
  int scene = kind == LUN_SECTION_SCENE;
  lua_getfield(L, recidx, "info");
  lua_getfield(L, -1, scene ? "sceneStorage" : "appStorage");
  lun_storage_section_cell(L, -1, kidx, scene);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* Pushes the ObservableObject self holds under the name at kidx for a
 * section kind, tracking the whole object. [-0, +1] */
static int lun_self_object(lua_State *L, int recidx, int kidx, int kind) {
  if (kind == LUN_SECTION_OBSERVED) lun_self_field(L, recidx, "inputs", kidx);
  else if (kind == LUN_SECTION_STATEOBJECT) lun_self_field(L, recidx, "stateObjects", kidx);
  else lun_self_env(L, recidx, kidx);
  if (!lun_object_is_observable_object(L, -1)) {
    const char *got = luaL_typename(L, -1);
    lun_self_viewname(L, 1);
    return lun_error_here(L, "%s: '%s' must be an ObservableObject, got %s", lua_tostring(L, -1),
                          lua_tostring(L, kidx), got);
  }
  lun_object_track_whole(L, -1);
  return 1;
}

/* What the binding at bidx reaches: a focusState name of a view — its own
 * (self["$name"]), a DynamicProperty's, or one passed down as a binding
 * input —, what focused(_:) and focused(_:equals:) take: LUN_FOCUS_BOOL
 * (declared `isFocused = false`), LUN_FOCUS_VALUE (listed: nil or a
 * value), or 0 (no focusState). [-0, +0] */
int lun_self_focus_binding(lua_State *L, int bidx) {
  int top = lua_gettop(L), is = 0;
  lun_binding_target(L, bidx);                    /* top + 1 target, top + 2 key */
  if (!lua_isnil(L, top + 2) && luaL_testudata(L, top + 1, LUN_MT_SELF)) {
    lua_getiuservalue(L, top + 1, 1);
    if (lua_istable(L, -1) && lun_self_section(L, lua_gettop(L), top + 2) == LUN_SECTION_FOCUS) {
      lun_getkey(L, lun_state(L), top + 3, LUN_K_INFO);
      lua_getfield(L, -1, "focusBool");
      lua_pushvalue(L, top + 2);
      is = lua_istable(L, -2) && lua_rawget(L, -2) == LUA_TBOOLEAN ? LUN_FOCUS_BOOL : LUN_FOCUS_VALUE;
    }
  }
  lua_settop(L, top);
  return is;
}

/* Subscribes the running body to every ObservableObject the view holds
 * (observedObject, stateObject, environmentObject), read or not; infoidx
 * is the view's info. [-0, +0] */
void lun_self_subscribe(lua_State *L, int recidx, int infoidx) {
  lua_Integer i, n;
  recidx = lua_absindex(L, recidx);
  lua_pushvalue(L, infoidx);
  if (lun_getkey(L, lun_state(L), -1, LUN_K_OBJECTS) != LUA_TTABLE) { lua_pop(L, 2); return; }
  n = (lua_Integer)lua_rawlen(L, -1);
  lua_getfield(L, recidx, "self");
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, -2, i);
    lua_gettable(L, -2);
    lua_pop(L, 1);
  }
  lua_pop(L, 3);
}

/* How self reads, writes and projects each section's names. */

static int lun_read_state(lua_State *L, int recidx, int kidx, int kind) {
  (void)kind;
  lun_self_state(L, recidx);
  return lun_object_read(L, -1, lun_object_prop(L, -1, kidx));
}

static void lun_write_state(lua_State *L, int recidx, int kidx, int vidx) {
  lun_self_state(L, recidx);
  lun_object_write(L, -1, lun_object_prop(L, -1, kidx), vidx);
  lua_pop(L, 1);
}

static int lun_project_state(lua_State *L, int recidx, int kidx, int kind) {
  (void)kind;
  lun_self_state(L, recidx);
  lun_binding_push_prop(L, -1, kidx);
  lua_remove(L, -2);
  return 1;
}

/* A focusState name: a value moves the scene's focus to its field, taking
 * it from any other focus state; nil (or false) dismisses it (D01). */
static void lun_write_focus(lua_State *L, int recidx, int kidx, int vidx) {
  lua_getfield(L, recidx, "self");
  lun_focus_claim(L, -1, kidx, vidx);
  lua_pop(L, 1);
  lun_write_state(L, recidx, kidx, vidx);
}

/* A binding to self[name]: its writes move focus as self's do. */
static int lun_project_focus(lua_State *L, int recidx, int kidx, int kind) {
  (void)recidx;
  (void)kind;
  lun_binding_push_prop(L, 1, kidx);
  return 1;
}

static int lun_read_env(lua_State *L, int recidx, int kidx, int kind) {
  (void)kind;
  return lun_self_env(L, recidx, kidx);
}

static int lun_read_input(lua_State *L, int recidx, int kidx, int kind) {
  (void)kind;
  lun_self_field(L, recidx, "inputs", kidx);
  return 1;
}

static int lun_read_binding(lua_State *L, int recidx, int kidx, int kind) {
  lun_read_input(L, recidx, kidx, kind);
  lun_binding_get(L, -1);
  lua_remove(L, -2);
  return 1;
}

static void lun_write_binding(lua_State *L, int recidx, int kidx, int vidx) {
  lun_self_field(L, recidx, "inputs", kidx);
  lun_binding_set(L, -1, vidx);
  lua_pop(L, 1);
}

static int lun_project_bindable(lua_State *L, int recidx, int kidx, int kind) {
  lun_read_input(L, recidx, kidx, kind);
  lun_bindable_check(L, -1);
  lun_bindable_push(L, -1);
  lua_remove(L, -2);
  return 1;
}

static int lun_project_object(lua_State *L, int recidx, int kidx, int kind) {
  lun_self_object(L, recidx, kidx, kind);
  lun_bindable_push(L, -1);
  lua_remove(L, -2);
  return 1;
}

static int lun_read_property(lua_State *L, int recidx, int kidx, int kind) {
  (void)kind;
  lun_dynamic_handle(L, recidx, kidx);
  return 1;
}

static int lun_read_storage(lua_State *L, int recidx, int kidx, int kind) {
  int scene = kind == LUN_SECTION_SCENE;
  lun_Self *self = (lun_Self *)luaL_testudata(L, 1, LUN_MT_SELF);
  lua_getfield(L, recidx, "info");
  lua_getfield(L, -1, scene ? "sceneStorage" : "appStorage");
  lun_storage_section_read(L, self ? self->unit : 0, -1, kidx, scene);   /* the key's value, else this
                                                                             declaration's default (D07) */
  lua_replace(L, -3);
  lua_pop(L, 1);
  return 1;
}

static void lun_write_storage(lua_State *L, int recidx, int kidx, int vidx) {
  int kind = lun_self_section(L, recidx, kidx);
  lun_self_viewname(L, 1);
  lun_storage_check(L, vidx, lua_tostring(L, -1), luaL_tolstring(L, kidx, NULL));
  lua_pop(L, 2);
  lun_self_cell(L, recidx, kidx, kind);
  lua_pushliteral(L, "value");
  lun_object_write(L, -2, lun_object_prop(L, -2, -1), vidx);
  lua_pop(L, 2);
}

/* A binding to self[name]: it reads as the declaration does (its own
 * default while the key holds nothing, D07) and writes as self does. */
static int lun_project_storage(lua_State *L, int recidx, int kidx, int kind) {
  (void)recidx;
  (void)kind;
  lun_binding_push_prop(L, 1, kidx);
  return 1;
}

/* The sections of a view definition, in the order ui.View reads them. */
const lun_Section lun_sections[] = {
  {"body", 0, 0, 0, NULL, NULL, NULL},
  {"state", LUN_SECTION_STATE, 1, 0, lun_read_state, lun_write_state, lun_project_state, 0, lun_state_check},
  {"environment", LUN_SECTION_ENV, 1, 0, lun_read_env, NULL, NULL},
  {"binding", LUN_SECTION_BINDING, 1, 0, lun_read_binding, lun_write_binding, lun_read_input, 1},
  {"bindable", LUN_SECTION_BINDABLE, 1, 0, lun_read_input, NULL, lun_project_bindable, 1},
  {"observedObject", LUN_SECTION_OBSERVED, 1, 1, lun_self_object, NULL, lun_project_object, 1},
  {"stateObject", LUN_SECTION_STATEOBJECT, 1, 1, lun_self_object, NULL, lun_project_object},
  {"environmentObject", LUN_SECTION_ENVOBJECT, 1, 1, lun_self_object, NULL, lun_project_object},
  {"properties", LUN_SECTION_PROPERTY, 0, 0, lun_read_property, NULL, NULL},
  {"focusState", LUN_SECTION_FOCUS, 1, 0, lun_read_state, lun_write_focus, lun_project_focus},   /* held as state */
  {"appStorage", LUN_SECTION_STORAGE, 1, 0, lun_read_storage, lun_write_storage, lun_project_storage, 0,
   lun_storage_check_section},                                                                     /* defaults can be stored (T04) */
  {"sceneStorage", LUN_SECTION_SCENE, 1, 0, lun_read_storage, lun_write_storage, lun_project_storage, 0,
   lun_storage_check_section},
  {"inputs", LUN_SECTION_INPUT, 1, 0, lun_read_input, NULL, NULL, 1, lun_inputs_check},   /* plain inputs (issue 19) */
  {NULL, 0, 0, 0, NULL, NULL, NULL}};

/* Runs every section's check over the definition at defidx (a view's or a
 * DynamicProperty's, named `view`). [-0, +0] */
void lun_sections_check(lua_State *L, int defidx, const char *view) {
  const lun_Section *d;
  defidx = lua_absindex(L, defidx);
  for (d = lun_sections; d->name; d++)
    if (d->check) d->check(L, defidx, d->name, view);
}

/* The section of a kind (NULL for 0 or an unknown one). */
const lun_Section *lun_section_of(int kind) {
  const lun_Section *d;
  for (d = lun_sections; kind && d->name; d++)
    if (d->kind == kind) return d;
  return NULL;
}

/* Raises: "$name" names nothing with a projection; the message lists the
 * sections that have one. */
static int lun_self_no_projection(lua_State *L, int nidx) {
  const lun_Section *d;
  luaL_Buffer b;
  lun_self_viewname(L, 1);
  luaL_buffinit(L, &b);
  for (d = lun_sections; d->name; d++) {
    if (!d->project) continue;
    if (luaL_bufflen(&b)) luaL_addstring(&b, ", ");
    luaL_addstring(&b, d->name);
  }
  luaL_pushresult(&b);
  return lun_error_here(L, "%s: '$%s' has no projection ('%s' is not declared in %s)", lua_tostring(L, -2),
                        lua_tostring(L, nidx), lua_tostring(L, nidx), lua_tostring(L, -1));
}

/* __index of self: (self, key) -> value: a declared name as its section
 * reads it, "$name" as its section projects it, an input, a method. */
LUN_HOT static int lun_self_index(lua_State *L) {
  int recidx, kind;
  const lun_Section *d;
  lun_check_self(L, 1, lua_upvalueindex(1), "view self");
  lua_getiuservalue(L, 1, 1);
  recidx = lua_gettop(L);
  kind = lun_self_kind(L, 2);
  if ((d = lun_section_of(kind)) != NULL && d->read) return d->read(L, recidx, 2, kind);
  if (lua_type(L, 2) == LUA_TSTRING && lua_tostring(L, 2)[0] == '$') {
    int nidx;
    lua_pushstring(L, lua_tostring(L, 2) + 1);
    nidx = lua_gettop(L);
    kind = lun_self_kind(L, nidx);
    if ((d = lun_section_of(kind)) == NULL || !d->project) return lun_self_no_projection(L, nidx);
    return d->project(L, recidx, nidx, kind);
  }
  lun_getkey(L, lun_state(L), recidx, LUN_K_INPUTS);
  lua_pushvalue(L, 2);
  lua_gettable(L, -2);
  if (!lua_isnil(L, -1)) return 1;
  lun_getkey(L, lun_state(L), recidx, LUN_K_INFO);
  lua_getfield(L, -1, "methods");
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

/* Raises for a write through self (at 1) to key (at 2) that is neither
 * state nor a binding: an input is read-only; any other name was never
 * declared (F11), with a "did you mean" among the state names. */
static int lun_self_undeclared(lua_State *L, int recidx) {
  const char *key = luaL_tolstring(L, 2, NULL);
  int isinput;
  lun_self_field(L, recidx, "inputs", 2);
  isinput = !lua_isnil(L, -1);
  lua_pop(L, 1);
  lun_self_viewname(L, 1);
  if (isinput)
    return lun_error_here(L, "%s: cannot assign to '%s' (inputs are read-only; declare it in state to make it mutable)",
                          lua_tostring(L, -1), key);
  lua_getfield(L, recidx, "info");
  lua_getfield(L, -1, "state");
  lun_push_key_suggestion(L, key, -1, 0);         /* among the state names */
  return lun_error_here(L, "%s: cannot assign to '%s': it is not declared%s (declare it in state; "
                        "one that starts nil as `%s = ui.none`)", lua_tostring(L, -4), key, lua_tostring(L, -1), key);
}

/* __newindex of self: (self, key, value) -> (); the sections that allow writes. */
static int lun_self_newindex(lua_State *L) {
  int recidx;
  const lun_Section *d;
  lun_check_self(L, 1, lua_upvalueindex(1), "view self");
  lua_getiuservalue(L, 1, 1);
  recidx = lua_gettop(L);
  d = lun_section_of(lun_self_kind(L, 2));
  if (!d || !d->write) return lun_self_undeclared(L, recidx);
  d->write(L, recidx, 2, 3);
  return 0;
}

/* __tostring of self: (self) -> "BookView#12". */
static int lun_self_tostring(lua_State *L) {
  lun_Self *self = (lun_Self *)lun_check_self(L, 1, lua_upvalueindex(1), "view self");
  lun_self_viewname(L, 1);
  lua_pushfstring(L, "%s#%d", lua_tostring(L, -1), (int)self->unit);
  return 1;
}

/* The unit of the view whose self is at idx, or 0 if the value is no self. */
int32_t lun_self_unit(lua_State *L, int idx) {
  lun_Self *self = (lun_Self *)luaL_testudata(L, idx, LUN_MT_SELF);
  return self ? self->unit : 0;
}

/* The self at idx, taken from a record, which C made (no script reaches a
 * record): the size check is a guard, not the metatable's. NULL if none. */
static lun_Self *lun_record_self(lua_State *L, int idx) {
  return lua_type(L, idx) == LUA_TUSERDATA && lua_rawlen(L, idx) == sizeof(lun_Self)
       ? (lun_Self *)lua_touserdata(L, idx) : NULL;
}

/* The unit whose record is at recidx: a list's or a row's record names it
 * (`unit`); a component's keeps it in its self only (a field fewer in every
 * mounted view's record: TARGETS.md P6); a root's, 0. [-0, +0] */
int32_t lun_record_unit(lua_State *L, int recidx) {
  const lun_State *S = lun_state(L);
  int32_t unit;
  recidx = lua_absindex(L, recidx);
  if (lun_getkey(L, S, recidx, LUN_K_UNIT) == LUA_TNUMBER) unit = (int32_t)lua_tointeger(L, -1);
  else {
    lun_Self *self;
    lun_getkey(L, S, recidx, LUN_K_SELF);
    self = lun_record_self(L, -1);
    unit = self ? self->unit : 0;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return unit;
}

/* The record at recidx is released: its self, which a script may still
 * hold (a closure, an effect), names no unit from now on — the unit's id
 * goes to another view (UnitTable), and a read through it would read that
 * view's environment. It reads as a view gone: nothing above it. Returns
 * the unit it named. [-0, +0] */
/* Protected part of lun_record_keep_environment: (record, unit) -> (). */
static int lun_record_keep_environment_k(lua_State *L) {
  const lun_State *S = lun_state(L);
  int32_t unit = (int32_t)lua_tointeger(L, 2);
  int top = 2, recidx = 1;
  if (lun_getkey(L, S, recidx, LUN_K_INFO) != LUA_TTABLE || lua_getfield(L, -1, "envkey") != LUA_TTABLE) return 0;
  lua_newtable(L);                                /* top + 3: name -> value */
  lua_pushnil(L);
  while (lua_next(L, top + 2)) {                  /* name -> environment key */
    size_t klen;
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &klen) : NULL;
    int ref = 0;
    int32_t slot = 0, node = 0, probe = 0;
    if (key && lunh(S->rt, output, env_find, unit, key, klen, 0, &ref, &slot, &node, &probe)
        && lua_rawgeti(L, LUA_REGISTRYINDEX, ref) == LUA_TTABLE && lua_getfield(L, -1, "out") == LUA_TTABLE) {
      lua_pushvalue(L, top + 4);                  /* the name */
      lua_rawgeti(L, -2, slot);
      lua_rawset(L, top + 3);
    }
    lua_settop(L, top + 4);
  }
  lua_pushvalue(L, top + 3);
  lua_setfield(L, recidx, "goneEnv");
  return 0;
}

/* The view of the record at recidx, unit, is going: what its declared
 * environment names hold now is kept in the record, for its self to read
 * once the unit is gone (its onDisappear, a task's end, a self a script
 * kept), as a SwiftUI view's Environment properties keep the values they
 * were last given. A name nothing above it sets keeps nothing (its read
 * gives the default, or says none is there). In a protected call of its
 * own: with memory at its limit it keeps nothing, and the release goes on.
 * Never runs script code, never raises. [-0, +0] */
void lun_record_keep_environment(lua_State *L, int recidx, int32_t unit) {
  recidx = lua_absindex(L, recidx);
  if (!unit || !lua_checkstack(L, 4)) return;
  lua_pushcfunction(L, lun_record_keep_environment_k);
  lua_pushvalue(L, recidx);
  lua_pushinteger(L, unit);
  if (lua_pcall(L, 2, 0, 0) != LUA_OK) lua_pop(L, 1);
}

int32_t lun_record_forget_unit(lua_State *L, int recidx) {
  int32_t unit = lun_record_unit(L, recidx);
  lun_Self *self;
  lun_getkey(L, lun_state(L), lua_absindex(L, recidx), LUN_K_SELF);
  if ((self = lun_record_self(L, -1)) != NULL) self->unit = 0;
  lua_pop(L, 1);
  return unit;
}

/* Keeps the sections of the record's view (record.info.sections) in the
 * self at selfidx, where a read through it finds them. [-0, +0] */
static void lun_self_keep_sections(lua_State *L, int selfidx, int recidx) {
  const lun_State *S = lun_state(L);
  lun_Self *self = (lun_Self *)lua_touserdata(L, selfidx);
  int top = lua_gettop(L), info = top + 1, work = self->work & LUN_SELF_READY;
  lun_getkey(L, S, recidx, LUN_K_INFO);           /* and what its runs do before the body: */
  if (lun_getkey(L, S, info, LUN_K_OBJECTS) == LUA_TTABLE) work |= LUN_SELF_OBJECTS;
  if (lun_getkey(L, S, info, LUN_K_UPDATES) == LUA_TTABLE) work |= LUN_SELF_UPDATES;
  if (!(work & LUN_SELF_OBJECTS) && lua_getfield(L, info, "stateClass") == LUA_TNIL)
    work |= LUN_SELF_READY;                       /* no state to make: lun_self_init has nothing to do */
  lun_getkey(L, S, info, LUN_K_SECTIONS);
  lua_setiuservalue(L, selfidx, 2);
  lua_settop(L, top);
  self->work = work;
}

LUN_HOT int lun_self_work(lua_State *L, int idx) {
  lun_Self *self = lun_record_self(L, idx);
  return self ? self->work : LUN_SELF_OBJECTS | LUN_SELF_UPDATES;
}

/* Pushes a new self for the record at recidx and stores it as record.self. [-0, +1] */
void lun_self_create(lua_State *L, int recidx, int32_t unit) {
  lun_Self *self;
  recidx = lua_absindex(L, recidx);
  self = (lun_Self *)lua_newuserdatauv(L, sizeof(lun_Self), 2);
  self->unit = unit;
  self->work = 0;
  lua_pushvalue(L, recidx);
  lua_setiuservalue(L, -2, 1);
  lun_self_keep_sections(L, lua_gettop(L), recidx);
  luaL_setmetatable(L, LUN_MT_SELF);
  lua_pushvalue(L, -1);
  lun_setkey(L, lun_state(L), recidx, LUN_K_SELF);
}

/* The record at recidx has a new info (its view type was defined again):
 * its self keeps the new sections. [-0, +0] */
void lun_self_retype(lua_State *L, int recidx) {
  recidx = lua_absindex(L, recidx);
  if (lun_getkey(L, lun_state(L), recidx, LUN_K_SELF) == LUA_TUSERDATA) lun_self_keep_sections(L, lua_gettop(L), recidx);
  lua_pop(L, 1);
}

/* Stores the initial value of a state key into the holder; the key and its
 * declared initial are the top two stack values. Pass 0 stores inputs and
 * plain values, pass 1 calls function initials with self. [-0, +0] */
static void lun_self_state_value(lua_State *L, int recidx, int holder, int pass) {
  int init = lua_gettop(L), key = init - 1, prop;
  int isfn = lua_type(L, init) == LUA_TFUNCTION;
  lun_self_field(L, recidx, "inputs", key);       /* an input of the same name wins */
  if (!lua_isnil(L, -1)) {
    if (pass) { lua_pop(L, 1); return; }
  } else {
    lua_pop(L, 1);
    if (isfn != pass) return;
    if (isfn) {
      lua_pushvalue(L, init);
      lua_getfield(L, recidx, "self");
      lua_call(L, 1, 1);
    } else if (lun_is_none(L, init)) {
      lua_pushnil(L);                             /* state = { library = ui.none } starts nil (F11) */
    } else {
      lua_pushvalue(L, init);
    }
  }
  prop = lun_object_prop(L, holder, key);
  lun_store_value(L, holder, prop);               /* tables are values: a state never shares its input's (F04) */
  lua_setiuservalue(L, holder, prop);
}

/* Creates the state objects of a component record: factory(self), once. */
static void lun_self_init_objects(lua_State *L, int recidx) {
  lua_getfield(L, recidx, "info");
  if (lua_getfield(L, -1, "stateObject") == LUA_TNIL) { lua_pop(L, 2); return; }
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, recidx, "stateObjects");
  lua_pushnil(L);
  while (lua_next(L, -3)) {
    if (!lua_isfunction(L, -1)) {
      lua_getfield(L, -5, "name");
      luaL_error(L, "%s: stateObject '%s' needs a factory function, got %s", lua_tostring(L, -1),
                 lua_tostring(L, -3), luaL_typename(L, -2));
    }
    lua_getfield(L, recidx, "self");
    lua_call(L, 1, 1);
    if (!lun_object_is_observable_object(L, -1)) {
      lua_getfield(L, -5, "name");
      luaL_error(L, "%s: the factory of stateObject '%s' returned a %s, expected an ObservableObject",
                 lua_tostring(L, -1), lua_tostring(L, -3), luaL_typename(L, -2));
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  lua_pop(L, 3);
}

/* Sets or clears LUN_SELF_READY in the self of the record at recidx. [-0, +0] */
static void lun_self_mark(lua_State *L, int recidx, int ready) {
  lun_Self *self;
  lun_getkey(L, lun_state(L), recidx, LUN_K_SELF);
  self = lun_record_self(L, -1);
  if (self) self->work = ready ? self->work | LUN_SELF_READY : self->work & ~LUN_SELF_READY;
  lua_pop(L, 1);
}

/* Prepares a component record on its first render: its state holder (plain
 * initial values first, then function initials called with self), then its
 * state objects. */
void lun_self_init(lua_State *L, int recidx) {
  recidx = lua_absindex(L, recidx);
  lun_self_init_state(L, recidx);
  lun_self_init_objects(L, recidx);
  lun_self_mark(L, recidx, 1);
}

/* Its view was defined again with other state: the next run makes its state anew. [-0, +0] */
void lun_self_unready(lua_State *L, int recidx) {
  lun_self_mark(L, recidx, 0);
}

/* Creates the state holder of a component record. */
void lun_self_init_state(lua_State *L, int recidx) {
  int holder, pass;
  recidx = lua_absindex(L, recidx);
  lua_getfield(L, recidx, "info");
  if (lua_getfield(L, -1, "stateClass") == LUA_TNIL) { lua_pop(L, 2); return; }
  lun_object_new_of(L, -1, 0);
  holder = lua_gettop(L);
  lua_pushvalue(L, holder);
  lua_setfield(L, recidx, "state");
  lua_getfield(L, -3, "state");
  for (pass = 0; pass < 2; pass++) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lun_self_state_value(L, recidx, holder, pass);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 4);
}

void lun_open_self(lua_State *L) {
  static const luaL_Reg meta[] = {
    {"__index", lun_self_index}, {"__newindex", lun_self_newindex},
    {"__tostring", lun_self_tostring}, {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_SELF);
  lua_pushvalue(L, -1);                          /* upvalue: the metatable self must have */
  luaL_setfuncs(L, meta, 1);
  lua_pop(L, 1);
}
