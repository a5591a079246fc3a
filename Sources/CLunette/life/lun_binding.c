/*
 * lun_binding.c — Binding and Bindable.
 *
 * A Binding is a userdata (lun_Binding) with two user values whose meaning
 * depends on its kind:
 *   PROP   (object, key)      reads and writes object[key], tracked
 *   FUNCS  (get, set)         ui.Binding(get, set)
 *   CONST  (value, -)         ui.Binding.constant(v): ignores writes
 *   MEMBER (base, key)        a scoped binding: base.value[key]
 *   ELEMENT (base, id, -, idOf, root)  a ForEach($items) row's: the element of
 *                             base.value whose idOf(element, i) is (id, true) —
 *                             found where it was last (hint), else looked
 *                             for; an error once it is gone (a binding kept
 *                             past an edit of the list wrote by position
 *                             into another element, or put a deleted one back)
 *                             (an animated copy keeps its id and hint in its root,
 *                             the binding it was made from: a write through the
 *                             copy that changes the id moves the original too)
 * The third user value is the animation writes run in (binding:animation).
 * Indexing a binding with any other name than its methods gives a scoped
 * binding, so self["$episode"].isFavorite works as in SwiftUI.
 */
#include "core/core.h"
#include <math.h>
#include "model/model.h"
#include "life/life.h"
#define LUN_MT_BINDING "lunette.Binding"


enum { LUN_BIND_PROP = 1, LUN_BIND_FUNCS, LUN_BIND_CONST, LUN_BIND_MEMBER, LUN_BIND_ELEMENT };

typedef struct lun_Binding {
  int kind;
  int depth;      /* scoped bindings: members below the root binding */
  lua_Integer hint;   /* ELEMENT: where its element was last found */
} lun_Binding;

/* 1 for the kinds that reach into their base binding's value. */
#define LUN_BIND_SCOPED(b) ((b)->kind == LUN_BIND_MEMBER || (b)->kind == LUN_BIND_ELEMENT)

#define LUN_MT_BINDABLE "lunette.Bindable"

/* 1 if the value at idx is a Binding. */
int lun_binding_test(lua_State *L, int idx) {
  return luaL_testudata(L, idx, LUN_MT_BINDING) != NULL;
}

/* Pushes a new binding of kind over the values at a and b. [-0, +1] */
static void lun_binding_new(lua_State *L, int kind, int a, int b) {
  lun_Binding *bd;
  int depth = 0;
  a = lua_absindex(L, a);
  b = b ? lua_absindex(L, b) : 0;
  if (kind == LUN_BIND_MEMBER || kind == LUN_BIND_ELEMENT) {
    depth = ((lun_Binding *)luaL_checkudata(L, a, LUN_MT_BINDING))->depth + 1;
    lun_nest(L, depth, "a scoped binding");
  }
  bd = (lun_Binding *)lua_newuserdatauv(L, sizeof(lun_Binding), kind == LUN_BIND_ELEMENT ? 5 : 3);
  bd->kind = kind;
  bd->depth = depth;
  bd->hint = 0;
  lua_pushvalue(L, a);
  lua_setiuservalue(L, -2, 1);
  if (b) {
    lua_pushvalue(L, b);
    lua_setiuservalue(L, -2, 2);
  }
  luaL_setmetatable(L, LUN_MT_BINDING);
}

/* Pushes a binding to property key (at keyidx) of the object at objidx. [-0, +1] */
void lun_binding_push_prop(lua_State *L, int objidx, int keyidx) {
  lun_binding_new(L, LUN_BIND_PROP, objidx, keyidx);
}

/* Pushes what the binding at idx reaches, to tell focus states apart: its
 * object and key (a binding to a property), else the binding and nil. [-0, +2] */
void lun_binding_target(lua_State *L, int idx) {
  lun_Binding *b = (lun_Binding *)luaL_checkudata(L, idx, LUN_MT_BINDING);
  idx = lua_absindex(L, idx);
  if (b->kind == LUN_BIND_PROP) {
    lua_getiuservalue(L, idx, 1);
    lua_getiuservalue(L, idx, 2);
    return;
  }
  lua_pushvalue(L, idx);
  lua_pushnil(L);
}

/* Pushes the root of the binding at idx: a scoped binding's base, down to
 * one that is not scoped (bounded: a scoped binding is at most
 * LUN_MAX_NESTING members deep). [-0, +1] */
static lun_Binding *lun_binding_root(lua_State *L, int idx) {
  lun_Binding *b = (lun_Binding *)luaL_checkudata(L, idx, LUN_MT_BINDING);
  lua_pushvalue(L, idx);
  while (LUN_BIND_SCOPED(b)) {
    lua_getiuservalue(L, -1, 1);
    lua_remove(L, -2);
    b = (lun_Binding *)luaL_checkudata(L, -1, LUN_MT_BINDING);
  }
  return b;
}

/* Marks (mark) or tells whether the root of the binding at idx is secret
 * (lun_secret.c): its object and key for a binding to a property, else the
 * root binding itself. [-0, +0] */
static int lun_binding_root_secret(lua_State *L, int idx, int mark) {
  int secret;
  if (lun_binding_root(L, idx)->kind == LUN_BIND_PROP) {
    lua_getiuservalue(L, -1, 1);
    lua_getiuservalue(L, -2, 2);
    if (mark) lun_secret_mark_prop(L, -2, -1);
    secret = lun_secret_prop(L, -2, -1);
    lua_pop(L, 3);
    return secret;
  }
  if (mark) lun_secret_mark_value(L, -1);
  secret = lun_secret_value(L, -1);
  lua_pop(L, 1);
  return secret;
}

static int lun_binding_get_k(lua_State *L);

/* Pushes the value of the binding at idx as a SecureField reads it: what it
 * reaches becomes secret (its root, and every property read to get the
 * value: a ui.Binding(get, set)'s included), and stays so. [-0, +1] */
void lun_binding_get_secret(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lun_binding_root_secret(L, idx, 1);
  lun_secret_reads(L, lun_binding_get_k, idx, 1);
}

/* 1 if the binding at idx reaches a SecureField's text: its root is
 * secret, or reading it reads a secret property. Pushes its value. [-0, +1] */
int lun_binding_get_secrecy(lua_State *L, int idx) {
  int secret;
  idx = lua_absindex(L, idx);
  secret = lun_secret_reads(L, lun_binding_get_k, idx, 0);
  return lun_binding_root_secret(L, idx, 0) || secret;
}

/* Pushes the ELEMENT binding that keeps the id and hint of the one at idx:
 * its root (an animated copy's), or itself; returns it. [-0, +1] */
static lun_Binding *lun_binding_element_state(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_getiuservalue(L, idx, 5) != LUA_TUSERDATA) {
    lua_pop(L, 1);
    lua_pushvalue(L, idx);
  }
  return (lun_Binding *)lua_touserdata(L, -1);
}

/* 1 if element i of the list at lidx is the one the ELEMENT binding at idx
 * reaches: idOf(element, i) says it has an id of its own (not its
 * position), and that it equals the binding's id. [-0, +0] */
static int lun_binding_element_is(lua_State *L, int idx, int lidx, lua_Integer i) {
  int same;
  lua_getiuservalue(L, idx, 4);
  lua_geti(L, lidx, i);
  lua_pushinteger(L, i);
  lua_call(L, 2, 2);                              /* id own */
  lun_binding_element_state(L, idx);
  lua_getiuservalue(L, -1, 2);
  lua_remove(L, -2);
  same = lua_toboolean(L, -2) && lua_compare(L, -1, -3, LUA_OPEQ);
  lua_pop(L, 3);
  return same;
}

/* The ELEMENT binding at idx wrote the value at vidx where its element was
 * found (its state's hint): it reaches that element, by its id now
 * (item:set({ id = 99, … }) then item:get() said the element was gone). [-0, +0] */
static void lun_binding_element_moved(lua_State *L, int idx, int vidx) {
  lun_Binding *state;
  lua_Integer i;
  idx = lua_absindex(L, idx);
  vidx = lua_absindex(L, vidx);
  state = lun_binding_element_state(L, idx);      /* state */
  i = state->hint;
  lua_getiuservalue(L, idx, 4);
  lua_pushvalue(L, vidx);
  lua_pushinteger(L, i);
  lua_call(L, 2, 2);                              /* state id own */
  if (lua_toboolean(L, -1)) {
    lua_pushvalue(L, -2);
    lua_setiuservalue(L, -4, 2);
    state->hint = i;
  }
  lua_pop(L, 3);
}

/* Where an element moved further than a few places (a list reversed or
 * sorted): each list's index of its elements' ids, made once when a binding
 * misses and kept while it answers (an entry is checked before it is
 * used); weak in its lists. One scan each made reversing 4,000 rows 6 s. */
static const char lun_key_element_index = 0;
#define LUN_ELEMENT_NEAR 16

/* The index of the ELEMENT binding's id (idx) in the list at vidx, n long,
 * from the list's index of ids (made anew if it has none, or it is stale);
 * 0 if no element has it. Each step of a making is a script's idOf, under
 * the budget. [-0, +0] */
static lua_Integer lun_binding_element_indexed(lua_State *L, int idx, int vidx, lua_Integer n) {
  lua_Integer i, found = 0;
  int pass, top = lua_gettop(L);
  lun_registry_weak(L, &lun_key_element_index, "k");   /* top+1: list -> { id -> index } */
  for (pass = 0; pass < 2 && !found; pass++) {
    lua_pushvalue(L, vidx);
    if (pass == 1 || lua_rawget(L, top + 1) != LUA_TTABLE) {
      if (pass == 0) lua_pop(L, 1);
      lua_createtable(L, 0, (int)(n < 1 << 20 ? n : 1 << 20));   /* (a hint: the table grows past it) */
      for (i = 1; i <= n; i++) {
        lua_getiuservalue(L, idx, 4);
        lua_geti(L, vidx, i);
        lua_pushinteger(L, i);
        lua_call(L, 2, 2);                        /* map id own */
        if (lua_toboolean(L, -1) && !lua_isnil(L, -2) && !(lua_type(L, -2) == LUA_TNUMBER &&
            lua_tonumber(L, -2) != lua_tonumber(L, -2))) {   /* (a NaN id is no key) */
          lua_pop(L, 1);
          lua_pushvalue(L, -1);
          if (lua_rawget(L, -3) == LUA_TNIL) {    /* the first with an id has it */
            lua_pop(L, 1);
            lua_pushinteger(L, i);
            lua_rawset(L, -3);
          } else lua_pop(L, 2);
        } else lua_pop(L, 2);
      }
      lua_pushvalue(L, vidx);
      lua_pushvalue(L, -2);
      lua_rawset(L, top + 1);
    }
    lun_binding_element_state(L, idx);
    lua_getiuservalue(L, -1, 2);                  /* map state id */
    lua_remove(L, -2);
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
      i = lua_tointeger(L, -1);
      if (i >= 1 && i <= n && lun_binding_element_is(L, idx, vidx, i)) found = i;
    }
    lua_settop(L, top + 1);
  }
  lua_settop(L, top);
  return found;
}

/* Pushes the key the scoped binding at idx reaches in its base's value (at
 * vidx): a MEMBER's key; an ELEMENT's element's index now — where it was
 * last, else the nearest with its id, looked for outward from there (an
 * insertion or a deletion moves each element a few places: one scan from
 * the start each made 4,000 rows quadratic; each step a script's idOf,
 * under the budget). Raises once no element has its id. [-0, +1] */
static void lun_binding_key(lua_State *L, lun_Binding *b, int idx, int vidx) {
  lua_Integer d, n, hint;
  if (b->kind != LUN_BIND_ELEMENT) { lua_getiuservalue(L, idx, 2); return; }
  idx = lua_absindex(L, idx);
  vidx = lua_absindex(L, vidx);
  b = lun_binding_element_state(L, idx);          /* an animated copy's is its root's */
  lua_pop(L, 1);                                  /* (kept alive by idx's user value) */
  n = luaL_len(L, vidx);
  hint = b->hint < 1 ? 1 : b->hint > n ? n : b->hint;
  for (d = 0; d < n && d <= LUN_ELEMENT_NEAR; d++) {   /* hint, hint - 1, hint + 1, hint - 2, … */
    lua_Integer at[2], k;
    at[0] = hint - d;                             /* no overflow: 1 <= hint <= n, 0 <= d < n */
    at[1] = d && d <= n - hint ? hint + d : 0;
    for (k = 0; k < 2; k++) {
      if (at[k] < 1 || at[k] > n || !lun_binding_element_is(L, idx, vidx, at[k])) continue;
      b->hint = at[k];
      lua_pushinteger(L, at[k]);
      return;
    }
    if (hint - d < 1 && d >= n - hint) break;
  }
  if (n > 2 * LUN_ELEMENT_NEAR + 1 && (d = lun_binding_element_indexed(L, idx, vidx, n)) > 0) {
    b->hint = d;                                  /* further: the list's index of ids */
    lua_pushinteger(L, d);
    return;
  }
  lua_getiuservalue(L, idx, 2);
  lun_describe(L, -1, 1);
  lun_error_here(L, "a ForEach row's binding reaches an element no longer in the list (id %s): "
                 "the binding was kept past the row's removal", lua_tostring(L, -1));
}

/* Pushes the current value of the binding at idx (reads are tracked). [-0, +1] */
void lun_binding_get(lua_State *L, int idx) {
  lun_Binding *b = (lun_Binding *)luaL_checkudata(L, idx, LUN_MT_BINDING);
  idx = lua_absindex(L, idx);
  luaL_checkstack(L, 8, "reading a binding");
  switch (b->kind) {
    case LUN_BIND_PROP:
      lua_getiuservalue(L, idx, 1);
      lua_getiuservalue(L, idx, 2);
      lua_gettable(L, -2);
      lua_remove(L, -2);
      return;
    case LUN_BIND_FUNCS:
      lua_getiuservalue(L, idx, 1);
      lua_call(L, 0, 1);
      return;
    case LUN_BIND_CONST:
      lua_getiuservalue(L, idx, 1);
      return;
    default:
      lua_getiuservalue(L, idx, 1);
      lun_binding_get(L, -1);
      lua_remove(L, -2);
      if (lua_isnil(L, -1)) return;
      lun_binding_key(L, b, idx, -1);
      lua_gettable(L, -2);
      lua_remove(L, -2);
      return;
  }
}

static void lun_binding_set_now(lua_State *L, lun_Binding *b, int idx, int vidx);

/* Protected set for an animated binding: (binding, value) -> (). */
static int lun_binding_set_k(lua_State *L) {
  lun_binding_set_now(L, (lun_Binding *)lua_touserdata(L, 1), 1, 2);
  return 0;
}

/* Writes the value at vidx through the binding at idx (in its animation's transaction). [-0, +0] */
void lun_binding_set(lua_State *L, int idx, int vidx) {
  lun_Binding *b = (lun_Binding *)luaL_checkudata(L, idx, LUN_MT_BINDING);
  idx = lua_absindex(L, idx);
  vidx = lua_absindex(L, vidx);
  if (lua_getiuservalue(L, idx, 3) == LUA_TTABLE) {
    lua_pushcfunction(L, lun_binding_set_k);
    lua_pushvalue(L, idx);
    lua_pushvalue(L, vidx);
    lun_animation_run(L, -4, -3, 2);
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  lun_binding_set_now(L, b, idx, vidx);
}

/* Writes the value at vidx through the binding at idx. [-0, +0] */
void lun_binding_toggle(lua_State *L, int idx, const char *verb) {
  idx = lua_absindex(L, idx);
  lun_binding_get(L, idx);
  if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))   /* its type, never its value: it may be secret */
    lun_error_here(L, "%s: the Toggle's binding holds a %s, not a boolean", verb, luaL_typename(L, -1));
  lua_pushboolean(L, !lua_toboolean(L, -1));
  lun_binding_set(L, idx, -1);
  lua_pop(L, 2);
}

void lun_binding_typed(lua_State *L, int idx, int tidx, int secure, const char *verb) {
  idx = lua_absindex(L, idx);
  tidx = lua_absindex(L, tidx);
  lun_binding_get(L, idx);
  if (!secure && lua_type(L, -1) == LUA_TNUMBER) {   /* the text as the number it reads as */
    size_t len;
    const char *text = lua_tolstring(L, tidx, &len);
    if (strlen(text) != len || lua_stringtonumber(L, text) == 0 || !isfinite(lua_tonumber(L, -1)))
      lun_error_here(L, "%s: the text typed is no number, and the field's binding holds one "
                     "(a field bound to a number takes a number)", verb);
  } else lua_pushvalue(L, tidx);
  lua_remove(L, -2);
}

void lun_binding_type(lua_State *L, int idx, int tidx, int secure, const char *verb) {
  idx = lua_absindex(L, idx);
  lun_binding_typed(L, idx, tidx, secure, verb);
  lun_binding_set(L, idx, -1);
  lua_pop(L, 1);
}

int lun_binding_is_functions(lua_State *L, int idx) {
  int is;
  is = lun_binding_root(L, idx)->kind == LUN_BIND_FUNCS;
  lua_pop(L, 1);
  return is;
}

static void lun_binding_set_now(lua_State *L, lun_Binding *b, int idx, int vidx) {
  luaL_checkstack(L, 8, "writing a binding");
  switch (b->kind) {
    case LUN_BIND_PROP:
      lua_getiuservalue(L, idx, 1);
      lua_getiuservalue(L, idx, 2);
      lua_pushvalue(L, vidx);
      lua_settable(L, -3);
      lua_pop(L, 1);
      return;
    case LUN_BIND_FUNCS:
      lua_getiuservalue(L, idx, 2);
      lua_pushvalue(L, vidx);
      lua_call(L, 1, 0);
      return;
    case LUN_BIND_CONST:
      return;
    default: {
      int t;
      lua_getiuservalue(L, idx, 1);              /* base */
      lun_binding_get(L, -1);                     /* its value */
      t = lua_type(L, -1);
      if (t != LUA_TTABLE && t != LUA_TUSERDATA)
        luaL_error(L, "cannot write through a scoped binding: the base value is a %s", luaL_typename(L, -1));
      lun_binding_key(L, b, idx, -1);
      lua_pushvalue(L, vidx);
      lua_settable(L, -3);
      if (b->kind == LUN_BIND_ELEMENT)            /* the element written is the one it reaches */
        lun_binding_element_moved(L, idx, vidx);
      else if (((lun_Binding *)lua_touserdata(L, -2))->kind == LUN_BIND_ELEMENT)
        lun_binding_element_moved(L, -2, -1);     /* item.id:set(99): its element's id changed in place */
      if (t == LUA_TTABLE) lun_binding_set(L, -2, -1); /* a raw table: hand it back to the base */
      lua_pop(L, 2);
      return;
    }
  }
}

/* Protected read: (binding) -> value. */
static int lun_binding_get_k(lua_State *L) {
  lun_binding_get(L, 1);
  return 1;
}

/* binding:get() -> value. */
static int lun_binding_m_get(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_BINDING);
  lun_no_extra(L, "binding:get", 0, 1);
  lun_binding_get(L, 1);
  return 1;
}

/* binding:set(v) -> (). */
static int lun_binding_m_set(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_BINDING);
  lun_no_extra(L, "binding:set", 1, 1);
  lua_settop(L, 2);
  lun_binding_set(L, 1, 2);
  return 0;
}

/* binding:animation(a) -> a binding whose writes are animated with a. */
static int lun_binding_m_animation(lua_State *L) {
  lun_Binding *b = (lun_Binding *)luaL_checkudata(L, 1, LUN_MT_BINDING);
  lun_no_extra(L, "binding:animation", 1, 1);
  if (lua_isnoneornil(L, 2)) lun_animation_default(L); else { lun_animation_check(L, 2); lua_pushvalue(L, 2); }
  lua_getiuservalue(L, 1, 1);
  lua_getiuservalue(L, 1, 2);
  lun_binding_new(L, b->kind, -2, -1);
  lua_pushvalue(L, -4);
  lua_setiuservalue(L, -2, 3);
  if (b->kind == LUN_BIND_ELEMENT) {
    lua_getiuservalue(L, 1, 4);
    lua_setiuservalue(L, -2, 4);
    lun_binding_element_state(L, 1);              /* the copy keeps its id and hint in the root */
    lua_setiuservalue(L, -2, 5);
  }
  return 1;
}

/* __index of bindings: a method, or a scoped binding to a member. */
static int lun_binding_index(lua_State *L) {
  int t;
  luaL_checkudata(L, 1, LUN_MT_BINDING);
  lua_settop(L, 2);
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
  lua_pop(L, 1);
  if (lun_binding_is_functions(L, 1)) {           /* a ui.Binding(get, set): its get runs when the member is read */
    lun_binding_new(L, LUN_BIND_MEMBER, 1, 2);
    return 1;
  }
  lun_binding_get(L, 1);                          /* what it holds now has the member ($book.title) */
  t = lua_type(L, 3);
  if (t == LUA_TNUMBER || t == LUA_TBOOLEAN || t == LUA_TSTRING || t == LUA_TFUNCTION)
    return lun_error_here(L, "the binding holds a %s, which has no member '%s' to bind (b:get() reads it, b:set(v) writes it)",
                          luaL_typename(L, 3), luaL_tolstring(L, 2, NULL));
  if (lun_object_test(L, 3) && !lun_object_prop(L, 3, 2)) {
    const char *key = luaL_tolstring(L, 2, NULL);
    lun_object_suggest(L, 3, key);
    return lun_error_here(L, "%s has no property '%s' to bind%s", lun_object_classname(L, 3), key, lua_tostring(L, -1));
  }
  lua_settop(L, 2);
  lun_binding_new(L, LUN_BIND_MEMBER, 1, 2);
  return 1;
}

/* __eq of bindings: same kind over the same storage. */
static int lun_binding_eq(lua_State *L) {
  lun_Binding *a = (lun_Binding *)luaL_testudata(L, 1, LUN_MT_BINDING);
  lun_Binding *b = (lun_Binding *)luaL_testudata(L, 2, LUN_MT_BINDING);
  int i, same = a && b && a->kind == b->kind;
  for (i = 1; same && i <= 2; i++) {
    lua_getiuservalue(L, 1, i);
    lua_getiuservalue(L, 2, i);
    same = LUN_BIND_SCOPED(a) && i == 1 ? lua_compare(L, -1, -2, LUA_OPEQ) : lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
  }
  lua_pushboolean(L, same);
  return 1;
}

/* __tostring of bindings: "Binding(true)"; one that reaches a
 * SecureField's text, as the field shows it: Binding("••") (hidden: …). */
static int lun_binding_tostring(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_BINDING);
  if (lun_binding_get_secrecy(L, 1)) {
    lun_secret_describe(L, -1, "Binding(", ")");
    return 1;
  }
  lun_describe(L, -1, 1);
  lua_pushfstring(L, "Binding(%s)", lua_tostring(L, -1));
  return 1;
}

/* ui.Binding(get, set) -> binding. */
static int lun_ui_binding(lua_State *L) {
  lun_no_extra(L, "ui.Binding", 2, 1);            /* (the Binding table, get, set) */
  lua_settop(L, 3);
  if (lua_type(L, 2) != LUA_TFUNCTION || lua_type(L, 3) != LUA_TFUNCTION)
    return lun_error_here(L, "ui.Binding(get, set) takes two functions, got a %s and a %s", luaL_typename(L, 2),
                          luaL_typename(L, 3));
  lun_binding_new(L, LUN_BIND_FUNCS, 2, 3);
  return 1;
}

/* ui._element(binding, id, index, idOf) -> the binding of a ForEach($items)
 * row whose element has id (the prelude's: taken once, then gone). */
static int lun_ui_element(lua_State *L) {
  lua_Integer index = luaL_checkinteger(L, 3);
  luaL_checkudata(L, 1, LUN_MT_BINDING);
  luaL_checktype(L, 4, LUA_TFUNCTION);
  lun_binding_new(L, LUN_BIND_ELEMENT, 1, 2);
  ((lun_Binding *)lua_touserdata(L, -1))->hint = index;
  lua_pushvalue(L, 4);
  lua_setiuservalue(L, -2, 4);
  return 1;
}

/* __newindex of bindings: refused, naming the ways to write. */
static int lun_binding_newindex(lua_State *L) {
  const char *key = luaL_tolstring(L, 2, NULL);
  return lun_error_here(L, "a Binding's members cannot be assigned: write b.%s:set(v) (a scoped binding), "
                        "or b:set(v) for the whole value", key);
}

/* ui.Binding.constant(v) -> binding that ignores writes. */
static int lun_ui_binding_constant(lua_State *L) {
  lun_no_extra(L, "ui.Binding.constant", 1, 0);
  lua_settop(L, 1);
  if (lun_is_none(L, 1)) {                        /* ui.none where a nil cannot be written: a binding to nil */
    lua_pushnil(L);
    lua_replace(L, 1);
  }
  lun_binding_new(L, LUN_BIND_CONST, 1, 0);
  return 1;
}

/* Raises unless the value at idx may be made Bindable: SwiftUI's Bindable
 * takes an Observable, not an ObservableObject (whose bindings come from
 * the observedObject, stateObject and environmentObject sections). */
void lun_bindable_check(lua_State *L, int idx) {
  if (lun_object_is_observable_object(L, idx))
    lun_error_here(L, "Bindable needs an @Observable model (ui.Observable), got the ObservableObject %s: "
                   "an observedObject, stateObject or environmentObject gives its bindings (self[\"$name\"].prop)",
                   lun_object_classname(L, idx));
}

/* Pushes ui.Bindable(obj) for the object at objidx. [-0, +1] */
void lun_bindable_push(lua_State *L, int objidx) {
  int32_t handle;
  objidx = lua_absindex(L, objidx);
  if (!lun_object_test(L, objidx) && !lun_host_test(L, objidx, &handle))
    luaL_error(L, "Bindable needs an observable object, got %s", luaL_typename(L, objidx));
  lua_newuserdatauv(L, 1, 1);
  lua_pushvalue(L, objidx);
  lua_setiuservalue(L, -2, 1);
  luaL_setmetatable(L, LUN_MT_BINDABLE);
}

/* ui.Bindable(obj) -> bindable. */
static int lun_ui_bindable(lua_State *L) {
  luaL_checkany(L, 1);
  lun_no_extra(L, "ui.Bindable", 1, 0);
  lun_bindable_check(L, 1);
  lun_bindable_push(L, 1);
  return 1;
}

/* __index of bindables: (bindable, name) -> Binding to obj[name]. */
static int lun_bindable_index(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_BINDABLE);
  lua_settop(L, 2);
  lua_getiuservalue(L, 1, 1);
  if (lun_object_test(L, -1) && !lun_object_prop(L, -1, 2)) {
    const char *key = luaL_tolstring(L, 2, NULL);
    lun_object_suggest(L, 3, key);
    return lun_error_here(L, "%s has no property '%s' to bind%s", lun_object_classname(L, 3), key, lua_tostring(L, -1));
  }
  lun_binding_new(L, LUN_BIND_PROP, -1, 2);
  return 1;
}

#define LUN_MT_DISMISS "lunette.Dismiss"

/* Pushes a dismiss action for the sheet presented by the binding at bidx:
 * it sets the binding false, or nil for a sheet(item:). [-0, +1] */
void lun_dismiss_push(lua_State *L, int bidx, int toNil) {
  bidx = lua_absindex(L, bidx);
  *(unsigned char *)lua_newuserdatauv(L, 1, 1) = (unsigned char)toNil;
  lua_pushvalue(L, bidx);
  lua_setiuservalue(L, -2, 1);
  luaL_setmetatable(L, LUN_MT_DISMISS);
}

/* __call of a dismiss action: () -> (): sets its sheet's binding false (or nil). */
static int lun_dismiss_call(lua_State *L) {
  unsigned char *toNil = (unsigned char *)luaL_checkudata(L, 1, LUN_MT_DISMISS);
  lua_getiuservalue(L, 1, 1);
  if (*toNil) lua_pushnil(L); else lua_pushboolean(L, 0);
  lun_binding_set(L, -2, -1);
  return 0;
}

/* __eq of dismiss actions: the same binding. */
static int lun_dismiss_eq(lua_State *L) {
  if (!luaL_testudata(L, 1, LUN_MT_DISMISS) || !luaL_testudata(L, 2, LUN_MT_DISMISS)) {
    lua_pushboolean(L, 0);
    return 1;
  }
  lua_getiuservalue(L, 1, 1);
  lua_getiuservalue(L, 2, 1);
  lua_pushboolean(L, lua_compare(L, -1, -2, LUA_OPEQ));
  return 1;
}

/* The default `dismiss` outside a sheet: does nothing. */
static int lun_dismiss_nothing(lua_State *L) {
  (void)L;
  return 0;
}

void lun_open_binding(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"get", lun_binding_m_get}, {"set", lun_binding_m_set}, {"animation", lun_binding_m_animation}, {NULL, NULL}};
  lun_newmetatable(L, LUN_MT_BINDING);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_pushcclosure(L, lun_binding_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, lun_binding_eq);
  lua_setfield(L, -2, "__eq");
  lua_pushcfunction(L, lun_binding_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, lun_binding_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  lun_newmetatable(L, LUN_MT_BINDABLE);
  lua_pushcfunction(L, lun_bindable_index);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  /* ui.Binding: callable, with .constant */
  lua_newtable(L);
  lua_pushcfunction(L, lun_ui_binding_constant);
  lua_setfield(L, -2, "constant");
  lua_newtable(L);
  lua_pushcfunction(L, lun_ui_binding);
  lua_setfield(L, -2, "__call");
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "Binding");
  lua_pushcfunction(L, lun_ui_bindable);
  lua_setfield(L, -2, "Bindable");
  lua_pushcfunction(L, lun_ui_element);
  lua_setfield(L, -2, "_element");
  lun_newmetatable(L, LUN_MT_DISMISS);
  lua_pushcfunction(L, lun_dismiss_call);
  lua_setfield(L, -2, "__call");
  lua_pushcfunction(L, lun_dismiss_eq);
  lua_setfield(L, -2, "__eq");
  lua_pop(L, 1);
  lun_registry_table(L, &lun_key_envkeys);         /* the built-in key `dismiss` */
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, lun_dismiss_nothing);
  lua_setfield(L, -2, "value");
  lua_setfield(L, -2, "dismiss");
  lua_pop(L, 1);
}
