/*
 * lun_animation.c — animations: ui.Animation, ui.withAnimation,
 * binding:animation(a) and view:animation(a, value).
 *
 * An animation is a table { curve, duration, delaySeconds } shown as "easeInOut
 * 0.3s" ("… delay 1s"); animation:delay(s) and animation:speed(x) make
 * another, as SwiftUI's modifiers of an Animation do.
 * withAnimation runs its function as a transaction carrying the animation
 * (lun_transaction.c); the host records it on the nodes those changes altered.
 */
#include "core/core.h"
#include "life/life.h"

#define LUN_MT_ANIMATION "lunette.Animation"

/* Pushes a new animation { curve, duration }. [-0, +1] */
static void lun_animation_new(lua_State *L, const char *curve, lua_Number duration) {
  lua_createtable(L, 0, 2);
  lua_pushstring(L, curve);
  lua_setfield(L, -2, "curve");
  if (duration >= 0) {
    lua_pushnumber(L, duration);
    lua_setfield(L, -2, "duration");
  }
  luaL_setmetatable(L, LUN_MT_ANIMATION);
}

/* 1 if the value at idx is an animation. */
int lun_animation_test(lua_State *L, int idx) {
  int same;
  if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
  luaL_getmetatable(L, LUN_MT_ANIMATION);
  same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

/* Checks that argument arg is an animation. */
void lun_animation_check(lua_State *L, int arg) {
  if (!lun_animation_test(L, arg))
    luaL_argerror(L, arg, lua_pushfstring(L, "animation expected (ui.Animation.easeInOut(0.3), ...), got %s",
                                          luaL_typename(L, arg)));
}

/* Pushes the default animation. [-0, +1] */
void lun_animation_default(lua_State *L) {
  lun_animation_new(L, "default", -1);
}

/* __tostring of animations: "easeInOut 0.3s", "default", "linear 1s delay 0.5s". */
static int lun_animation_tostring(lua_State *L) {
  lun_rawfield(L, 1, "curve");
  if (lun_rawfield(L, 1, "duration") == LUA_TNUMBER) lua_pushfstring(L, "%s %ss", lua_tostring(L, -2), lua_tostring(L, -1));
  else lua_pushvalue(L, -2);
  if (lun_rawfield(L, 1, "delaySeconds") == LUA_TNUMBER) {
    lua_pushfstring(L, "%s delay %ss", lua_tostring(L, -2), lua_tostring(L, -1));
    return 1;
  }
  lua_pop(L, 1);
  return 1;
}

/* Pushes a copy of the animation at 1 (its fields, its metatable). [-0, +1] */
static void lun_animation_copy(lua_State *L) {
  lua_createtable(L, 0, 4);
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  luaL_setmetatable(L, LUN_MT_ANIMATION);
}

/* animation:delay(seconds) -> animation: it starts that much later (its
 * completion too): SwiftUI's delay(_:), "Delays the start of the animation
 * by the specified number of seconds". Delays add up. */
static int lun_animation_m_delay(lua_State *L) {
  lua_Number d, before;
  lun_animation_check(L, 1);
  lun_no_extra(L, "animation:delay", 1, 1);
  d = luaL_checknumber(L, 2);
  luaL_argcheck(L, d >= 0 && d <= 1e9, 2, "delay must be a number of seconds from 0 to 1e9");
  before = lun_rawfield(L, 1, "delaySeconds") == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
  lua_pop(L, 1);
  luaL_argcheck(L, before + d <= 1e9, 2, "delays add up to at most 1e9 seconds");
  lun_animation_copy(L);
  if (before + d > 0) {
    lua_pushnumber(L, before + d);
    lua_setfield(L, -2, "delaySeconds");
  }
  return 1;
}

/* animation:speed(factor) -> animation: its duration divided by factor
 * (SwiftUI's speed(_:), "Changes the duration of an animation by adjusting
 * its speed"); the default animation's is 0.35 s. */
static int lun_animation_m_speed(lua_State *L) {
  lua_Number x, duration;
  lun_animation_check(L, 1);
  lun_no_extra(L, "animation:speed", 1, 1);
  x = luaL_checknumber(L, 2);
  luaL_argcheck(L, x > 0 && x <= 1e9, 2, "speed must be a number above 0, at most 1e9");
  duration = lun_rawfield(L, 1, "duration") == LUA_TNUMBER ? lua_tonumber(L, -1) : 0.35;
  lua_pop(L, 1);
  luaL_argcheck(L, duration / x <= 1e9, 2, "the duration it makes must be at most 1e9 seconds");
  lun_animation_copy(L);
  lua_pushnumber(L, duration / x);
  lua_setfield(L, -2, "duration");
  return 1;
}

/* __index of animations: a method; nil for a field an animation may lack;
 * else an error naming what it offers (a method SwiftUI's Animation has and
 * Lunette not, called, said "attempt to call a nil value"). */
static int lun_animation_index(lua_State *L) {
  static const char *const fields[] = {"curve", "duration", "delaySeconds", "damping", "blendDuration", "bounce", NULL};
  static const char *const methods[] = {"delay", "speed", NULL};
  const char *key = lua_tostring(L, 2);
  int i;
  lua_settop(L, 2);
  if (key && strcmp(key, "delay") == 0) { lua_pushcfunction(L, lun_animation_m_delay); return 1; }
  if (key && strcmp(key, "speed") == 0) { lua_pushcfunction(L, lun_animation_m_speed); return 1; }
  for (i = 0; key && lua_type(L, 2) == LUA_TSTRING && fields[i]; i++)
    if (strcmp(key, fields[i]) == 0) return 0;
  key = luaL_tolstring(L, 2, NULL);
  lun_push_suggestion(L, key, 0, methods);
  return lun_error_here(L, "an animation has no '%s'%s (it offers :delay(s) and :speed(x); repeatCount and "
                        "repeatForever are not offered)", key, lua_tostring(L, -1));
}

/* A curve constructor: (duration?) -> animation. Upvalues: curve name, default duration. */
static int lun_animation_curve(lua_State *L) {
  lua_Number d;
  int i;
  for (i = 2; i <= lua_gettop(L); i++)            /* D10: an argument it would not use */
    if (!lua_isnil(L, i))
      lun_error_here(L, "ui.Animation.%s takes at most 1 argument, got a %s as argument %d",
                     lua_tostring(L, lua_upvalueindex(1)), luaL_typename(L, i), i);
  d = luaL_optnumber(L, 1, lua_tonumber(L, lua_upvalueindex(2)));
  luaL_argcheck(L, d == d, 1, "duration must be a number, not NaN");
  luaL_argcheck(L, d >= 0 && d <= 1e9, 1, "duration must be a number of seconds from 0 to 1e9");
  lun_animation_new(L, lua_tostring(L, lua_upvalueindex(1)), d);
  return 1;
}

/* ui.Animation.spring(response?, dampingFraction?, blendDuration?) ->
 * animation: SwiftUI's spring(response:dampingFraction:blendDuration:).
 * Its response is its duration; the fraction and the blend are kept on it
 * (`damping`, `blendDuration`) — Lunette draws no curve. */
static int lun_animation_spring(lua_State *L) {
  lua_Number response, damping, blend;
  lun_no_extra(L, "ui.Animation.spring", 3, 0);
  response = luaL_optnumber(L, 1, 0.5);
  damping = luaL_optnumber(L, 2, 0.825);
  blend = luaL_optnumber(L, 3, 0);
  luaL_argcheck(L, response >= 0 && response <= 1e9, 1, "response must be a number of seconds from 0 to 1e9");
  luaL_argcheck(L, damping >= 0 && damping <= 1e9, 2, "dampingFraction must be a number from 0 (not NaN)");
  luaL_argcheck(L, blend >= 0 && blend <= 1e9, 3, "blendDuration must be a number of seconds from 0 to 1e9");
  lun_animation_new(L, "spring", response);
  lua_pushnumber(L, damping);
  lua_setfield(L, -2, "damping");
  lua_pushnumber(L, blend);
  lua_setfield(L, -2, "blendDuration");
  return 1;
}

/* ui.Animation.bouncy / smooth / snappy(duration?, extraBounce?) ->
 * animation: SwiftUI's spring presets, "a predefined duration" (0.5 s) and
 * a base bounce of 0.3, 0 and 0.15, plus extraBounce
 * (https://developer.apple.com/documentation/swiftui/animation/bouncy(duration:extrabounce:)),
 * kept on it as `bounce`. Upvalues: its name, its base bounce. */
static int lun_animation_preset(lua_State *L) {
  char call[32];
  lua_Number duration, extra;
  snprintf(call, sizeof call, "ui.Animation.%s", lua_tostring(L, lua_upvalueindex(1)));
  lun_no_extra(L, call, 2, 0);
  duration = luaL_optnumber(L, 1, 0.5);
  extra = luaL_optnumber(L, 2, 0);
  luaL_argcheck(L, duration == duration, 1, "duration must be a number, not NaN");
  luaL_argcheck(L, duration >= 0 && duration <= 1e9, 1, "duration must be a number of seconds from 0 to 1e9");
  luaL_argcheck(L, extra >= -2 && extra <= 2, 2, "extraBounce must be a number from -2 to 2 (a bounce is -1 to 1)");
  lun_animation_new(L, lua_tostring(L, lua_upvalueindex(1)), duration);
  lua_pushnumber(L, lua_tonumber(L, lua_upvalueindex(2)) + extra);
  lua_setfield(L, -2, "bounce");
  return 1;
}

/* __index of ui.Animation: (Animation, key) -> raises, naming the key and
 * the closest name it has (F12: a misspelt animation read as nil would
 * mean "no animation"). */
static int lun_animation_unknown(lua_State *L) {
  static const char *const names[] = {"default", "linear", "easeIn", "easeOut", "easeInOut", "spring",
                                      "bouncy", "smooth", "snappy", NULL};
  const char *key = luaL_tolstring(L, 2, NULL);
  lun_push_suggestion(L, key, 0, names);
  return lun_error_here(L, "ui.Animation has no '%s'%s", key, lua_tostring(L, -1));
}

/* ui.withAnimation([animation,] fn [, completion [, { completionCriteria }]]) -> ():
 * changes made by fn are animated with it; completion is called once when
 * the animation is complete by its criteria, "logicallyComplete" (after
 * its duration on the runtime's clock) or "removed" (also after every
 * later animation of what it changed), or right after fn, before this
 * returns, when fn changed nothing a view reads or the animation is nil,
 * so nothing animates (D05, lun_completion.c). A nil animation (SwiftUI's
 * `Animation?`) runs fn in a transaction with none. */
static int lun_ui_with_animation(lua_State *L) {
  static const char *const options[] = {"completionCriteria", NULL};
  static const char *const criteria[] = {"logicallyComplete", "removed", NULL};
  lua_Number duration = 0.35;                     /* SwiftUI's default animation */
  int removed = 0, status;
  int32_t txid;
  lun_no_extra(L, "ui.withAnimation", lun_is_callable(L, 1) ? 3 : 4, 0);   /* as the caller counts them */
  if (lun_is_callable(L, 1)) {                    /* withAnimation(fn [, completion]): the default animation */
    lun_animation_default(L);
    lua_insert(L, 1);
  }
  if (!lua_isnil(L, 1) || !lun_is_callable(L, 2)) lun_animation_check(L, 1);   /* nil: no animation */
  lun_check_callback(L, 2);
  if (!lua_isnoneornil(L, 3)) lun_check_callback(L, 3);
  if (!lua_isnoneornil(L, 4)) {                   /* { completionCriteria = "removed" } */
    luaL_checktype(L, 4, LUA_TTABLE);
    lun_check_keys(L, 4, options, "ui.withAnimation", "option");
    if (lua_getfield(L, 4, "completionCriteria") != LUA_TNIL) {
      if (lua_type(L, -1) != LUA_TSTRING || !(strcmp(lua_tostring(L, -1), criteria[0]) == 0 ||
                                               (removed = strcmp(lua_tostring(L, -1), criteria[1]) == 0)))
        lun_error_here(L, "ui.withAnimation: completionCriteria must be \"logicallyComplete\" or \"removed\", got %s",
                       luaL_tolstring(L, -1, NULL));
      if (lua_isnil(L, 3))
        lun_error_here(L, "ui.withAnimation: completionCriteria needs a completion function (the third argument)");
    }
  }
  lua_settop(L, 3);
  if (!lua_isnil(L, 1) && lun_rawfield(L, 1, "duration") == LUA_TNUMBER) duration = lua_tonumber(L, -1);
  if (!lua_isnil(L, 1) && lun_rawfield(L, 1, "delaySeconds") == LUA_TNUMBER) duration += lua_tonumber(L, -1);
  lua_settop(L, 3);
  lua_newtable(L);                                /* 4: what the body did */
  lun_completion_wrap(L, 2, 4);                   /* 5: the body, logging it */
  txid = lun_animation_transaction(L, 1);         /* 6 */
  status = lun_transaction_try(L, 6, 5, 0);
  if (lua_isnil(L, 1)) {                          /* no animation: nothing animates */
    lua_pushboolean(L, 0);
    lua_setfield(L, 4, "views");
  }
  /* "The completion callback will always be fired exactly one time"
   * (Transaction.addAnimationCompletion): also when fn raised, for what it
   * changed before — but not while the budget stops the script */
  if (status == LUA_OK || !lun_budget_stopping(lun_state(L)))
    lun_completion_schedule(L, 4, 3, (double)duration, removed, txid);
  if (status != LUA_OK) lua_error(L);             /* fn's error, on top */
  return 0;
}

void lun_open_animation(lua_State *L) {
  static const struct { const char *name; double duration; } curves[] = {
    {"linear", 0.35}, {"easeIn", 0.35}, {"easeOut", 0.35}, {"easeInOut", 0.35}, {NULL, 0}};
  static const struct { const char *name; double bounce; } presets[] = {
    {"bouncy", 0.3}, {"smooth", 0}, {"snappy", 0.15}, {NULL, 0}};
  int i;
  lun_newmetatable(L, LUN_MT_ANIMATION);
  lua_pushcfunction(L, lun_animation_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, lun_animation_index);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_newtable(L);                                /* ui.Animation */
  for (i = 0; curves[i].name; i++) {
    lua_pushstring(L, curves[i].name);
    lua_pushnumber(L, curves[i].duration);
    lua_pushcclosure(L, lun_animation_curve, 2);
    lua_setfield(L, -2, curves[i].name);
  }
  lua_pushcfunction(L, lun_animation_spring);
  lua_setfield(L, -2, "spring");
  for (i = 0; presets[i].name; i++) {
    lua_pushstring(L, presets[i].name);
    lua_pushnumber(L, presets[i].bounce);
    lua_pushcclosure(L, lun_animation_preset, 2);
    lua_setfield(L, -2, presets[i].name);
  }
  lua_createtable(L, 0, 1);                       /* a name it lacks is an error, not nil */
  lua_pushcfunction(L, lun_animation_unknown);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lun_animation_new(L, "default", -1);
  lua_setfield(L, -2, "default");
  lua_setfield(L, -2, "Animation");
  lua_pushcfunction(L, lun_ui_with_animation);
  lua_setfield(L, -2, "withAnimation");
}
