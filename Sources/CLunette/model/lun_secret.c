/*
 * lun_secret.c — where a SecureField's text lives, kept secret (issue 19).
 *
 * The rule: a value source that a SecureField's binding has reached is
 * secret, and stays secret. Every description of it shows what the field
 * shows (one bullet a character), marked "(hidden: a SecureField's text)".
 *
 * A value source is a property of a model instance (a view's state, an
 * Observable's or ObservableObject's property, a stored key's cell, a Swift
 * object's), or the binding itself for one that reaches no property (a
 * constant). What a field's binding reaches is its root's object and key,
 * and every property read while the field reads its value (the reads of a
 * ui.Binding(get, set), lun_secret_reads). A mark is kept on the instance,
 * while it lives, and on its declaration: the class name (a view type's
 * state class is "Login.state") and the property. So every instance of that
 * view type or model class is secret too, present or future, and after a
 * reload (a new class of the same name). Descriptions ask here: a
 * Binding's tostring (so a Binding anywhere in a value is hidden), a model
 * instance's tostring, and inspection's lines of state.
 */
#include "core/core.h"
#include "model/model.h"

static const char lun_key_secrets = 0;   /* instance or binding -> true | { key = true }; class name -> { key = true } */

/* Pushes the table of marks, made on first use (weak keys: an instance's
 * marks go with it; a class name, a string, stays). [-0, +1] */
static void lun_secret_table(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lun_key_secrets) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lun_new_weak_table(L, "k");
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lun_key_secrets);
}

/* marks[owner][key] = true for the owner at oidx and key at kidx. [-0, +0] */
static void lun_secret_set(lua_State *L, int oidx, int kidx) {
  oidx = lua_absindex(L, oidx);
  kidx = lua_absindex(L, kidx);
  lun_secret_table(L);
  lua_pushvalue(L, oidx);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, oidx);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_pushvalue(L, kidx);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 2);
}

/* 1 if marks[owner][key] is set for the owner at oidx and key at kidx. [-0, +0] */
static int lun_secret_get(lua_State *L, int oidx, int kidx) {
  int secret = 0;
  oidx = lua_absindex(L, oidx);
  kidx = lua_absindex(L, kidx);
  lun_secret_table(L);
  lua_pushvalue(L, oidx);
  if (lua_rawget(L, -2) == LUA_TTABLE) {
    lua_pushvalue(L, kidx);
    secret = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  return secret;
}

/* Pushes the declaration's name of the model instance at idx ("Login.state",
 * "Account"), or nil for any other value. [-0, +1] */
static void lun_secret_class(lua_State *L, int idx) {
  if (!lun_object_test(L, idx)) { lua_pushnil(L); return; }
  lua_pushstring(L, lun_object_classname(L, idx));
}

/* Marks property key (at kidx) of the object at objidx secret: on the
 * object, and on its class for a model instance. [-0, +0] */
void lun_secret_mark_prop(lua_State *L, int objidx, int kidx) {
  objidx = lua_absindex(L, objidx);
  kidx = lua_absindex(L, kidx);
  if (lua_type(L, objidx) != LUA_TUSERDATA && lua_type(L, objidx) != LUA_TTABLE) return;
  lun_secret_set(L, objidx, kidx);
  lun_secret_class(L, objidx);
  if (!lua_isnil(L, -1)) lun_secret_set(L, -1, kidx);
  lua_pop(L, 1);
}

/* 1 if property key (at kidx) of the object at objidx is secret (marked on
 * it, or on its class). [-0, +0] */
int lun_secret_prop(lua_State *L, int objidx, int kidx) {
  int secret;
  objidx = lua_absindex(L, objidx);
  kidx = lua_absindex(L, kidx);
  if (lua_type(L, objidx) != LUA_TUSERDATA && lua_type(L, objidx) != LUA_TTABLE) return 0;
  if (lun_secret_get(L, objidx, kidx)) return 1;
  lun_secret_class(L, objidx);
  secret = !lua_isnil(L, -1) && lun_secret_get(L, -1, kidx);
  lua_pop(L, 1);
  return secret;
}

/* Marks the value at idx itself secret (a binding that reaches no property). [-0, +0] */
void lun_secret_mark_value(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  lun_secret_table(L);
  lua_pushvalue(L, idx);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* 1 if the value at idx itself was marked secret. [-0, +0] */
int lun_secret_value(lua_State *L, int idx) {
  int secret;
  idx = lua_absindex(L, idx);
  lun_secret_table(L);
  lua_pushvalue(L, idx);
  secret = lua_rawget(L, -2) == LUA_TBOOLEAN;
  lua_pop(L, 2);
  return secret;
}

/* Marks, or tells, the property a graph node of a script's model stands
 * for (origin LUA: owner is the instance's serial, slot its property). [-0, +0] */
static int lun_secret_node(lua_State *L, const lun_GraphNode *n, int mark) {
  int secret = 0, top = lua_gettop(L);
  if (n->origin != LUN_ORIGIN_LUA || n->slot <= 0 || !lun_object_push_serial(L, n->owner)) return 0;
  if (lua_getmetatable(L, -1) && lua_rawgeti(L, -1, LUN_META_NAMES) == LUA_TTABLE &&
      lua_rawgeti(L, -1, n->slot) == LUA_TSTRING) {
    if (mark) lun_secret_mark_prop(L, top + 1, -1);
    secret = lun_secret_prop(L, top + 1, -1);
  }
  lua_settop(L, top);
  return secret;
}

/* Runs read(value at argidx) -> one value, tracking what it reads apart:
 * each property read is marked secret if mark, and counted if secret; the
 * reads are then tracked by the running scope as they would have been.
 * Leaves the value on top; raises what read raised (after restoring the
 * scope). Returns 1 if a property read is secret. [-0, +1] */
int lun_secret_reads(lua_State *L, lua_CFunction read, int argidx, int mark) {
  lun_State *S = lun_state(L);
  int32_t saved = S->active, node, l;
  int status, secret = 0;
  argidx = lua_absindex(L, argidx);
  node = lun_graph_node_new(S->graph, LUN_GRAPH_EFFECT, LUN_ORIGIN_UNIT, 0, 0);
  if (!node) luaL_error(L, "not enough memory");
  lua_pushcfunction(L, read);
  lua_pushvalue(L, argidx);
  S->active = node;
  lun_graph_run_begin(S->graph, node);
  status = lua_pcall(L, 1, 1, 0);
  lun_graph_run_end(S->graph, node, status == LUA_OK);
  S->active = saved;
  for (l = S->graph->nodes[node].deps; l; l = S->graph->links[l].nextDep) {
    int32_t dep = S->graph->links[l].dep;
    if (saved) lun_graph_track(S->graph, saved, dep);
    if (status == LUA_OK && lua_checkstack(L, 8)) secret |= lun_secret_node(L, &S->graph->nodes[dep], mark);
  }
  lun_graph_node_free(S->graph, node);
  if (status != LUA_OK) lua_error(L);
  return secret;
}

/* Pushes one bullet per character of the string at idx (a SecureField's
 * text, never shown): UTF-8 continuation bytes are not counted. [-0, +1] */
void lun_secure_text(lua_State *L, int idx) {
  luaL_Buffer b;
  size_t i, len;
  const char *s = lua_tolstring(L, idx, &len);
  luaL_buffinit(L, &b);
  for (i = 0; s && i < len; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80) luaL_addstring(&b, "\xE2\x80\xA2");   /* U+2022 */
  luaL_pushresult(&b);
}

/* Pushes the value at vidx as a description shows a secret: a string as
 * its bullets, anything else as nothing, wrapped in before/after
 * ("Binding(", ")"), then LUN_SECRET_HIDDEN. [-0, +1] */
void lun_secret_describe(lua_State *L, int vidx, const char *before, const char *after) {
  vidx = lua_absindex(L, vidx);
  if (lua_type(L, vidx) == LUA_TSTRING) {
    lun_secure_text(L, vidx);
    lua_pushfstring(L, "%s\"%s\"%s " LUN_SECRET_HIDDEN, before, lua_tostring(L, -1), after);
    lua_remove(L, -2);
  } else if (*before) lua_pushfstring(L, "%s…%s " LUN_SECRET_HIDDEN, before, after);
  else lua_pushliteral(L, LUN_SECRET_HIDDEN);
}
