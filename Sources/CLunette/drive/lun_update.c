/*
 * lun_update.c — updating one unit the host hands out (lun_flush.c loops).
 *
 * lun_flush takes the host's units a batch at a time, parents first. Each
 * update runs in one protected call: unless the unit must run anyway, it
 * first checks whether what it read really changed (refreshing computeds
 * on the way); then it runs the unit's function in its tracking scope and
 * walks the result. If a very deep never-evaluated computed chain made the
 * run suspend, the deepest node is settled from the top and the update is
 * tried again (bodies describe views; running one again is harmless).
 * The queued effects (C's, lun_effect.c) take the same path without the
 * output, all in one protected call a batch (lun_effects_run): a try that
 * leaves the batch by an error ends its own effect's update here.
 */
#include "core/core.h"
#include "model/model.h"
#include "life/life.h"
#include "view/view.h"
#include "drive/drive.h"

/* One update in progress; lives on the C stack of lun_update. */
typedef struct lun_Run {
  lun_State *S;
  lun_Ticket ticket;
  lun_Walk walk;
  int32_t saved;     /* the tracking scope to restore */
  int32_t savedRendering; /* the rendering unit to restore */
  int32_t savedScript;    /* the script's run whose effect ran, to restore (lun_State.runScript) */
  int checked;       /* dependencies were found stale: do not check again */
  int tracking;      /* run_begin was called: run_end is due */
  int rendered;      /* the function ran to the end */
  int checking;      /* the dependency check is running */
  int traced;        /* an effect's run was traced (once, however often it retries) */
  int lifeless;      /* the run ended with no life list, and the record held none: nothing to diff */
  int began;         /* a try reached its function (run_begin): the graph saw it run */
} lun_Run;

/* Raises "file:line: the function returned a T, expected a view" for the function at fidx. */
static int lun_bad_result(lua_State *L, int fidx, int ridx) {
  lua_Debug ar;
  lun_push_callee(L, fidx);
  lua_getinfo(L, ">S", &ar);
  return luaL_error(L, "%s:%d: the function returned a %s, expected a view", ar.short_src, ar.linedefined,
                    luaL_typename(L, ridx));
}

/* 1 if two results of the same body describe the same tree: the same
 * structure and values; functions and userdata (actions, bindings) match
 * any of their kind, since each run makes its own. */
static int lun_same_tree(lua_State *L, int a, int b, int depth, unsigned *visits) {
  int same = 1;
  size_t count = 0;
  a = lua_absindex(L, a);
  b = lua_absindex(L, b);
  if (lua_type(L, a) != lua_type(L, b)) return 0;
  switch (lua_type(L, a)) {
    case LUA_TFUNCTION: case LUA_TUSERDATA: case LUA_TTHREAD: case LUA_TLIGHTUSERDATA: return 1;
    case LUA_TTABLE: break;
    default: return lua_rawequal(L, a, b);
  }
  lun_nest(L, depth, "strict mode's comparison");
  lua_pushnil(L);
  while (same && lua_next(L, a)) {
    count++;
    lun_budget_every(L, ++*visits);               /* a value shared along many paths: as the walk */
    lua_pushvalue(L, -2);
    lua_rawget(L, b);
    same = lun_same_tree(L, -2, -1, depth + 1, visits);
    lua_pop(L, 2);
  }
  if (!same) { lua_pop(L, 1); return 0; }
  lua_pushnil(L);
  while (lua_next(L, b)) { count--; lua_pop(L, 1); }
  return count == 0;
}

/* Calls the function at fidx with nargs arguments above it and walks the
 * view it returns. In strict mode it runs twice and both runs must
 * describe the same tree (a body is a function of what it reads). */
LUN_HOT static void lun_run_view(lua_State *L, lun_Walk *W, int fidx, int nargs) {
  lun_State *S = lun_state(L);
  int t, first = 0;
  unsigned visits = 0;
  S->renderMade = S->objectsMade;                 /* the body may write what it makes, not its state */
  if (S->strict) {
    int i, base = lua_gettop(L) - nargs;
    lua_pushvalue(L, fidx);
    for (i = 1; i <= nargs; i++) lua_pushvalue(L, base + i);
    lun_attribute_mute(L, 1);                     /* what the first run writes is not output */
    lua_call(L, nargs, 1);
    lun_attribute_mute(L, 0);
    first = lua_gettop(L);
    lua_insert(L, base + 1);                      /* below the arguments */
    first = base + 1;
  }
  lua_pushvalue(L, fidx);
  lua_insert(L, -nargs - 1);
  lua_call(L, nargs, 1);
  t = lua_type(L, -1);
  if (t != LUA_TTABLE && t != LUA_TNIL && t != LUA_TUSERDATA) lun_bad_result(L, fidx, lua_gettop(L));
  if (t == LUA_TNIL && nargs == 1) {              /* a body (not a row) that returned nothing: a forgotten return */
    lua_Debug ar;
    lun_push_callee(L, fidx);
    lua_getinfo(L, ">S", &ar);
    luaL_error(L, "%s:%d: the body returned nothing, expected a view (return ui.EmptyView() to show nothing)",
               ar.short_src, ar.linedefined);
  }
  if (first && !lun_same_tree(L, first, -1, 0, &visits)) {
    lua_Debug ar;
    lun_push_callee(L, fidx);
    lua_getinfo(L, ">S", &ar);
    luaL_error(L, "%s:%d: strict mode: the body returned a different tree when run again (does it read something "
                  "that is not state, such as os.time or math.random?)", ar.short_src, ar.linedefined);
  }
  W->body = fidx;
  lun_walk_value(L, W, lua_gettop(L));
  W->body = 0;
}

/* Sets the element, row function and position of the row record on top. */
static void lun_row_set(lua_State *L, int elem, int row, lua_Integer i) {
  lua_pushvalue(L, elem);
  lua_setfield(L, -2, "elem");
  lua_pushvalue(L, row);
  lua_setfield(L, -2, "row");
  lua_pushinteger(L, i);
  lua_setfield(L, -2, "index");
}

/* Pushes "file:12: ", where the row function at `row` is. A row function
 * the prelude made (ForEach over a binding) holds the script's as its
 * upvalue `row`: that one's place. [-0, +1] */
static void lun_push_row_place(lua_State *L, int row) {
  lua_Debug ar;
  const char *name;
  int i;
  lun_push_callee(L, row);
  lua_getinfo(L, ">S", &ar);
  if (strcmp(ar.source, "=(lunette prelude)") == 0) {
    for (i = 1; (name = lua_getupvalue(L, row, i)) != NULL; i++) {
      if (strcmp(name, "row") == 0 && (lua_type(L, -1) == LUA_TFUNCTION || lua_type(L, -1) == LUA_TTABLE)) {
        lun_push_place(L, -1);
        lua_remove(L, -2);
        return;
      }
      lua_pop(L, 1);
    }
  }
  lun_push_place(L, row);
}

/* Warns that the row's id `key` (lun_identity_key's text) was an earlier
 * row's too, naming where the row function at `row` is: ForEach "computes
 * views on demand from an underlying collection of identified data"
 * (https://developer.apple.com/documentation/swiftui/foreach), and SwiftUI
 * logs an id that occurs more than once. Rows with one id are told apart
 * by their order, so when one goes its state may pass to another. Said
 * once a view and id (the host's inspect.warned). [-0, +0] */
static __attribute__((noinline, cold)) void lun_row_repeated(lua_State *L, lun_Walk *W, int row, const char *key, size_t klen) {
  int top = lua_gettop(L);
  const char *msg;
  size_t len;
  lun_push_row_place(L, row);
  if (klen >= 2 && key[0] == 's' && key[1] == ':') {
    lua_pushlstring(L, key + 2, klen - 2);
    lun_describe(L, -1, 1);
  } else if (klen >= 2 && key[0] == 'v' && key[1] == ':') {
    lua_pushlstring(L, key + 2, klen - 2);
  } else if (klen >= 2 && key[0] == 'h' && key[1] == ':') {   /* h:<length>:<digest> (lun_value.c) */
    const char *colon = memchr(key + 2, ':', klen - 2);
    lua_pushliteral(L, "of a ");
    lua_pushlstring(L, key + 2, colon ? (size_t)(colon - key - 2) : klen - 2);
    lua_pushliteral(L, "-byte string");
    lua_concat(L, 3);
  } else {
    lua_pushliteral(L, "of a table or object (");
    lua_pushlstring(L, key, klen);
    lua_pushliteral(L, ")");
    lua_concat(L, 3);
  }
  msg = lua_pushfstring(L, "%sthe id %s occurs more than once among the rows of a List or ForEach: rows with one id "
                           "are told apart by their order, so a row's state may pass to another when one goes (give "
                           "each element its own id)", lua_tostring(L, top + 1), lua_tostring(L, -1));
  len = lua_rawlen(L, -1);
  lunh(W->rt, inspect, warned, W->unit, msg, len);
  lua_settop(L, top);
}

/* Pushes the decimal text of n. [-0, +1] */
static const char *lun_push_count(lua_State *L, lua_Integer n, size_t *len) {
  lua_pushfstring(L, "%I", (LUAI_UACINT)n);
  return lua_tolstring(L, -1, len);
}

/* A list unit's run: iterates its data (tracked) and matches one row unit
 * per element in the window — rows first..last; a lazy List's window starts
 * where node:scroll put it (record.first), kept within the rows. */
static void lun_run_rows(lua_State *L, lun_State *S, lun_Walk *W) {
  lua_Integer i, n, first = 1, last;
  int data, row, marks, base;
  size_t len;
  const char *count;
  lua_getfield(L, W->record, "data");
  data = lua_gettop(L);
  lua_getfield(L, W->record, "row");
  row = lua_gettop(L);
  lua_len(L, data);                               /* a collection's __len is the script's: named if it fails */
  {
    int isnum;
    n = lua_tointegerx(L, -1, &isnum);            /* as luaL_len: 2.0 and "3" are lengths */
    if (!isnum) {
      if (lua_isfunction(L, row)) lun_push_place(L, row);
      else lua_pushliteral(L, "");
      lun_describe(L, -2, 1);
      luaL_error(L, "%sthe rows' data has a length (#) of %s, not an integer (its __len gave it)",
                 lua_tostring(L, -2), lua_tostring(L, -1));
    }
  }
  lua_pop(L, 1);
  last = n;
  lua_getfield(L, W->record, "lazy");
  if (lua_toboolean(L, -1) && n > S->listWindow) {
    lua_getfield(L, W->record, "first");
    first = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 1;
    if (first > n - S->listWindow + 1) first = n - S->listWindow + 1;
    if (first < 1) first = 1;
    last = first + S->listWindow - 1;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  marks = lun_list_rows_begin(L, W) ? lua_gettop(L) : 0;   /* selection, onDelete, onMove (lun_list.c) */
  base = lua_gettop(L);
  for (i = first; i <= last; i++) {
    int32_t unit = 0;
    size_t klen;
    const char *key;
    int ref, elem;
    lun_budget_every(L, (unsigned long)(i - first + 1));   /* C: the hook never fires */
    lua_geti(L, data, i);
    elem = lua_gettop(L);
    lun_identity_key(L, elem);
    key = lua_tolstring(L, -1, &klen);
    lun_out_begin(L, LUN_VIEW_ROW, NULL, 0);
    if (marks) lun_list_row(L, W, marks, elem, i);
    S->rowRepeated = 0;
    ref = lun_walk_unit(L, W, LUN_UNIT_ROW, 0, key, klen, &unit);
    lun_out_end(L);
    if (S->outBadLen) lun_walk_bad_text(L, W, S);    /* its tag= shown */
    if (S->rowRepeated) lun_row_repeated(L, W, row, key, klen);
    if (ref == 0) {
      lua_createtable(L, 0, 5);
      lua_newtable(L);
      lua_setfield(L, -2, "out");
      lua_pushinteger(L, unit);
      lua_setfield(L, -2, "unit");
      lun_row_set(L, elem, row, i);
      lun_out_record(L, unit);
    } else {
      int changed;
      lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
      lua_getfield(L, -1, "elem");
      lua_getfield(L, -2, "row");
      lua_getfield(L, -3, "index");
      changed = !lua_rawequal(L, -3, elem) || !lua_rawequal(L, -2, row) || lua_tointeger(L, -1) != i;
      lua_pop(L, 3);
      if (changed) {
        lun_row_set(L, elem, row, i);
        lun_out_changed(L, unit);
      }
    }
    lua_settop(L, base);
  }
  if (first > 1) {
    count = lun_push_count(L, first - 1, &len);
    lun_out_attr(L, "rowsBefore", 10, count, len);
  }
  if (last < n) {
    count = lun_push_count(L, n - last, &len);
    lun_out_attr(L, "hiddenRows", 10, count, len);
  }
}

/* Runs the unit's own function by kind, reporting its output. */
static void lun_run_unit(lua_State *L, lun_State *S, lun_Run *run) {
  lun_Walk *W = &run->walk;
  switch (run->ticket.kind) {
    case LUN_UNIT_ROOT:
      lun_getkey(L, S, W->record, LUN_K_VALUE);
      lun_walk_value(L, W, lua_gettop(L));
      break;
    case LUN_UNIT_COMPONENT: {
      int info, work;
      lun_getkey(L, S, W->record, LUN_K_INFO);    /* the view's info, read once */
      info = lua_gettop(L);
      lun_getkey(L, S, info, LUN_K_BODY);
      lun_getkey(L, S, W->record, LUN_K_SELF);
      work = lun_self_work(L, -1);                /* most views: neither, and ready */
      if (!(work & LUN_SELF_READY)) lun_self_init(L, W->record);   /* its first run: state made */
      if (work & LUN_SELF_OBJECTS) lun_self_subscribe(L, W->record, info);
      if (work & LUN_SELF_UPDATES) lun_dynamic_update(L, W->record, info);   /* DynamicProperty.update, before the body (F14) */
      lun_run_view(L, W, lua_gettop(L) - 1, 1);
      break;
    }
    case LUN_UNIT_ROW:
      lun_getkey(L, S, W->record, LUN_K_ROW);
      lun_getkey(L, S, W->record, LUN_K_ELEM);
      lun_getkey(L, S, W->record, LUN_K_INDEX);
      lun_run_view(L, W, lua_gettop(L) - 2, 2);
      break;
    case LUN_UNIT_LIST:
      lun_run_rows(L, S, W);
      break;
    default:
      luaL_error(L, "unknown unit kind %d", (int)run->ticket.kind);
  }
}

/* 1 if the run's unit is to run: it must, or what it read changed (the
 * check refreshes computeds on the way; it may raise or suspend). */
LUN_HOT static int lun_update_due(lua_State *L, lun_State *S, lun_Run *run) {
  if (run->ticket.needsRender || run->checked) return 1;
  run->checking = 1;
  if (!lun_refresh_walk(L, S, run->ticket.node, 1)) { run->checking = 0; return 0; }
  run->checking = 0;
  run->checked = 1;
  return 1;
}

/* Starts the tracking run of node (S->active): run_end is due (lun_update_close). */
LUN_HOT static void lun_update_open(lun_State *S, lun_Run *run, int32_t node) {
  run->saved = S->active;
  run->savedRendering = S->rendering;
  run->savedScript = S->runScript;
  S->runScript = 0;
  S->active = node;
  S->renderMade = S->objectsMade;                 /* what the run makes (a state factory's object) it may write */
  S->inBody++;
  lun_graph_run_begin(S->graph, node);
  run->tracking = run->began = 1;
}

/* An effect's try: checks it, then calls its function (its record) in its
 * scope; it outputs nothing, and the host hears of its run only while
 * tracing. May raise or suspend. [-0, +0] */
LUN_HOT static void lun_effect_try(lua_State *L, lun_State *S, lun_Run *run) {
  int32_t node = run->ticket.node, script;
  if (!lun_update_due(L, S, run)) return;
  if ((script = lun_effect_script(S, node)) < 0) return;   /* cancelled by its check, or before this retry: no run */
  if (S->tracing && !run->traced)
    lunh(S->rt, trace, effect_ran, node, !(S->graph->nodes[node].flags & LUN_GRAPH_EVALUATED));
  run->traced = 1;
  lua_rawgeti(L, LUA_REGISTRYINDEX, run->ticket.recordRef);
  lun_update_open(S, run, node);
  S->runScript = script;                          /* what it starts is its script's run's work (lun_scriptwork.c) */
  lua_call(L, 0, 0);
  run->rendered = 1;
}

/* Protected part of an effect's update after its first try: (run) -> (). */
static int lun_effect_k(lua_State *L) {
  lun_Run *run = (lun_Run *)lua_touserdata(L, 1);
  lun_effect_try(L, run->S, run);
  return 0;
}

/* Protected part of a view's update: (run) -> (life). Checks, then runs in the unit's scope. */
LUN_HOT static int lun_update_k(lua_State *L) {
  lun_Run *run = (lun_Run *)lua_touserdata(L, 1);
  lun_State *S = run->S;
  int32_t node = run->ticket.node;
  if (!lun_update_due(L, S, run)) return 0;
  if (S->plainUnit) {                             /* a plain run the host has not heard of: a try before */
    S->outLen = 0;                                /* this one (it suspended) asked nothing; its records go */
    lun_out_plain_start(S, S->plainUnit);
  } else {
    lun_out_done_send(L, S);                      /* the plain runs before it (releases wait for its end) */
    lun_out_flush(L, S);                          /* a try before this one wrote these (it suspended) */
    lunh(S->rt, scheduler, unit_begin, run->ticket.unit);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, run->ticket.recordRef);  /* 2: record */
  lun_walk_empty_out(L);                                     /* 3: made by its first store (lun_walk_out) */
  lua_pushnil(L);                                            /* 4: life, made by its first entry */
  memset(&run->walk, 0, sizeof(run->walk));     /* each try walks afresh (a suspended one left its state) */
  S->outBadLen = 0;                               /* no text of another run's is this one's to warn of */
  run->walk.record = 2;
  run->walk.out = 3;
  run->walk.life = 4;
  run->walk.slots = 0;
  run->walk.root = run->ticket.kind == LUN_UNIT_ROOT;
  run->walk.unit = run->walk.root ? 0 : run->ticket.unit;
  run->walk.running = run->ticket.unit;
  run->walk.rt = S->rt;
  lun_update_open(S, run, node);
  S->rendering = node;
  lun_run_unit(L, S, run);
  if (!lua_isnil(L, 3)) {
    lua_pushvalue(L, 3);
    lun_setkey(L, S, 2, LUN_K_OUT);
  }
  run->rendered = 1;
  run->lifeless = lua_isnil(L, 4) && lun_getkey(L, S, 2, LUN_K_LIFE) == LUA_TNIL;
  lua_settop(L, 4);
  return 1;                                       /* its life list, diffed once the host took the output */
}

/* Ends the tracking run of an update if it started. */
static void lun_update_close(lun_State *S, lun_Run *run, int ok) {
  if (!run->tracking) return;
  lun_graph_run_end(S->graph, run->ticket.node, ok);
  S->active = run->saved;
  S->rendering = run->savedRendering;
  S->runScript = run->savedScript;
  S->inBody--;
  run->tracking = 0;
}

/* One try of run's update: k (lun_update_k or lun_effect_k) in a
 * protected call, its tracking run closed; returns the call's status with
 * one value on the stack (the life list, or the error). */
static int lun_update_try(lua_State *L, lun_State *S, lun_Run *run, lua_CFunction k) {
  int status;
  lua_pushcfunction(L, k);
  lua_pushlightuserdata(L, run);
  S->inUnit = 1;
  status = lua_pcall(L, 1, 1, 0);
  S->inUnit = 0;
  lun_update_close(S, run, status == LUA_OK && !S->suspending);
  return status;
}

/* After a try of run ended with status, tries again until the update ends;
 * returns the LUN_UNIT_* status and leaves an error's message on the stack
 * for a failure (else the try's value). One budget level holds across the
 * tries: an update is one run, however often it retries. */
static int lun_update_retries(lua_State *L, lun_State *S, lun_Run *run, lua_CFunction k, int status) {
  for (;; status = lun_update_try(L, S, run, k)) {
    if (status == LUA_OK && !S->suspending) return run->rendered ? LUN_UNIT_RAN : LUN_UNIT_SKIPPED;
    if (run->checking && !S->suspending) {          /* a computed raised while the unit was checked */
      if (lun_budget_stopping(S)) break;            /* by a stop: its body would be stopped before its first
                                                       read and lose what it read; it keeps it (below) */
      lua_pop(L, 1);                                /* else run it: its body shows the error and keeps */
      run->checking = 0;                            /* the dependency, so it recovers (F09) */
      run->checked = 1;
      continue;
    }
    if (S->suspending) {                            /* settle the deepest node, then try again */
      lua_pop(L, 1);                              /* the error, or what a try that unwound returned */
      S->suspending = 0;
      run->rendered = 0;
      if (lun_settle(L, S, S->suspendNode)) continue;
      if (run->checking) {                        /* the check's settle raised: run it, as when its check */
        lua_pop(L, 1);                            /* raises (F09): it reads the chain again, shows the */
        run->checking = 0;                        /* error and keeps its dependencies, so it recovers */
        run->checked = 1;                         /* (else it stayed pending in no queue, never run again) */
        continue;
      }
    }
    break;
  }
  if (!run->began) lun_graph_unstick(S->graph, run->ticket.node);   /* it never ran (stopped in its check, its
                                                      call refused: the C stack, memory): the next change runs it */
  return LUN_UNIT_FAILED;
}

/* Protected part of lun_update_life: (record, life, unit, started) -> (). */
static int lun_update_life_k(lua_State *L) {
  *(int *)lua_touserdata(L, 4) = 1;
  lua_settop(L, 3);
  lun_life_diff(L, 1, 2, (int32_t)lua_tointeger(L, 3));
  return 0;
}

/* The life list of the run's unit becomes the one at lifeidx, once the host
 * took the output; with lifeidx 0, none: the views its last output held are
 * gone (a failed run, an output the host made an error node), so their
 * onDisappear actions run and their tasks end, and when the body recovers
 * they appear again. Protected, under a budget of its own (a subscription's
 * cancel may be a script's); an error is reported. [-0, +0] */
static void lun_update_life(lua_State *L, lun_State *S, const lun_Ticket *ticket, int lifeidx) {
  int top = lua_gettop(L), started = 0;
  if (lifeidx) lifeidx = lua_absindex(L, lifeidx);
  if (!lua_checkstack(L, 8)) return;
  if (lua_rawgeti(L, LUA_REGISTRYINDEX, ticket->recordRef) != LUA_TTABLE ||
      ((!lifeidx || lua_isnil(L, lifeidx)) && lun_getkey(L, S, top + 1, LUN_K_LIFE) == LUA_TNIL)) {
    lua_settop(L, top);                           /* none before, none now: most runs */
    return;
  }
  lua_settop(L, top + 1);
  lua_pushcfunction(L, lun_update_life_k);
  lua_pushvalue(L, top + 1);
  if (lifeidx) lua_pushvalue(L, lifeidx); else lua_pushnil(L);
  lua_pushinteger(L, ticket->unit);
  lua_pushlightuserdata(L, &started);
  lun_protect_event(L, 4, 0, ticket->unit);
  if (!lifeidx && started) {                      /* whatever the diff did, its old list is gone; a diff */
                                                  /* refused before it began leaves it, for the next (or the release) */
    lua_pushnil(L);
    lun_setkey(L, S, top + 1, LUN_K_LIFE);
  }
  lua_settop(L, top);
}

/* What the host answered at the end of a run that ended well, its life list
 * at lifeidx: if its output became an error node (past the memory cap) its
 * views are gone, as a failed run's (the new entries never appeared),
 * else its life list is the new one; disposed units' records wait. [-0, +0] */
static void lun_update_ended(lua_State *L, lun_State *S, const lun_Ticket *ticket, int ended, int lifeidx) {
  lun_update_life(L, S, ticket, ended & LUN_ENDED_ERROR ? 0 : lifeidx);
  if (ended & LUN_ENDED_RELEASES) lun_release_refs(L, S);
}

/* Tells the host a view's update ended (scheduler.unit_end), after the
 * plain runs held before it (lun_out_done_send); returns the LUN_ENDED_*
 * bits, the releases of both. */
static int lun_update_host_end(lua_State *L, lun_State *S, int32_t unit, int status, const char *msg, size_t len) {
  int before = lun_out_done_send(L, S) & LUN_ENDED_RELEASES;
  return before | lunh(S->rt, scheduler, unit_end, unit, status, msg, len);
}

/* 1 if msg begins with a position ("file.lua:12: ", "my dir/x.lua:3: "):
 * ":<digits>:" on its first line, with no ": " before it (a message's
 * parts are told apart by ": ", a chunk's name may hold spaces). */
static int lun_has_position(const char *msg) {
  const char *p;
  for (p = msg; *p && *p != '\n'; p++) {
    if (p[0] == ':' && p[1] == ' ') return 0;
    if (p[0] == ':' && p > msg && p[1] >= '0' && p[1] <= '9') {
      const char *q = p + 1;
      while (*q >= '0' && *q <= '9') q++;
      if (*q == ':') return 1;
    }
  }
  return 0;
}

/* Protected part of lun_update_walk_where: (message, function) -> the
 * message after "file:12: ", the function's place (it allocates). */
static int lun_update_walk_where_k(lua_State *L) {
  lun_push_place(L, 2);                           /* "" for a C function (coroutine.wrap) */
  lua_pushvalue(L, 1);
  lua_concat(L, 2);
  return 1;
}

/* A run that failed while its output was walked (run->walk.body still set)
 * names where its body is, when the message has no position: the nearest
 * place the script wrote ("file:12: view:sheet: isPresented holds a number
 * …"). The string on top is replaced; it stays as it is if naming the
 * place fails (memory: the run's end must still be told). [-1, +1] */
static void lun_update_walk_where(lua_State *L, lun_State *S, const lun_Run *run) {
  int record;
  const char *msg = lua_tostring(L, -1);
  if (!run->walk.body || !msg || lun_has_position(msg)) return;
  if (run->ticket.kind != LUN_UNIT_COMPONENT && run->ticket.kind != LUN_UNIT_ROW) return;
  if (lua_rawgeti(L, LUA_REGISTRYINDEX, run->ticket.recordRef) != LUA_TTABLE) { lua_pop(L, 1); return; }
  record = lua_gettop(L);
  if (run->ticket.kind == LUN_UNIT_ROW) lun_getkey(L, S, record, LUN_K_ROW);
  else if (lun_getkey(L, S, record, LUN_K_INFO) == LUA_TTABLE) lun_getkey(L, S, -1, LUN_K_BODY);
  if (!lua_isfunction(L, -1)) { lua_settop(L, record - 1); return; }
  lua_pushcfunction(L, lun_update_walk_where_k);
  lua_pushvalue(L, record - 1);                   /* the message */
  lua_pushvalue(L, -3);                           /* the function */
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) { lua_settop(L, record - 1); return; }
  lua_replace(L, record - 1);
  lua_settop(L, record - 1);
}

/* Updates one unit and reports how it ended to the host (an effect only if
 * it failed); releases what the host disposed meanwhile. Returns the
 * LUN_UNIT_* status. */
LUN_HOT int lun_update(lua_State *L, lun_State *S, const lun_Ticket *ticket) {
  lun_Run run;
  int status, stopped, releases, ended = 0;
  size_t len;
  const char *msg;
  memset(&run, 0, sizeof(run));
  run.S = S;
  run.ticket = *ticket;
  if (!lun_budget_begin(L, S, 1)) {
    lun_graph_unstick(S->graph, ticket->node);    /* it never began: the next change runs it */
    if (lun_update_host_end(L, S, ticket->unit, LUN_UNIT_FAILED, "runs nested too deep", 20) & LUN_ENDED_RELEASES)
      lun_release_refs(L, S);
    return LUN_UNIT_FAILED;
  }
  lun_out_plain_start(S, ticket->plain ? ticket->unit : 0);
  status = lun_update_retries(L, S, &run, lun_update_k, lun_update_try(L, S, &run, lun_update_k));
  stopped = lun_budget_end(L, S);
  if (status == LUN_UNIT_RAN) {                   /* its life list on top */
    /* A plain run is an entry of its batch's one call (held, unless its life
     * list waits for the answer); any other hands over what it wrote, then ends. */
    if (!lun_out_plain_done(L, S, run.lifeless, &ended)) {
      lun_out_flush(L, S);
      ended = lun_update_host_end(L, S, run.ticket.unit, status, NULL, 0);
    }
    if (!run.lifeless) lun_update_ended(L, S, &run.ticket, ended, -1);   /* most runs: no life before or after */
    else if (ended & LUN_ENDED_RELEASES) lun_release_refs(L, S);
    lua_pop(L, 1);
    return status;
  }
  if (status == LUN_UNIT_SKIPPED) {               /* it never began: its life list stays */
    S->plainUnit = 0;
    if (lun_update_host_end(L, S, run.ticket.unit, status, NULL, 0) & LUN_ENDED_RELEASES)
      lun_release_refs(L, S);
    lua_pop(L, 1);
    return status;
  }
  lun_out_flush(L, S);                            /* a failed run's records too: its children */
  lun_update_life(L, S, &run.ticket, 0);          /* an error node stands in its place: its views are gone */
  lun_error_string(L, -1);
  if (!stopped) lun_update_walk_where(L, S, &run);
  msg = lua_tolstring(L, -1, &len);
  releases = lun_update_host_end(L, S, run.ticket.unit, stopped ? LUN_UNIT_STOPPED : LUN_UNIT_FAILED, msg, len);
  lua_pop(L, 2);
  if (releases & LUN_ENDED_RELEASES) lun_release_refs(L, S);
  return stopped ? LUN_UNIT_STOPPED : LUN_UNIT_FAILED;
}

/* Effects run in one protected call a batch (lun_effects_k), not one
 * each: a failed, stopped or suspended try leaves the batch, its effect's
 * update goes on as a view's would (lun_update_retries), and the batch
 * goes on with the next. Each effect keeps its own budget level. */
typedef struct lun_Batch {
  lun_Run run;         /* the effect's update under way */
  int32_t node;        /* its node; 0 between effects */
  int ran;             /* effects taken from the queue */
} lun_Batch;

/* Starts the update of node's effect (its function the registry's ref);
 * 0 if runs nest too deep (reported, and ended). */
LUN_HOT static int lun_effect_begin(lua_State *L, lun_State *S, lun_Batch *b, int32_t node, int32_t ref) {
  lun_Run *run = &b->run;
  run->S = S;
  run->ticket.unit = 0;
  run->ticket.kind = LUN_UNIT_EFFECT;
  run->ticket.node = node;
  run->ticket.recordRef = ref;
  run->ticket.needsRender = run->ticket.plain = 0;
  run->checked = run->tracking = run->rendered = run->checking = run->traced = run->began = 0;
  if (!lun_budget_begin(L, S, 1)) {
    static const char deep[] = "runs nested too deep";
    lun_graph_unstick(S->graph, node);            /* it never began: the next change runs it */
    lunh(S->rt, inspect, effect_failed, deep, sizeof deep - 1);
    lun_effect_ended(S, node, LUN_UNIT_FAILED);
    return 0;
  }
  lun_out_plain_start(S, 0);
  b->node = node;
  return 1;
}

/* Tells the host an effect failed with the error value on top (popped). [-1, +0] */
static void lun_effect_failed(lua_State *L, lun_State *S) {
  size_t len;
  const char *msg;
  lun_error_string(L, -1);
  msg = lua_tolstring(L, -1, &len);
  lunh(S->rt, inspect, effect_failed, msg, len);
  lua_pop(L, 2);
}

/* Ends the update of the batch's effect with status (LUN_UNIT_*) and its
 * budget level; a failure's message is on top (popped, and told the host). */
static void lun_effect_finish(lua_State *L, lun_State *S, lun_Batch *b, int status) {
  int32_t node = b->node;
  int stopped = lun_budget_end(L, S);
  b->node = 0;
  if (status == LUN_UNIT_FAILED) {
    lun_effect_failed(L, S);
    if (stopped) status = LUN_UNIT_STOPPED;
  }
  lun_effect_ended(S, node, status);
}

/* The batch's call failed before an effect's try began, its error on top: the
 * C stack, Lua's stack or memory at their limits, a call hook that raised.
 * A call of the effect's own would have failed the same way, so the next
 * effect due fails with it, reported, and the queue moves on (the flush's
 * loop would else call again, forever). Returns how many were taken. [-1, +0] */
static int lun_effects_refused(lua_State *L, lun_State *S) {
  int32_t node, ref;
  int taken = 0;
  while ((node = lun_graph_next_effect(S->graph)) != 0) {
    taken++;
    if (!lun_effect_due(S, node, &ref)) continue;
    lun_graph_unstick(S->graph, node);            /* it never began: the next change runs it */
    lun_effect_failed(L, S);
    lun_effect_ended(S, node, LUN_UNIT_FAILED);
    return taken;
  }
  lua_pop(L, 1);                                  /* none was due: none would have been called */
  return taken;
}

/* Protected run of the queued effects, oldest first: (batch) -> (). Leaves
 * by an error when an effect's try fails or suspends (lun_effects_run). */
LUN_HOT static int lun_effects_k(lua_State *L) {
  lun_Batch *b = (lun_Batch *)lua_touserdata(L, 1);
  lun_State *S = b->run.S;
  int32_t node, ref;
  while ((node = lun_graph_next_effect(S->graph)) != 0) {
    b->ran++;
    if (!lun_effect_due(S, node, &ref) || !lun_effect_begin(L, S, b, node, ref)) continue;
    S->inUnit = 1;
    lun_effect_try(L, S, &b->run);
    S->inUnit = 0;
    if (S->suspending) {                          /* a script's pcall caught the suspension: settle, retry */
      lua_pushlightuserdata(L, (void *)&lun_key_suspend);
      return lua_error(L);
    }
    lun_update_close(S, &b->run, 1);
    lun_effect_finish(L, S, b, b->run.rendered ? LUN_UNIT_RAN : LUN_UNIT_SKIPPED);
  }
  return 0;
}

/* Runs the queued effects, those they make stale included; returns how
 * many were taken from the queue. The host hears only of failures. */
LUN_HOT int lun_effects_run(lua_State *L, lun_State *S) {
  lun_Batch b;
  if (S->graph->effectsHead >= S->graph->effects.count) return 0;   /* most rounds of a view's flush */
  b.run.S = S;
  b.node = 0;
  b.ran = 0;
  for (;;) {
    int status;
    lua_pushcfunction(L, lun_effects_k);
    lua_pushlightuserdata(L, &b);
    status = lua_pcall(L, 1, 1, 0);
    S->inUnit = 0;
    if (status == LUA_OK) {                       /* all ran */
      lua_pop(L, 1);
      return b.ran;
    }
    if (!b.node) {                                /* refused before a try began */
      int taken = lun_effects_refused(L, S);
      if (!taken) return b.ran;                   /* (the queue was empty: a return hook) */
      b.ran += taken;
      continue;
    }
    lun_update_close(S, &b.run, 0);
    status = lun_update_retries(L, S, &b.run, lun_effect_k, status);
    if (status != LUN_UNIT_FAILED) lua_pop(L, 1); /* the last try's value */
    lun_effect_finish(L, S, &b, status);
  }
}

/* Releases the records of units the host disposed: their tasks stop,
 * their subscriptions end, their onDisappear actions are queued. What is
 * C's is done here, whatever a script does: a subscription's cancel, which
 * a script's publisher may make, is a run of its own (lun_life_cancel),
 * and its forwarder is cut first. */
LUN_HOT void lun_release_refs(lua_State *L, lun_State *S) {
  int32_t ref, unit = 0;
  S->releasing = 0;                               /* a release a raise cut short is no longer going on */
  while ((ref = lunh(S->rt, scheduler, release_next, &unit)) != 0) {
    if (lua_rawgeti(L, LUA_REGISTRYINDEX, ref) == LUA_TTABLE) {
      int32_t own = lun_record_forget_unit(L, -1);   /* a root's record names no unit: the host's does */
      lun_record_keep_environment(L, -1, own ? own : unit);
      lun_life_release(L, -1, own ? own : unit);
    }
    lua_pop(L, 1);
    luaL_unref(L, LUA_REGISTRYINDEX, ref);
  }
}

