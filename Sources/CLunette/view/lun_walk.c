/*
 * lun_walk.c — reporting the view a body returned to the host.
 *
 * The walk writes each view value as output records (lun_out.c), which the
 * host reads in one call when the run ends; Lua values the output needs later (actions, bindings, environment values) go into the
 * unit's new `out` table, and nodes refer to them by slot. Child units
 * (components, list content, rows) are matched by the host; new ones get a
 * record here, and kept ones are told whether their inputs changed.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#include <math.h>

/* Raises: a field of the view value at v is not what Lunette put there
 * (rawset can reach a view value's fields). */
int lun_walk_altered(lua_State *L, const char *field) {
  return luaL_error(L, "a view value was altered: its field '%s' holds what Lunette did not put there", field);
}

/* Pushes the entry i of the list table at -1 if it is a table whose [1] is a
 * string; raises naming field otherwise. Pushes entry, name. [-0, +2] */
static const char *lun_walk_entry(lua_State *L, lua_Integer i, const char *field, size_t *len) {
  if (lua_rawgeti(L, -1, i) != LUA_TTABLE) lun_walk_altered(L, field);
  if (lua_rawgeti(L, -1, 1) != LUA_TSTRING) lun_walk_altered(L, field);
  return lua_tolstring(L, -1, len);
}

static const char lun_key_empty_out = 0;   /* registry: the out table of runs that store nothing */

/* Pushes the out table a run starts with: one empty table all runs share
 * and none writes (most bodies store nothing: no table a run for them).
 * [-0, +1] */
LUN_HOT void lun_walk_empty_out(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_empty_out) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_empty_out);
}

/* The stack index of the run's out table, made the run's own first if it
 * is still the shared empty one: every store goes through here. [-0, +0] */
int lun_walk_out(lua_State *L, lun_Walk *W) {
  if (!W->ownOut) {
    lua_newtable(L);
    lua_replace(L, W->out);
    W->ownOut = 1;
  }
  return W->out;
}

/* What a run keeps for the next render of a position — the values
 * :animation(a, value) and :transaction(fn, { value }) compare, the cells
 * that carry a :transaction to other bodies — lives in its out table, by
 * name and path: a position that is gone is forgotten with the run that
 * had it. */

/* Pushes what the last render kept under name for the path at pidx (nil
 * if nothing). [-0, +1] */
void lun_walk_kept(lua_State *L, lun_Walk *W, const char *name, int pidx) {
  int top = lua_gettop(L);
  pidx = lua_absindex(L, pidx);
  if (lua_getfield(L, W->record, "out") == LUA_TTABLE && lua_getfield(L, -1, name) == LUA_TTABLE) {
    lua_pushvalue(L, pidx);
    lua_rawget(L, -2);
  } else lua_pushnil(L);
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

/* Keeps the value on top under name for the path at pidx, for the next
 * render. [-1, +0] */
void lun_walk_keep(lua_State *L, lun_Walk *W, const char *name, int pidx) {
  int out;
  pidx = lua_absindex(L, pidx);
  out = lun_walk_out(L, W);
  if (lua_getfield(L, out, name) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, out, name);
  }
  lua_pushvalue(L, pidx);
  lua_pushvalue(L, -3);
  lua_rawset(L, -3);
  lua_pop(L, 2);
}

/* Reports the environment value stored at slot as key on the open node;
 * if the node had the entry last render and its value is not the same
 * (raw equality), the entry changed. [-0, +0] */
void lun_walk_env_entry(lua_State *L, lun_Walk *W, const char *key, size_t klen, int32_t slot) {
  int32_t old = lun_out_env(L, key, klen, slot);
  if (!old) return;
  lua_getfield(L, W->record, "out");
  lua_rawgeti(L, -1, old);
  lua_rawgeti(L, W->out, slot);
  if (!lua_rawequal(L, -1, -2)) lun_out_env_changed(L);
  lua_pop(L, 3);
}

/* Stores the value at idx in the out table; returns its slot. */
int32_t lun_walk_store(lua_State *L, lun_Walk *W, int idx) {
  lua_pushvalue(L, idx);
  lua_rawseti(L, lun_walk_out(L, W), ++W->slots);
  return W->slots;
}

/* Reports a string field of the view at v as an attribute, if present. */
void lun_walk_describe_attr(lua_State *L, lun_Walk *W, const char *name, int vidx) {
  size_t len;
  const char *s;
  lun_describe(L, vidx, 1);
  s = lua_tolstring(L, -1, &len);
  lun_out_attr(L, name, strlen(name), s, len);
  lua_pop(L, 1);
}

/* Raises the budget's stop if one holds, naming the function whose view
 * is walked ("file:12: (walking the view it returned) ran longer than its
 * time budget (0.5s)"): the code that ran last is the runtime's. [-0, +0] */
static void lun_walk_budget(lua_State *L, const lun_Walk *W) {
  if (!W->body || !lun_budget_stopping(lun_state(L))) { lun_budget_raise(L); return; }
  lun_push_place(L, W->body);
  lua_pushliteral(L, "(walking the view it returned) ");
  lua_concat(L, 2);
  lun_budget_raise_at(L, lua_tostring(L, -1));
  lua_pop(L, 1);
}

/* Counts n steps of a walk's work (nodes, a view's keys, comparisons):
 * the budget is looked at each time the count passes a multiple of
 * LUN_BUDGET_CHECK_EVERY — the hook never fires while C runs, and a
 * script sizes each of these. [-0, +0] */
void lun_walk_work(lua_State *L, lun_Walk *W, unsigned n) {
  unsigned before = W->walked;
  W->walked += n;
  if ((before ^ W->walked) & ~(unsigned)(LUN_BUDGET_CHECK_EVERY - 1)) lun_walk_budget(L, W);
}

/* 1 if an entry before i in the env list at -1 sets the same key as the
 * string at -1 does. [-0, +0] */
static int lun_walk_env_seen(lua_State *L, lun_Walk *W, lua_Integer i) {
  lua_Integer j;
  int seen = 0;
  lun_walk_work(L, W, (unsigned)(i < 65536 ? i : 65536));   /* quadratic in the entries: counted */
  for (j = 1; j < i && !seen; j++) {
    lua_rawgeti(L, -2, j);
    lua_rawgeti(L, -1, 1);
    seen = lua_rawequal(L, -1, -3);
    lua_pop(L, 2);
  }
  return seen;
}

/* Reports the environment overrides of the view at v, in the order the
 * modifiers were applied: the one closest to the view (the first) wins a
 * key, as in SwiftUI (F03). Returns 1 if one is `isEnabled`, which
 * lun_enabled_enter reports. */
static int lun_walk_env(lua_State *L, lun_Walk *W, int v) {
  lua_Integer i, n;
  int enabled = 0;
  if (lun_rawfield(L, v, "env") != LUA_TTABLE) { lua_pop(L, 1); return 0; }
  n = lun_rawlen_bounded(L, -1, "a view's environment list");
  for (i = 1; i <= n; i++) {
    size_t klen;
    const char *key;
    int32_t slot, old;
    key = lun_walk_entry(L, i, "env", &klen);
    if (!lun_envlist_intact(L, -2)) lun_walk_altered(L, "env");   /* made by the runtime, as it made it */
    lua_insert(L, -2);                            /* key, entry */
    lua_pushvalue(L, -3);                         /* the list, for lun_walk_env_seen */
    lua_pushvalue(L, -3);
    if (lun_walk_env_seen(L, W, i)) { lua_pop(L, 4); continue; }
    lua_pop(L, 2);
    lua_insert(L, -2);                            /* entry, key */
    lun_envwalk_value(L, W, lua_gettop(L) - 2, i, v, lua_gettop(L));   /* with transformEnvironment's */
    if (klen == 9 && memcmp(key, "isEnabled", 9) == 0) {
      lun_enabled_env(L, W);
      enabled = 1;
      lua_pop(L, 3);
      continue;
    }
    slot = lun_walk_store(L, W, -1);
    lun_envwalk_set(L, W, -2, -1);                /* views inside, in this body, inherit it */
    old = lun_out_env(L, key, klen, slot);
    if (old) {                                    /* the same entry as last render: did it change? */
      lua_getfield(L, W->record, "out");
      lua_rawgeti(L, -1, old);
      if (!lua_compare(L, -1, -3, LUA_OPEQ)) lun_out_env_changed(L);
      lua_pop(L, 2);
    }
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
  return enabled;
}

/* 1 if the view at v had :animation written after its :transaction. */
static int lun_walk_outer(lua_State *L, int v) {
  int top = lua_gettop(L);
  int outer = lun_rawfield(L, v, "anim") == LUA_TTABLE && lua_rawgeti(L, -1, 3) == LUA_TBOOLEAN && lua_toboolean(L, -1);
  lua_settop(L, top);
  return outer;
}

/* Reports view:animation(a, value): the node is animated with a when value
 * changed since the last render at this position. Outside a :transaction of
 * the same view value (outer), a goes into the transaction that fn then
 * changes (lun_walk_tx_with), as SwiftUI's later modifier wraps the earlier. */
static void lun_walk_animation(lua_State *L, lun_Walk *W, int v, int outer) {
  int top = lua_gettop(L), anim = top + 1, key = top + 2;
  size_t plen, dlen;
  const char *path, *desc;
  if (lun_rawfield(L, v, "anim") != LUA_TTABLE) { lua_pop(L, 1); return; }
  if (lua_rawgeti(L, anim, 1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) lun_state(L)->animNoneSeen = 1;
  lua_pop(L, 1);
  path = lun_out_path(L, &plen);
  lua_pushlstring(L, path, plen);
  lun_walk_kept(L, W, "animValues", key);         /* { previous value }, or nil */
  if (lua_istable(L, -1)) {
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, anim, 2);
    if (!lun_values_equal(L, -1, -2) && !lun_walk_disables(L, W)) {   /* by contents (Equatable); not
                                                    while the transaction disables animations (D06) */
      if (lua_rawgeti(L, anim, 1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {   /* :animation(nil, value) */
        lua_pushnil(L);
        lua_replace(L, -2);
      }
      if (outer) lun_walk_tx_with(L, W, lua_gettop(L));
      else if (lua_isnil(L, -1)) {                /* none: the node's changes are not animated */
        lun_out_animate(L, "", 0);
        if (W->open == 1) W->animNone = 1;        /* nor, so, by withAnimation's transaction (D05) */
      }
      else {
        desc = luaL_tolstring(L, -1, &dlen);
        lun_out_animate(L, desc, dlen);
        lua_pop(L, 1);
        if (W->open > 1) W->animInner = 1;        /* a node inside animates: the top one's none is not the run's */
      }
    }
  }
  lua_settop(L, key);
  lua_createtable(L, 1, 0);                       /* this render's, for the next */
  lua_rawgeti(L, anim, 2);
  lua_rawseti(L, -2, 1);
  lun_walk_keep(L, W, "animValues", key);
  lua_settop(L, top);
}

/* Reports the modifiers of the view at v. */
static void lun_walk_mods(lua_State *L, lun_Walk *W, int v) {
  lua_Integer i, n;
  if (lun_rawfield(L, v, "mods") != LUA_TTABLE) { lua_pop(L, 1); return; }
  n = lun_rawlen_bounded(L, -1, "a view's modifier list");
  for (i = 1; i <= n; i++) {
    size_t nlen, vlen = 0;
    const char *name, *value = "";
    name = lun_walk_entry(L, i, "mods", &nlen);
    if (lua_rawgeti(L, -2, 2) == LUA_TFUNCTION) {
      lun_walk_store(L, W, -1);
      if (strcmp(name, "onSubmit") == 0) lun_submit_walk(L, W, -1);   /* for the fields inside too */
      else if (strcmp(name, "refreshable") == 0) lun_envbuiltin_refreshable(L, W);   /* `refresh` inside (issue 19) */
      lun_out_modifier(L, name, nlen, "", 0);
    } else {
      if (!lua_isnil(L, -1)) {
        lun_describe(L, -1, 1);
        lua_replace(L, -2);
        value = lua_tolstring(L, -1, &vlen);
      }
      lun_out_modifier(L, name, nlen, value, vlen);
    }
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
}

/* Walks the children 1..n of the view (or plain array) at v; a view's
 * children that keep their constructor slot tell the host so (F02). With
 * rows (the stack index of a static List's selection marks), each child is
 * a row of that List, `level` containers in (lun_list_tagged_row). */
static void lun_walk_children(lua_State *L, lun_Walk *W, int v, int isView, int rows, int level) {
  lua_Integer i, n = lun_rawlen_bounded(L, v, "a view's children");
  int slots = isView && lun_getkey(L, lun_state(L), v, LUN_K_SLOTS) == LUA_TTABLE ? lua_gettop(L) : 0;
  if (!slots && isView) lua_pop(L, 1);
  for (i = 1; i <= n; i++) {
    int hinted = 0;
    if (slots && lua_rawgeti(L, slots, i) == LUA_TSTRING) {
      size_t len;
      const char *slot = lua_tolstring(L, -1, &len);
      lun_out_position(L, slot, len);
      hinted = 1;
    }
    if (slots) lua_pop(L, 1);
    lua_rawgeti(L, v, i);
    W->rows = rows;
    W->rowLevel = level;
    lun_walk_value(L, W, lua_gettop(L));
    lua_pop(L, 1);
    if (hinted) lun_out_position(L, NULL, 0);  /* a child that opened nothing leaves no hint behind */
  }
  if (slots) lua_pop(L, 1);
}

/* Keeps each { key, value } of the list at lidx in a slot and names the
 * slot in an attribute "<prefix><key>" (preference values; their handlers:
 * lun_pref_walk_handlers). */
static void lun_walk_prefs(lua_State *L, lun_Walk *W, int lidx, const char *prefix) {
  lua_Integer i, n;
  if (!lua_istable(L, lidx)) lun_walk_altered(L, prefix);
  n = lun_rawlen_bounded(L, lidx, "a view's preference list");
  for (i = 1; i <= n; i++) {
    size_t len;
    const char *name;
    int32_t slot;
    if (lua_rawgeti(L, lidx, i) != LUA_TTABLE || lua_rawgeti(L, -1, 1) != LUA_TSTRING) lun_walk_altered(L, prefix);
    lua_pushfstring(L, "%s%s", prefix, lua_tostring(L, -1));
    lua_rawgeti(L, -3, 2);
    slot = lun_walk_store(L, W, -1);
    lua_pop(L, 1);
    lua_pushfstring(L, "%d", (int)slot);
    name = lua_tolstring(L, -2, &len);
    lun_out_attr(L, name, len, lua_tostring(L, -1), lua_rawlen(L, -1));
    lua_pop(L, 4);
  }
}

/* The optional fields of a view value: the walk reads one only if the
 * value has it (most views have two or three fields, and the walk knows
 * a dozen). */
enum {
  LUN_VF_ID = 1 << 0, LUN_VF_ENV = 1 << 1, LUN_VF_MODS = 1 << 2, LUN_VF_TRANSACTION = 1 << 3,
  LUN_VF_ANIMATION = 1 << 4, LUN_VF_LIFE = 1 << 5, LUN_VF_ATTRS = 1 << 6, LUN_VF_FOCUS = 1 << 7,
  LUN_VF_PREFS = 1 << 8, LUN_VF_PREFWATCH = 1 << 9, LUN_VF_SHEET = 1 << 10, LUN_VF_ALERT = 1 << 11,
  LUN_VF_EXTRAS = 1 << 12
};

/* Which optional fields the view at v has: one pass over its keys, which
 * are few, instead of a lookup per field the walk knows; a key is told by
 * its interned text's address (lun_State.keyNames). [-0, +0] */
static unsigned lun_walk_fields(lua_State *L, lun_Walk *W, const lun_State *S, int v) {
  static const struct { int key; unsigned bit; } fields[] = {
    {LUN_K_IDENTITY, LUN_VF_ID}, {LUN_K_ENV, LUN_VF_ENV}, {LUN_K_MODS, LUN_VF_MODS},
    {LUN_K_TXFN, LUN_VF_TRANSACTION}, {LUN_K_ANIM, LUN_VF_ANIMATION}, {LUN_K_LIFE, LUN_VF_LIFE},
    {LUN_K_ATTRS, LUN_VF_ATTRS}, {LUN_K_FOCUS, LUN_VF_FOCUS}, {LUN_K_PREFS, LUN_VF_PREFS},
    {LUN_K_PREFWATCH, LUN_VF_PREFWATCH}, {LUN_K_SHEETSPEC, LUN_VF_SHEET}, {LUN_K_ALERTSPEC, LUN_VF_ALERT},
    {LUN_K_EXTRAS, LUN_VF_EXTRAS}};
  unsigned has = 0, keys = 0;
  size_t i;
  const char *key;
  lua_pushnil(L);
  while (lua_next(L, v)) {
    lua_pop(L, 1);
    if (++keys == LUN_BUDGET_CHECK_EVERY) { lun_walk_work(L, W, keys); keys = 0; }   /* a script may rawset millions */
    if (lua_type(L, -1) != LUA_TSTRING) continue;
    key = lua_tostring(L, -1);
    if (key == S->keyNames[LUN_K_KIND] || key == S->keyNames[LUN_K_TEXT]) continue;   /* every view's */
    for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
      if (key == S->keyNames[fields[i].key]) { has |= fields[i].bit; break; }
  }
  return has;
}

/* Rarely set, so kept out of the walk's hot code (LUN_RARE): most views
 * carry none of these. */
#define LUN_RARE __attribute__((noinline, cold))

/* The explicit id of the view at v, as its node's "id" (app:find{ id = ... }). */
static LUN_RARE void lun_walk_id(lua_State *L, int v) {
  if (lun_rawfield(L, v, "identity") != LUA_TNIL) {
    size_t ilen;
    const char *id;
    lun_explicit_key(L, -1);
    id = lua_tolstring(L, -1, &ilen);
    lun_out_attr(L, "id", 2, id, ilen);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* The view's life entries (onAppear, task, ...) and its attributes. */
static LUN_RARE void lun_walk_life_attrs(lua_State *L, lun_Walk *W, int v, unsigned has) {
  if ((has & LUN_VF_LIFE) && lun_rawfield(L, v, "life") == LUA_TTABLE && W->life) {
    lua_Integer i, n = lun_rawlen_bounded(L, -1, "a view's life list");
    for (i = 1; i <= n; i++) {
      lua_rawgeti(L, -1, i);
      lun_life_add(L, W->life);
      lua_pop(L, 1);
    }
  }
  if (has & LUN_VF_LIFE) lua_pop(L, 1);
  if ((has & LUN_VF_ATTRS) && lun_rawfield(L, v, "attrs") == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      if (lua_type(L, -2) != LUA_TSTRING) lun_walk_altered(L, "attrs");
      lun_walk_describe_attr(L, W, lua_tostring(L, -2), lua_gettop(L));
      lua_pop(L, 1);
    }
  }
  if (has & LUN_VF_ATTRS) lua_pop(L, 1);
}

/* The view's focus binding and its preferences (values and handlers). */
static LUN_RARE void lun_walk_focus_prefs(lua_State *L, lun_Walk *W, int v, unsigned has, int kind) {
  if ((has & LUN_VF_FOCUS) && lun_rawfield(L, v, "focus") != LUA_TNIL) lun_focus_walk(L, W, lua_gettop(L), kind);
  if (has & LUN_VF_FOCUS) lua_pop(L, 1);
  if ((has & LUN_VF_PREFS) && lun_rawfield(L, v, "prefs") != LUA_TNIL) lun_walk_prefs(L, W, lua_gettop(L), "preference:");
  if (has & LUN_VF_PREFS) lua_pop(L, 1);
  if ((has & LUN_VF_PREFWATCH) && lun_rawfield(L, v, "prefWatch") != LUA_TNIL)
    lun_pref_walk_handlers(L, W, lua_gettop(L));
  if (has & LUN_VF_PREFWATCH) lua_pop(L, 1);
}

/* Protected part of lun_walk_picker_check: (options, selection) -> index. */
static int lun_walk_picker_find_k(lua_State *L) {
  lua_pushinteger(L, lun_picker_find(L, 1, 2));
  return 1;
}

/* Warns when the selection at sel is none of the options' tags of the
 * Picker at v, as SwiftUI logs "the selection … is invalid and does not
 * have an associated tag" (the host says it once a view and value). A
 * comparison that cannot finish (tags nested past its bound, a cycle)
 * warns of nothing: a warning never fails a render. [-0, +0] */
static LUN_RARE void lun_walk_picker_check(lua_State *L, lun_Walk *W, int v, int sel) {
  int top = lua_gettop(L);
  size_t len;
  const char *msg;
  lun_rawfield(L, v, "control");
  lua_pushcfunction(L, lun_walk_picker_find_k);
  lua_getfield(L, top + 1, "options");
  lua_pushvalue(L, sel);
  if (lua_isnil(L, -2)) {
    lua_settop(L, top);
    return;
  }
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {         /* a comparison that could not finish: no warning, */
    if (lun_budget_stopping(lun_state(L))) lua_error(L);   /* but a run stopped (its budget) stays stopped */
    lua_settop(L, top);
    return;
  }
  if (lua_tointeger(L, -1) != 0) {
    lua_settop(L, top);
    return;
  }
  if (W->body && lua_isfunction(L, W->body)) lun_push_place(L, W->body);   /* where the body is */
  else lua_pushliteral(L, "");
  lun_rawfield(L, v, "text");
  lun_describe(L, -1, 1);
  lun_describe(L, sel, 1);
  msg = lua_pushfstring(L, "%sPicker %s: the selection %s is none of its options' tags (tag an option with it, "
                           "or select one of theirs)", lua_tostring(L, -4), lua_tostring(L, -2), lua_tostring(L, -1));
  len = lua_rawlen(L, -1);
  lunh(W->rt, inspect, warned, W->unit, msg, len);
  lua_settop(L, top);
}

static const char lun_key_badtext = 0;       /* the bodies whose text was said to be no UTF-8 (weak keys) */

/* Says that the run shows text that is no UTF-8 (lun_out.c noted it): a
 * host shows it with U+FFFD in place of what is not, so it is not repaired
 * silently. Said once a body (a view type, a row function: a clock's text
 * that changes each frame, or fifty rows, say it once; the host's own
 * warnings are kept to a hundred), its first such text's first bytes
 * escaped, but printable ASCII. [-0, +0] */
__attribute__((noinline)) void lun_walk_bad_text(lua_State *L, lun_Walk *W, lun_State *S) {
  size_t i, n = S->outBadLen < sizeof S->outBad ? S->outBadLen : sizeof S->outBad;
  int top = lua_gettop(L), body = W->body && lua_isfunction(L, W->body);
  const char *msg;
  luaL_Buffer b;
  luaL_checkstack(L, 4, "warning of a text");
  S->outBadLen = 0;
  if (body) {                                     /* once a body: a weak set of the bodies said */
    lun_registry_weak(L, &lun_key_badtext, "k");
    lua_pushvalue(L, W->body);
    if (lua_rawget(L, -2) != LUA_TNIL) { lua_settop(L, top); return; }
    lua_pop(L, 1);
    lua_pushvalue(L, W->body);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
  if (body) lun_push_place(L, W->body);           /* where the body is */
  else lua_pushliteral(L, "");
  luaL_buffinit(L, &b);
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)S->outBad[i];
    if (c == '"' || c == '\\') luaL_addchar(&b, '\\');
    if (c >= 0x20 && c < 0x7F) luaL_addchar(&b, (char)c);
    else {
      char hex[8];
      snprintf(hex, sizeof hex, "\\x%02X", (unsigned)c);
      luaL_addstring(&b, hex);
    }
  }
  if (S->outBadLen > n) luaL_addstring(&b, "...");
  luaL_pushresult(&b);
  msg = lua_pushfstring(L, "%sthe text \"%s\" is not UTF-8 (its byte %I is not): it is shown with U+FFFD, the "
                           "replacement character, in its place; convert text in another encoding before showing it",
                        lua_tostring(L, -2), lua_tostring(L, -1), (lua_Integer)S->outBadAt + 1);
  lunh(W->rt, inspect, warned, W->unit, msg, lua_rawlen(L, -1));
  lua_settop(L, top);
}

/* 1 if the range at idx is { -math.huge, math.huge }: a Stepper with no
 * bounds (the control spec is a plain table a script can reach: anything
 * else is described as it is). [-0, +0] */
static int lun_walk_unbounded(lua_State *L, int idx) {
  int unbounded;
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  lua_rawgeti(L, idx, 1);
  lua_rawgeti(L, idx, 2);
  unbounded = lua_tonumber(L, -2) == -HUGE_VAL && lua_tonumber(L, -1) == HUGE_VAL;
  lua_pop(L, 2);
  return unbounded;
}

/* A bound control of kind (Toggle, TextField, SecureField, Picker, Slider,
 * Stepper, DatePicker): its control spec, its binding and the value it shows. */
static __attribute__((noinline)) void lun_walk_control(lua_State *L, lun_Walk *W, int v, int kind) {
  if (kind == LUN_VIEW_PICKER || kind == LUN_VIEW_SLIDER || kind == LUN_VIEW_STEPPER || kind == LUN_VIEW_DATEPICKER) {
    if (lun_rawfield(L, v, "control") != LUA_TTABLE) lun_walk_altered(L, "control");
    lun_enabled_slot(L, W, LUN_ROLE_CONTROL, lun_walk_store(L, W, -1));
    if (kind == LUN_VIEW_PICKER) {                /* every option (and label), read back by the preview */
      if (lua_getfield(L, -1, "labels") == LUA_TTABLE) {
        lun_view_list_text(L, -1);
        lun_out_attr(L, "labels", 6, lua_tostring(L, -1), lua_rawlen(L, -1));
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
      if (lua_getfield(L, -1, "options") == LUA_TTABLE) {
        lun_view_list_text(L, -1);
        lun_out_attr(L, "options", 7, lua_tostring(L, -1), lua_rawlen(L, -1));
        lua_pop(L, 1);
      } else lun_walk_describe_attr(L, W, "options", lua_gettop(L));   /* a list held in state (its proxy) */
    } else {
      lua_getfield(L, -1, "range");
      if (kind == LUN_VIEW_DATEPICKER ? !lua_isnil(L, -1)      /* a DatePicker's range is optional, */
                                      : kind != LUN_VIEW_STEPPER || !lun_walk_unbounded(L, lua_gettop(L)))   /* a Stepper's too */
        lun_walk_describe_attr(L, W, "range", lua_gettop(L));
    }
    lua_pop(L, 2);
  }
  lun_rawfield(L, v, "binding");                  /* the binding and its value, as a TextField's */
  if (!lun_binding_test(L, -1)) lun_walk_altered(L, "binding");
  lun_enabled_slot(L, W, LUN_ROLE_BINDING, lun_walk_store(L, W, -1));
  if (kind == LUN_VIEW_SECUREFIELD) lun_binding_get_secret(L, -1);   /* what it reaches is secret (lun_secret.c) */
  else lun_binding_get(L, -1);
  if (kind == LUN_VIEW_PICKER) lun_walk_picker_check(L, W, v, lua_gettop(L));
  else if (lun_binding_is_functions(L, -2)) {     /* a ui.Binding(get, set): its get ran only now */
    if (W->body && lua_isfunction(L, W->body)) lun_push_place(L, W->body);
    else lua_pushliteral(L, "");
    lun_view_bound_check(L, kind, v, -2, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  if (kind == LUN_VIEW_TOGGLE) lua_pushstring(L, lua_toboolean(L, -1) ? "on" : "off");
  else if (kind == LUN_VIEW_SECUREFIELD) lun_secure_text(L, -1);   /* its text is never shown */
  else if (kind == LUN_VIEW_TEXTFIELD && lua_isnil(L, -1)) lua_pushliteral(L, "");   /* no text yet, as a SecureField's */
  else if (lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER || lua_isnil(L, -1)
           || lua_isboolean(L, -1)) luaL_tolstring(L, -1, NULL);
  else lun_describe(L, -1, 1);                    /* a table or an object (a Picker's tag): never its address,
                                                     which differs from run to run */
  lun_out_attr(L, "value", 5, lua_tostring(L, -1), lua_rawlen(L, -1));
  if (kind == LUN_VIEW_TEXTFIELD && lua_type(L, -2) == LUA_TNUMBER)   /* TextField(value:format:): a page keeps */
    lun_out_attr(L, "format", 6, "number", 6);                      /* the text a person types while it reads as the value */
  if (kind == LUN_VIEW_DATEPICKER && lua_type(L, -2) == LUA_TNUMBER) {   /* and as a date, in UTC */
    lun_rawfield(L, v, "control");
    lua_getfield(L, -1, "components");
    lun_date_text(L, lua_tonumber(L, -4), lua_tostring(L, -1));
    if (lua_rawlen(L, -1)) lun_out_attr(L, "date", 4, lua_tostring(L, -1), lua_rawlen(L, -1));
    lua_pop(L, 3);
  }
  lua_pop(L, 3);
}

/* A List or ForEach: its rows (a unit over data) or its static children. */
static __attribute__((noinline)) void lun_walk_list(lua_State *L, lun_Walk *W, int v, int kind, int refreshes) {
  int marks = lun_list_walk(L, W, v) ? lua_gettop(L) : 0;   /* List(selection:) (lun_list.c) */
  if (kind == LUN_VIEW_LIST && W->refreshes == refreshes) lun_envbuiltin_list_refresh(L, W);   /* `refresh` above */
  if (kind == LUN_VIEW_LIST && !W->marked && !lun_enabled_now(L, W)) {   /* it cannot be scrolled (D09) */
    lun_out_attr(L, "disabled", 8, "true", 4);
    W->marked = 1;
  }
  if (lun_rawfield(L, v, "row") == LUA_TFUNCTION) lun_walk_rows(L, W, v);
  else lun_walk_children(L, W, v, 1, marks, 0);
  lua_pop(L, marks ? 2 : 1);
}

/* What follows the view's content: its extras (swipeActions, searchable,
 * toolbar), its sheet and its alert. */
static LUN_RARE void lun_walk_trailers(lua_State *L, lun_Walk *W, int v, unsigned has) {
  if ((has & LUN_VF_EXTRAS) && lun_rawfield(L, v, "extras") == LUA_TTABLE) {
    lua_Integer i, n = lun_rawlen_bounded(L, -1, "a view's extras");
    for (i = 1; i <= n; i++) {
      lua_rawgeti(L, -1, i);
      if (!lun_view_test(L, -1)) lun_walk_altered(L, "extras");
      lun_walk_value(L, W, lua_gettop(L));
      lua_pop(L, 1);
    }
  }
  if (has & LUN_VF_EXTRAS) lua_pop(L, 1);
  if (has & LUN_VF_SHEET) lun_walk_sheet(L, W, v);
  if (has & LUN_VF_ALERT) lun_walk_alert(L, W, v);
}

/* The content of a view of kind: its children, its child unit, its control. */
static void lun_walk_content(lua_State *L, lun_Walk *W, int v, int kind, int rows, int rowLevel, int refreshes) {
  switch (kind) {
    case LUN_VIEW_TEXT:                           /* no children: ui.Text takes none */
      break;
    case LUN_VIEW_COMPONENT:
      lun_walk_component(L, W, v);
      break;
    case LUN_VIEW_BUTTON:
      if (lun_rawfield(L, v, "action") != LUA_TFUNCTION && !lua_isnil(L, -1)) lun_walk_altered(L, "action");
      lun_enabled_slot(L, W, LUN_ROLE_ACTION, lun_walk_store(L, W, -1));
      lua_pop(L, 1);
      lun_walk_children(L, W, v, 1, 0, 0);        /* a view as its label (issue 19) */
      break;
    case LUN_VIEW_PICKER: case LUN_VIEW_SLIDER: case LUN_VIEW_STEPPER: case LUN_VIEW_DATEPICKER:
    case LUN_VIEW_TOGGLE: case LUN_VIEW_TEXTFIELD: case LUN_VIEW_SECUREFIELD:
      lun_walk_control(L, W, v, kind);
      if (kind == LUN_VIEW_TEXTFIELD || kind == LUN_VIEW_SECUREFIELD) lun_submit_field(L, W, v);   /* an :onSubmit
                                                     around it */
      if (kind == LUN_VIEW_TOGGLE) lun_walk_children(L, W, v, 1, 0, 0);   /* a view as its label */
      break;
    case LUN_VIEW_LIST:
    case LUN_VIEW_FOREACH:
      lun_walk_list(L, W, v, kind, refreshes);
      break;
    case LUN_VIEW_SECTION:
    case LUN_VIEW_GROUP:                          /* a static List's rows may be in them, three levels in */
      lun_walk_children(L, W, v, 1, rowLevel < 3 ? rows : 0, rowLevel + 1);
      break;
    default:
      lun_walk_children(L, W, v, 1, 0, 0);
      break;
  }
}

/* Walks one view value (or a view type, or a plain array of views). */
/* Raises: the value at v, where a view was expected, named by its type
 * and — a string, a number or a boolean — by its value (a short string's
 * start), never by running its __tostring. */
static void lun_walk_not_view(lua_State *L, int v) {
  size_t len = 0;
  int t = lua_type(L, v);
  if (t == LUA_TSTRING) {
    const char *s = lua_tolstring(L, v, &len);
    lua_pushlstring(L, s, len > 60 ? 60 : len);
    lun_push_quoted(L, -1);
    luaL_error(L, "expected a view, got a string, %s%s", lua_tostring(L, -1), len > 60 ? "…" : "");
  }
  if (t == LUA_TNUMBER || t == LUA_TBOOLEAN) {
    lua_pushvalue(L, v);
    luaL_error(L, "expected a view, got a %s, %s", luaL_typename(L, v),
               t == LUA_TBOOLEAN ? (lua_toboolean(L, v) ? "true" : "false") : lua_tostring(L, -1));
  }
  luaL_error(L, "expected a view, got a %s", luaL_typename(L, v));
}

/* A view value shared along many paths (40 children of 40 children of one
 * Text, 4 deep: 2.5 million nodes) is walked once per path, in C: the walk
 * looks at the budget every LUN_BUDGET_CHECK_EVERY nodes. */
LUN_HOT void lun_walk_value(lua_State *L, lun_Walk *W, int v) {
  int kind, t = lua_type(L, v), enabled = W->enabled, rows = W->rows, rowLevel = W->rowLevel;
  int refreshes = W->refreshes;                   /* :refreshable modifiers before this view's */
  int outer;
  unsigned has;
  int32_t tx = W->tx, txcell = W->txcell;          /* what holds around the view, restored after it */
  const lun_State *S = lun_state(L);
  size_t len = 0;
  const char *text = NULL;
  W->rows = 0;                                    /* a static List's rows are its children only */
  if (t == LUA_TNIL || (t == LUA_TBOOLEAN && !lua_toboolean(L, v))) return;
  lun_walk_work(L, W, 1);                         /* a value shared many times is walked as often */
  lun_nest(L, W->depth, "view");
  W->depth++;
  if (lun_viewtype_test(L, v)) {                  /* a bare view type: no inputs */
    lua_pushvalue(L, v);
    lua_call(L, 0, 1);
    lun_walk_value(L, W, lua_gettop(L));
    lua_pop(L, 1);
    W->depth--;
    return;
  }
  if (t == LUA_TTABLE && !lua_getmetatable(L, v)) { lun_walk_children(L, W, v, 0, 0, 0); W->depth--; return; }
  if (t != LUA_TTABLE || lua_topointer(L, -1) != S->viewMeta) lun_walk_not_view(L, v);   /* a view value: that
                                                     one metatable (lun_is_view) */
  lua_pop(L, 1);
  lun_getkey(L, S, v, LUN_K_KIND);
  kind = (int)lua_tointeger(L, -1);
  if (!lua_isinteger(L, -1) || kind <= 0 || kind >= LUN_VIEW_KIND_COUNT) lun_walk_altered(L, "kind");
  lua_pop(L, 1);
  if (kind == LUN_VIEW_COMPONENT) lun_view_name(L, v);
  else lun_getkey(L, S, v, LUN_K_TEXT);
  if (lua_type(L, -1) == LUA_TSTRING) text = lua_tolstring(L, -1, &len);
  lun_out_begin(L, kind, text, len);
  lua_pop(L, 1);
  if (S->outBadLen) lun_walk_bad_text(L, W, lun_state(L));   /* its own text, before its children's */
  W->submitOpen = 0;
  if (W->open++ == 0) {                           /* a top-level node: */
    W->animNone = 0;
    W->animInner = 0;
    lun_walk_inherited(L, W);                     /* the :transaction around the unit (D06) */
    lun_focus_scene_walk(L, W);                   /* an app's root: its scene, for focus */
  }
  has = lun_walk_fields(L, W, S, v);
  if (has & LUN_VF_ID) lun_walk_id(L, v);
  lun_enabled_enter(L, W, v, (has & LUN_VF_ENV) ? lun_walk_env(L, W, v) : 0, has & LUN_VF_MODS);   /* :disabled
                                                     holds inside the view (D09) */
  if (has & LUN_VF_MODS) lun_walk_mods(L, W, v);
  outer = (has & LUN_VF_ANIMATION) && (has & LUN_VF_TRANSACTION) && lun_walk_outer(L, v);   /* in the order written */
  if (outer) lun_walk_animation(L, W, v, 1);
  if (has & LUN_VF_TRANSACTION) lun_walk_transaction(L, W, v);
  if ((has & LUN_VF_ANIMATION) && !outer) lun_walk_animation(L, W, v, 0);
  if (W->open == 1 && S->completionsPending && !W->animNone) lun_walk_note(L, W);   /* did withAnimation's
                                                     transaction reach it? (D05) */
  if (has & (LUN_VF_LIFE | LUN_VF_ATTRS)) lun_walk_life_attrs(L, W, v, has);
  if (rows) lun_list_tagged_row(L, W, rows, v);   /* a row of a static List with a selection */
  if (has & (LUN_VF_FOCUS | LUN_VF_PREFS | LUN_VF_PREFWATCH)) lun_walk_focus_prefs(L, W, v, has, kind);
  if (!(has & LUN_VF_FOCUS) && (kind == LUN_VIEW_TEXTFIELD || kind == LUN_VIEW_SECUREFIELD)) lun_focus_walk_unbound(L, W);
  lun_walk_content(L, W, v, kind, rows, rowLevel, refreshes);
  if (has & (LUN_VF_EXTRAS | LUN_VF_SHEET | LUN_VF_ALERT)) lun_walk_trailers(L, W, v, has);
  if (W->open == 1 && S->completionsPending && W->animNone) lun_walk_note(L, W);   /* the top node took the
                                                     animation away: known now whether a node inside animates */
  lun_out_end(L);
  if (S->outBadLen) lun_walk_bad_text(L, W, lun_state(L));
  W->open--;
  W->enabled = enabled;                           /* what holds around the view */
  W->tx = tx;
  W->txcell = txcell;
  if (W->envsaves) lun_envwalk_leave(L, W);       /* the values it set end with it */
  W->depth--;
}
