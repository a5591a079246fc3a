/*
 * drive/drive.h — the drive room: what runs the rest.
 *
 * The module's entry (luaopen_lunette's work: lunette.c), the protected
 * entry points Swift calls (lun_state.c), a unit's run (lun_update.c), the
 * flush and the clock's due work (lun_flush.c), apps and nodes as a script
 * or a test acts on them, inspection and the spec runner's support. Calls
 * every other room; nothing calls it but Swift.
 */
#ifndef LUN_DRIVE_H
#define LUN_DRIVE_H

#include "core/core.h"

#define LUN_MT_APP    "lunette.App"
#define LUN_MT_NODE   "lunette.Node"

/* An app or a node as Lua holds it: the host's id. */
typedef struct lun_Handle {
  int32_t id;
  uint32_t resets;        /* lun_State.resets when it was made: a ui.reset() since ended what it names */
} lun_Handle;

/* lun_app.c */
void lun_open_app(lua_State *L);
int lun_ui_clock_advance(lua_State *L);   /* ui.clock.advance: moves the virtual clock, running what falls due */
void lun_app_check_idle(lua_State *L, const char *what);
void lun_handle_push(lua_State *L, int32_t id, const char *mt);

/* lun_node.c */
void lun_open_node(lua_State *L);
/* Runs the function below nargs arguments as a person's act (no tracking scope). [-(nargs+1), +0] */
void lun_node_act_call(lua_State *L, int nargs);
void lun_last_miss(lua_State *L);

/* lun_effect.c: ui.effect's effects, kept by C */
void lun_open_effect(lua_State *L);
/* 1 if the effect of graph node `node` is still one (not cancelled). */
int32_t lun_effect_script(lun_State *S, int32_t node);
/* Whether the effect of node, taken from the queue, runs now (sets *ref to its function's ref). */
int lun_effect_due(lun_State *S, int32_t node, int32_t *ref);
/* The update of node's effect ended with status (LUN_UNIT_*): counted for the round's limits. */
void lun_effect_ended(lun_State *S, int32_t node, int status);
/* The flush ends: effects still put off are stopped till the next change; held ones a change
 * reached are carried to the next flush (or stopped: see lun_effect.c), the others unstuck. */
void lun_effects_end_flush(lun_State *S);
/* A round begins: the effects put off to it are queued again. */
void lun_effects_round(lun_State *S);
/* Cancels every effect (ui.reset). */
void lun_effects_reset(lua_State *L);
/* Frees what the effects took (the state's end). */
void lun_effects_free(lun_State *S);

/* lun_update.c, lun_flush.c */
int lun_update(lua_State *L, lun_State *S, const lun_Ticket *ticket);
/* Runs the queued effects, oldest first, those they make stale included;
 * returns how many were taken from the queue. */
int lun_effects_run(lua_State *L, lun_State *S);
void lun_flush_now(lua_State *L);
int lun_flush_caught(lua_State *L);
int lun_run_due_now(lua_State *L, double upTo);
void lun_release_refs(lua_State *L, lun_State *S);

#endif
