/*
 * lun_publisher.c — publishers: ui.Subject and what subscribing returns.
 *
 * A subject is a userdata whose user value is an array of subscriber
 * functions (false where one was cancelled). subject:send(v) calls them in
 * subscription order; subject:sink(fn) returns a cancellable. Anything with
 * a :sink(fn) method returning something with :cancel() is a publisher to
 * :onReceive (objectWillChange, ui.Timer.publish, user publishers).
 */
#include "core/core.h"
#include "model/model.h"

#define LUN_MT_SUBJECT "lunette.Subject"
#define LUN_MT_CANCELLABLE "lunette.Cancellable"

/* Pushes a new subject. [-0, +1] */
void lun_subject_push_new(lua_State *L) {
  lua_newuserdatauv(L, 1, 1);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  luaL_setmetatable(L, LUN_MT_SUBJECT);
}

/* 1 if the value at idx is a subject (ui.Subject, objectWillChange). */
int lun_subject_test(lua_State *L, int idx) {
  return luaL_testudata(L, idx, LUN_MT_SUBJECT) != NULL;
}

/* Calls every live subscriber of the subject at subjectidx with the value at vidx. */
void lun_subject_send(lua_State *L, int subjectidx, int vidx) {
  lua_Integer i, n;
  subjectidx = lua_absindex(L, subjectidx);
  vidx = lua_absindex(L, vidx);
  lua_getiuservalue(L, subjectidx, 1);
  n = (lua_Integer)lua_rawlen(L, -1);              /* later subscribers wait for the next send */
  for (i = 1; i <= n; i++) {
    if (lua_rawgeti(L, -1, i) != LUA_TFUNCTION) { lua_pop(L, 1); continue; }
    lua_pushvalue(L, vidx);
    lua_call(L, 1, 0);
  }
  lua_pop(L, 1);
}

/* ui.Subject() -> subject. */
static int lun_ui_subject(lua_State *L) {
  lun_no_extra(L, "ui.Subject", 0, 0);
  lun_subject_push_new(L);
  return 1;
}

/* subject:send(v) -> (). */
static int lun_subject_m_send(lua_State *L) {
  luaL_checkudata(L, 1, LUN_MT_SUBJECT);
  lua_settop(L, 2);
  lun_subject_send(L, 1, 2);
  return 0;
}

/* subject:sink(fn) -> cancellable. */
static int lun_subject_m_sink(lua_State *L) {
  lua_Integer n;
  luaL_checkudata(L, 1, LUN_MT_SUBJECT);
  lun_check_callback(L, 2);
  lua_getiuservalue(L, 1, 1);
  n = (lua_Integer)lua_rawlen(L, -1) + 1;
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, n);
  lua_newuserdatauv(L, sizeof(lua_Integer), 1);
  *(lua_Integer *)lua_touserdata(L, -1) = n;
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1);
  luaL_setmetatable(L, LUN_MT_CANCELLABLE);
  return 1;
}

/* cancellable:cancel() -> (): the subscriber is called no more. */
static int lun_cancellable_cancel(lua_State *L) {
  lua_Integer *n = (lua_Integer *)luaL_checkudata(L, 1, LUN_MT_CANCELLABLE);
  if (*n <= 0) return 0;
  lua_getiuservalue(L, 1, 1);
  lua_getiuservalue(L, -1, 1);
  lua_pushboolean(L, 0);
  lua_rawseti(L, -2, *n);
  *n = 0;
  return 0;
}

void lun_open_publisher(lua_State *L) {
  static const luaL_Reg subject[] = {{"send", lun_subject_m_send}, {"sink", lun_subject_m_sink}, {NULL, NULL}};
  static const luaL_Reg cancellable[] = {{"cancel", lun_cancellable_cancel}, {NULL, NULL}};
  lun_newmetatable_methods(L, LUN_MT_SUBJECT, subject);
  lun_newmetatable_methods(L, LUN_MT_CANCELLABLE, cancellable);
  lun_handle_kind(L, LUN_MT_CANCELLABLE, lun_cancellable_cancel);   /* ends with a view's state holding it */
  lua_pushcfunction(L, lun_ui_subject);
  lua_setfield(L, -2, "Subject");
}
