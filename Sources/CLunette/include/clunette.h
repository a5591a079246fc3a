/*
 * clunette.h — the contract between the C module and the Swift runtime.
 *
 * The C module is the only code that touches Lua values and the only code
 * that raises Lua errors; it also owns the dependency graph (lun_graph.h),
 * where the reads are. The Swift runtime owns the scheduler, the view units,
 * the environment, the clock and the render tree.
 *
 *   Swift -> C : the lun_* entry points below. Each one that runs Lua does so
 *                under lua_pcall and returns a status; none of them raises.
 *   C -> Swift : the callbacks of lun_Host at the end, passed to lun_install
 *                (C calls them as lunh(h, group, name, ...)). They are leaves: they never call
 *                back into Lua and never raise.
 */
#ifndef CLUNETTE_H
#define CLUNETTE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <lua5.4/lua.h>
#include "lun_graph.h"

/* The host's callbacks (at the end of this file). */
typedef struct lun_Host lun_Host;

/* The time budget and interrupt state of a runtime (lun_budget.c). */
typedef struct lun_Budget lun_Budget;

/* Per-state data, reachable from any coroutine through the state's allocator (lun_alloc.c). */
typedef struct lun_State {
  const lun_Host *rt;     /* the host: its callbacks and its context (the Swift runtime) */
  lun_Graph *graph;       /* the dependency graph (owned by the Swift runtime) */
  int32_t rendering;      /* graph node of the unit whose body or row runs (S36), 0 if none */
  int32_t active;         /* graph node of the running tracking scope, 0 if none */
  int32_t superseded;     /* a reload superseded a view type (lun_viewtype.c): walks look for the new one */
  int32_t computeDepth;   /* computed evaluations nested on the C stack */
  int32_t suspendNode;    /* trampoline: the computed to evaluate first */
  int32_t suspending;     /* trampoline: unwinding to the outermost read */
  int32_t inBody;         /* > 0 while a body, row or computed runs */
  int32_t inUnit;         /* a unit update is running: it catches suspensions itself */
  int32_t runScript;      /* while an effect a script's run started runs: that run's list (lun_scriptwork.c), else 0 */
  int32_t *work;          /* trampoline work list */
  int32_t workCount, workCap;
  int32_t listWindow;     /* rows a List realises */
  int32_t nextId;         /* ids of tasks and timer subscriptions */
  int32_t tracing;        /* ui.trace is on: writes report where they happened */
  int32_t strict;         /* ui.configure{ strict = true }: bodies run twice, and may not write */
  lun_Budget *budget;     /* the runs in progress and their budget; shared with the watchdog thread */
  double testDeadline;    /* lunette_watch: when the watched test must stop (0: none) */
  int64_t lifeOrder;      /* lun_life_add: the order life entries were made in (their events run in it) */
  lua_State *testThread;  /* lunette_watch: the watched coroutine (another thread raises, not yields) */
  char *outBuf;           /* lun_out.c: the running unit's output records, not yet handed over */
  size_t outLen, outCap;
  int32_t plainUnit;      /* a plain run (lun_Ticket.plain) the host has not heard begin yet, 0 if none */
  int32_t outPlain;       /* 0 once the run wrote a record only the full path follows (lun_out.c) */
  int32_t outDepth;       /* nodes open in the run's records */
  uint32_t resets;        /* ui.reset() calls so far (wraps): an app handle made before one names no app */
  int32_t baseListWindow, baseStrict, baseTracing;   /* what ui.reset() gives back: the runtime's settings, */
  uint64_t baseScriptLimit;   /* or those a runner kept when a spec file's top level ran (lunette_keep_settings) */
  size_t outBadLen, outBadAt;   /* lun_out.c: the run's first shown text that is no UTF-8 (its length, 0:
                             none; where its first bad byte is) ... */
  char outBad[40];        /* ... and its first bytes, for the walk's warning (lun_walk.c) */
  char *doneBuf;          /* lun_out.c: plain runs ended in this batch, not yet handed over (scheduler.units_done) */
  size_t doneLen, doneCap;    /* at most LUN_DONE_KEEP between flushes */
  int32_t keyRefs[48];    /* core/lun_keys.c: the hot paths' field names, interned once (registry refs) */
  const char *keyNames[48];   /* ... and their text: a short string key is one of them iff it is the same pointer */
  const void *viewMeta;   /* view values' metatable (its identity, for a check no script can forge) */
  int32_t viewMetaRef;    /* ... and its registry ref, to set it */
  const void *viewTypeMeta;   /* view types' metatable (kept in the registry by name): lun_viewtype_test */
  int32_t txSeen;         /* a view has had :transaction: walks look for the chain around them (lun_walktx.c) */
  int32_t animNoneSeen;   /* a view has had :animation(nil, value): a withAnimation completion waits for
                             the flush to know whether anything animated (lun_completion.c) */
  int32_t completionsPending;   /* withAnimation completions waiting for the flush to say what animated (lun_completion.c) */
  uint32_t objectsMade;   /* model objects made so far (wraps): lun_Object.made */
  uint32_t renderMade;    /* objectsMade when the rendering body began: what it made since, no view can have seen */
  int32_t objectsRef;     /* registry ref of the serial -> object table (lun_key_objects's), an array slot away */
  uint32_t flushWork;     /* LUN_WORK_* bits: what a round's or a flush's end has to look at (most flushes: none) */
  struct lun_Effects *effects;  /* ui.effect's effects, kept by C (drive/lun_effect.c) */
  uint32_t round;         /* rounds of flushes begun (wraps): an effect counts its runs per round */
  int32_t effectsCarried; /* effects this flush's end carried to the next flush (a change reached them held) */
  uint32_t flushes;       /* flushes begun (wraps): a unit carried into a flush is not carried out of it */
  int32_t carryStreak;    /* flushes in a row that carried a unit with no change from outside between them
                             (the host counts at each flush's end, and starts again when one begins with a change) */
  int32_t runLimit;       /* the most runs of one effect in a round (the host's renderLoopLimit) */
  int32_t releasing;      /* the unit whose record is being released (lun_life_release): what its code
                             raises as it goes names the view (the host names it while it is released) */
  int32_t cancelling;     /* a publisher's cancel runs (lun_life_cancel): no flush, mount or unmount */
  int32_t prefResume;     /* where the next preference pass begins: after the handler a budget stop cut one at */
  int32_t rowRepeated;    /* set by the host's output.unit: the row unit it matched has an id an earlier row of
                             the same run has (C warns, naming the row function: lun_update.c) */
  int32_t siteFiles;      /* files sites have numbered (lun_site.c) */
  int32_t siteLast;       /* the last file a site was found in, and its name (kept by the registry) */
  size_t siteLastLen;
  const char *siteLastName;
  char siteMiss[256];     /* the last chunk name found no file's (lun_sources_number), and its length */
  size_t siteMissLen;
  int32_t siteEpochs[2048];  /* each file's text generation (LUN_SITE_MAX_FILES + 1): a reload that changed it moves on */
} lun_State;

/* What the held plain runs' buffer keeps between flushes (bytes charged to
 * the memory cap), as the output buffer keeps its own: freeing it after
 * each flush made every large batch's flush allocate it anew, and glibc
 * consolidate its free lists for it (P10's re-render +2% instructions). */
#define LUN_DONE_KEEP (64 * 1024)

/* The most flushes in a row that carry a held unit to the next (lun_effect.c, Rendering.swift's endFlush). */
#define LUN_CARRY_STREAK 3

/* lun_State.flushWork: set where the work is queued, cleared where it is taken. */
enum { LUN_WORK_EVENTS = 1, LUN_WORK_STORAGE = 2, LUN_WORK_TRANSACTIONS = 4 };

/* Status codes returned by the lun_* entry points. */
#define LUN_OK 0
#define LUN_ERROR 1
#define LUN_SYNTAX 2

/* The deepest a rendered tree may be, across bodies (R18): every walk and
 * release of a tree, in C and Swift, recurses at most this far. */
#define LUN_MAX_TREE_DEPTH 1000
#define LUN_TOO_DEEP (-1)

/* Unit kinds: what a view unit runs when it renders. */
enum {
  LUN_UNIT_ROOT = 1,      /* a mounted view value */
  LUN_UNIT_COMPONENT = 2, /* a ui.View: runs its body */
  LUN_UNIT_LIST = 3,      /* List/ForEach content: iterates the data */
  LUN_UNIT_ROW = 4,       /* one row: runs the row function */
  LUN_UNIT_EFFECT = 5     /* ui.effect: runs a function, renders nothing; C's own (lun_effect.c), never in a batch */
};

/* Render node kinds (built-in views): the one list, for C and for Swift
 * (RenderNode.Kind reads lun_view_kind_name). Each kind is its enum name,
 * the name trees show (and ui.<name>, the script's constructor) and that
 * constructor, a function of the view room (lun_view.c, or lun_control.c,
 * lun_picker.c, lun_viewtype.c, declared in view/view.h; NULL: a modifier
 * or the walk makes it). A new view is one line here and its function. */
#define LUN_VIEW_KINDS(X) \
  X(TEXT, "Text", lun_ui_text) X(BUTTON, "Button", lun_ui_button) X(TOGGLE, "Toggle", lun_ui_toggle) \
  X(TEXTFIELD, "TextField", lun_ui_textfield) X(VSTACK, "VStack", lun_ui_vstack) \
  X(HSTACK, "HStack", lun_ui_hstack) X(GROUP, "Group", lun_ui_group) X(LIST, "List", lun_ui_list) \
  X(FOREACH, "ForEach", lun_ui_foreach) X(SPACER, "Spacer", lun_ui_spacer) \
  X(IMAGE, "Image", lun_ui_image) X(EMPTY, "EmptyView", lun_ui_empty) X(COMPONENT, "View", lun_ui_view) \
  X(ROW, "Row", NULL) X(ERROR, "Error", NULL) X(SHEET, "Sheet", NULL) X(ZSTACK, "ZStack", lun_ui_zstack) \
  X(FORM, "Form", lun_ui_form) X(SECTION, "Section", lun_ui_section) X(PICKER, "Picker", lun_ui_picker) \
  X(SLIDER, "Slider", lun_ui_slider) X(STEPPER, "Stepper", lun_ui_stepper) X(ALERT, "Alert", NULL) \
  X(PROGRESS, "ProgressView", lun_ui_progress) X(LABEL, "Label", lun_ui_label) \
  X(DIVIDER, "Divider", lun_ui_divider) X(SCROLLVIEW, "ScrollView", lun_ui_scrollview) \
  X(SECUREFIELD, "SecureField", lun_ui_securefield) X(DATEPICKER, "DatePicker", lun_ui_datepicker) \
  X(SWIPEACTIONS, "SwipeActions", NULL) X(TOOLBAR, "Toolbar", NULL)
#define LUN_VIEW_ENUM_(id, name, make) LUN_VIEW_##id,
enum { LUN_VIEW_NONE = 0, LUN_VIEW_KINDS(LUN_VIEW_ENUM_) LUN_VIEW_KIND_COUNT };
#undef LUN_VIEW_ENUM_
/* The name of a view kind ("Text"), or "?" for no kind. */
const char *lun_view_kind_name(int kind);

/* A unit's output as output.write hands it over: records, each an operation
 * byte and its operands; an integer operand is an int32_t and a string a
 * size_t length then its bytes (LUN_OUT_NONE: no string), in the machine's
 * order, unaligned. Written by lun_out.c. */
enum {
  LUN_OUT_BEGIN = 1,      /* kind, text: opens a node in the open one */
  LUN_OUT_POSITION,       /* slot: the next node stands at this constructor slot ("1", "2.0"), not at its
                             place among the nodes (F02); no string: no hint */
  LUN_OUT_MODIFIER,       /* name, value: a modifier of the open node */
  LUN_OUT_SLOT,           /* role, slot: a Lua value the open node keeps in the unit's out table */
  LUN_OUT_ATTR,           /* name, value: an attribute of the open node (of the whole output if none is open) */
  LUN_OUT_END,            /* closes the open node */
  LUN_OUT_SITE,           /* file, line: the next child unit without an explicit id was built there (F01; lun_site.c) */
  LUN_OUT_UNIT_RECORD,    /* unit, ref: a new child unit's record */
  LUN_OUT_UNIT_CHANGED,   /* unit: a kept child unit's inputs changed: it renders again */
  LUN_OUT_ENV_CHANGED,    /* the environment value last reported (output.env) changed */
  LUN_OUT_ANIMATE,        /* animation: the open node is animated (view:animation(a, value) saw value change) */
  LUN_OUT_OP_COUNT
};
#define LUN_OUT_NONE ((size_t)-1)

/* Items of the host's preference list (scheduler.prefs_prepare). */
enum { LUN_PREF_HANDLER = 1, LUN_PREF_VALUE = 2 };

/* One item of that list: an onPreferenceChange handler (in tree order), or
 * a preference value (each key's values listed once, in tree order). */
typedef struct lun_PrefItem {
  int32_t kind;       /* LUN_PREF_HANDLER or LUN_PREF_VALUE */
  int32_t recordRef;  /* the record of the view whose output holds it */
  int32_t slot;       /* its place in that record's out */
  int32_t unit;       /* that view's unit (a handler's failures are its view's) */
  int32_t first;      /* a handler: its subtree's values of its key, the count items from first */
  int32_t count;
  int32_t keyLen;     /* a handler: its key, keyLen bytes at the list's keys + keyAt */
  int64_t keyAt;
} lun_PrefItem;

/* What inspect.app_text and inspect.node_text are asked for. */
enum { LUN_TEXT_TREE = 1, LUN_TEXT_JSON, LUN_TEXT_WARNINGS, LUN_TEXT_RENDERS, LUN_TEXT_DEPS, LUN_TEXT_TRACE,
       LUN_TEXT_HIDDEN, LUN_TEXT_RESET_RENDERS /* sets the counts back to 0; answers "" */ };
enum { LUN_NODE_TYPE = 1, LUN_NODE_TEXT, LUN_NODE_VALUE, LUN_NODE_TREE, LUN_NODE_DEPS };

/* What a stored Lua value on a render node is for. */
/* LUN_ROLE_LIST asks inspect.node_info for the unit a List hosts (its record, its id in slot). */
enum { LUN_ROLE_ACTION = 1, LUN_ROLE_BINDING = 2, LUN_ROLE_SUBMIT = 3, LUN_ROLE_LIST = 4,
       LUN_ROLE_FOCUS = 5 /* a function that focuses the node (:focused) */,
       LUN_ROLE_CONTROL = 6 /* a Picker's options, a Slider's or Stepper's range */,
       LUN_ROLE_ROW = 7 /* a row's index, on its Row node (onDelete, onMove): node_info finds the row a node is in */,
       LUN_ROLE_REFRESH = 8 /* a :refreshable action */ };

/* A unit the host hands to lun_flush, in a round's batch (round_batch). */
typedef struct lun_Ticket {
  int32_t unit, kind, node;
  int32_t recordRef;
  int32_t needsRender;    /* run without first checking its dependencies */
  int32_t plain;          /* a view whose output holds no child unit, environment value, preference or
                             transaction: if its run asks the host nothing and writes only nodes, it ends
                             in one entry of one call a batch (scheduler.units_done) in place of unit_begin, output.write and
                             unit_end; otherwise unit_begin comes late, before the first question */
} lun_Ticket;

/* How a unit's update ended (scheduler.unit_end). */
enum { LUN_UNIT_SKIPPED = 0, LUN_UNIT_RAN = 1, LUN_UNIT_FAILED = 2,
       LUN_UNIT_STOPPED = 3 /* failed: stopped by its time budget or an interrupt; not run again this flush */ };
/* What the host answers when an update ends (scheduler.unit_end, units_done), as bits. */
enum { LUN_ENDED_RELEASES = 1 /* disposed units' records wait to be released (scheduler.release_next) */,
       LUN_ENDED_ERROR = 2 /* the host made its output an error node (past the memory cap): its views are gone */ };

/* What the host's clock wakes (clock.schedule, lun_clock_fire). */
enum { LUN_CLOCK_TASK = 1, LUN_CLOCK_TIMER = 2, LUN_CLOCK_ONCE = 3 /* a function called once (an animation's completion) */ };

/* A value crossing from a Swift host object to Lua. */
enum {
  LUN_HV_NIL = 0, LUN_HV_BOOL, LUN_HV_INT, LUN_HV_DOUBLE, LUN_HV_STRING,
  LUN_HV_OBJECT, LUN_HV_ARRAY,
  LUN_HV_TABLE         /* a value table (a list or a dictionary of values): handle is its token, integer its count */
};
typedef struct lun_HostValue {
  int32_t tag;
  int32_t handle;      /* LUN_HV_OBJECT: the object's handle */
  int64_t integer;     /* LUN_HV_INT, LUN_HV_BOOL, LUN_HV_ARRAY (count) */
  double number;       /* LUN_HV_DOUBLE */
  const char *string;  /* LUN_HV_STRING (valid until the next host call) */
  size_t length;
} lun_HostValue;

/* ---- Swift -> C -------------------------------------------------------- */

/* A runtime's budget state; the host frees it after the state is closed
 * and the watchdog has forgotten it. */
lun_Budget *lun_budget_new(void);
void lun_budget_free(lun_Budget *b);
/* Time budget of each run (seconds, 0: none). */
void lun_budget_set(lun_State *S, double seconds);
/* Called by the host's watchdog thread: stops a run past its budget, or
 * every run of an interruptible runtime after lun_interrupt. Never raises.
 * It takes the budget, which the host owns, not the state: a state someone
 * else made may be closed (and its lun_State freed) while the host lives. */
int lun_budget_check(lun_Budget *b);

/* A new Lua state whose scripts may use at most `limit` bytes (0: no cap). */
lua_State *lun_new_state(size_t limit);
/* Closes a state made by lun_new_state (and frees its accounting). */
void lun_close_state(lua_State *L);
/* Bytes in use (Lua's, and what the host holds for scripts: lun_memory_charge), and a new cap (0: none). */
size_t lun_memory_used(lua_State *L);
void lun_memory_limit(lua_State *L, size_t limit);
/* Charges delta bytes the host holds on behalf of the state's scripts
 * (copies of their strings in rendered nodes) to the cap, or gives them
 * back (delta < 0). Returns 0, charging nothing, if they would pass the cap
 * (R19). Never raises. */
int lun_memory_charge(lua_State *L, long long delta);
/* Hands freed heap pages back to the system (after a flush that freed large scratch). */
void lun_heap_trim(void);

/* Opens the standard libraries: the sandbox's allow-list, or all of them;
 * either way without finalizers or debug.sethook (lun_libraries.c). */
int lun_open_libraries(lua_State *L, int sandboxed);
/* In a sandboxed state, require finds Lua modules only in these
 * directories (one per line: dir/name.lua, dir/name/init.lua, inside dir
 * once links are resolved), kept where no script can change them
 * (package.path is not read). */
int lun_sandbox_module_paths(lua_State *L, const char *directories, size_t len);
/* Names the scene whose sceneStorage values the state keeps (default "main"). */
int lun_scene_set(lua_State *L, const char *name, size_t len);

lun_State *lun_state(lua_State *L);
/* 1 if a runtime is installed in L. */
int lun_installed(lua_State *L);
/* Opens the `ui` table (what require("lunette") returns). Raises; call from Lua. */
int lun_open_module(lua_State *L);
/* Puts Lunette's string.find, match, gmatch and gsub, whose matching looks
 * at the budget, in the strings' method table (the loadable module's
 * interpreter made it; a runtime's state has them from the start). [-0, +0] */
void lun_use_budgeted_patterns(lua_State *L);
/* Opens the module in L for the runtime rt; makes require("lunette") work. */
int lun_install(lua_State *L, const lun_Host *host, lun_Graph *graph, lun_Budget *budget);
/* After the prelude ran: the functions of `ui` it wrote in Lua are entered
 * through C, so their errors name the script's line even when a body
 * tail-calls them (`return ui.ForEach(…)`). */
int lun_enter_prelude(lua_State *L);
/* Loads and runs a chunk; a non-nil first result is kept in *resultRef. */
int lun_run_chunk(lua_State *L, const char *source, size_t len, const char *chunkname, int *resultRef);
/* Compiles a text chunk and drops it: LUN_OK, or LUN_SYNTAX with the message as the last error. */
int lun_check_chunk(lua_State *L, const char *source, size_t len, const char *chunkname);
/* Runs a chunk and keeps every result as a string (tostring); *count says
 * how many. bounded 0: host code the budget does not apply to (the runs it
 * makes are bounded all the same). */
int lun_eval(lua_State *L, const char *source, size_t len, const char *chunkname, int bounded, int *count);
/* Result i (1-based) of the last lun_eval. */
const char *lun_eval_result(lua_State *L, int i, size_t *len);
/* Runs a flush (lun_flush.c): the rounds the host asks for, each updating
 * the units it hands out (scheduler.round_batch), then the events they queued. */
int lun_flush(lua_State *L);
/* On (1) while a script runs again: the tasks of views that stay start anew (lun_life.c). */
int lun_reloading(lua_State *L, int on);
/* A script's work (core/lun_scriptwork.c): the timer subscriptions and effects its
 * runs start at their top level. LUN_SCRIPT_RUNNING: name (NULL: none) is the script running now;
 * a reload sets its last run's work ASIDE, then KEEP_NEW (it succeeded: the
 * old work ends) or KEEP_OLD (it failed: what it started ends); END: all of
 * name's work ends (the script is unloaded). name is not kept past the call. */
enum { LUN_SCRIPT_RUNNING = 0, LUN_SCRIPT_ASIDE = 1, LUN_SCRIPT_KEEP_NEW = 2, LUN_SCRIPT_KEEP_OLD = 3, LUN_SCRIPT_END = 4 };
int lun_script_work(lua_State *L, int op, const char *name, size_t len);
/* A component view's site (LUN_OUT_SITE) is its file's number and its line: a reload moves a
 * line with its view (lun_site.c). Files are numbered from 1 (files the runtime loaded: the
 * script's, its modules'; 0: code loaded from text); at most LUN_SITE_MAX_FILES, of names up
 * to LUN_SITE_MAX_NAME. */
#define LUN_SITE_MAX_FILES 2047
#define LUN_SITE_MAX_NAME 4096
/* The largest file whose text the runtime keeps for a reload (core/lun_sources.c). */
#define LUN_SOURCE_MAX (1 << 20)
/* How many files sites have numbered, the chunk name ("@path") of file n, and the text it had
 * when the runtime loaded it (NULL: none; both kept by the state). Never raise. */
int32_t lun_site_files(lua_State *L);
const char *lun_site_file_name(lua_State *L, int32_t n, size_t *len);
const char *lun_site_file_text(lua_State *L, int32_t n, size_t *len);
/* How many times the runtime has loaded file n (its text kept anew each time). Never raises. */
int32_t lun_site_file_loads(lua_State *L, int32_t n);
/* File n's text generation, which sites built from now on carry (LUN_SITE_EPOCH_BITS of it), and
 * moving it on (a reload changed the file): a view value built before holds the old one, so its
 * line is never read against the new text. Never raise. */
#define LUN_SITE_EPOCH_BITS 19
/* A site's file part: the file's number and its text's generation (LUN_SITE_EPOCH_BITS). */
static inline int32_t lun_site_file(int32_t file, int32_t epoch) { return file | epoch << 11; }
int32_t lun_site_file_epoch(lua_State *L, int32_t n);
int32_t lun_site_file_next_epoch(lua_State *L, int32_t n);
/* Keeps text as what the file of chunkname ("@path") held when the host loaded it (run(file:)). */
int lun_sources_keep(lua_State *L, const char *chunkname, const char *text, size_t len);
/* The host sets a value the system gives every view (colorScheme, locale,
 * scenePhase: issue 19), checked as :environment checks it; readers render
 * at the next flush. */
int lun_env_system_set(lua_State *L, const char *key, const char *value, size_t len);
/* Runs what the host's clock has due up to `upTo` (clock.pop), a flush after each. */
int lun_run_due(lua_State *L, double upTo, int *ran);
/* Calls a function kept on a render node (an action), with an optional string. */
int lun_call_slot(lua_State *L, int recordRef, int slot, const char *text, size_t len, int hasText);
/* A sleep or a timer the host scheduled is due. */
int lun_clock_fire(lua_State *L, int32_t kind, int32_t id, double now);
/* Releases the records of disposed units the host lists (scheduler.release_next). */
int lun_release_all(lua_State *L);
/* 1 if a ui.effect waits to run (queued, or put off to the next round). Never raises. */
int lun_effects_waiting(const lun_State *S);
/* Releases a registry reference (never raises). */
int lun_release_ref(lua_State *L, int ref);
/* Makes a Swift type visible as ui.types.<name>; props and methods are
 * newline-separated; isObject: ObservableObject-style (whole-object invalidation). */
int lun_host_define(lua_State *L, int32_t type, const char *name, const char *props, const char *methods, int isObject);
/* Sets the global `name` to a Swift object. */
int lun_host_global(lua_State *L, int32_t handle, int32_t type, const char *name);
/* A lazy List's window starts at `row` from its next run (node:scroll). */
int lun_list_scroll(lua_State *L, int recordRef, int64_t row);
/* Calls node method `method` ("select", "setValue", "increment", ...) on the
 * node behind handle (which the node's userdata takes), with arg if given. */
int lun_node_invoke(lua_State *L, int32_t handle, const char *method, const lun_HostValue *arg);
/* Writes the binding a node keeps (a Toggle flips, a TextField takes text;
 * hasText 2: a SecureField's, never read as a number); a field typed into
 * takes the focus first through its focus slot (0: none). */
int lun_slot_binding(lua_State *L, int recordRef, int slot, const char *text, size_t len, int hasText, int focusSlot);
/* A view's inputs as "name = value" lines (valid until the next call). */
int lun_unit_inputs(lua_State *L, int recordRef, const char **text, size_t *len);
/* A view's state as "name = value" lines (valid until the next call). */
int lun_unit_state(lua_State *L, int recordRef, const char **text, size_t *len);
/* Writes state `name` of a view to the value of a Lua expression, through
 * the view's self (the normal path: checked, notifying readers). */
int lun_unit_set(lua_State *L, int recordRef, const char *name, const char *expression, size_t len);
/* Sets the global `name` to a handle of app (app:find, app:tree... in Lua). */
int lun_app_global(lua_State *L, int32_t app, const char *name);
/* Mounts the view value held at ref, if it is one; *app is its app id or 0,
 * and then *other names the type of what ref holds ("table"; static). */
int lun_mount_ref(lua_State *L, int ref, int32_t *app, const char **other);
/* Writes "Book#3.title" (slot 0: "Book#3") into buf; 0 if the object is gone.
 * Never raises and allocates no Lua memory: safe to call at any time. */
int lun_object_label(lua_State *L, int32_t serial, int32_t slot, char *buf, size_t size);
/* Asks the running line of this runtime to stop (safe in a signal handler):
 * the watchdog stops its runs with the error "interrupted" if it is
 * interruptible (lun_interruptible). */
void lun_interrupt(lun_Budget *b);
/* While on, lun_interrupt stops this runtime's runs. */
void lun_interruptible(lua_State *L, int on);
/* Defines lunette_watch(co, seconds), lunette_unwatch(co) and
 * lunette_reset_clock() as globals, for test runners. */
int lun_install_runner_support(lua_State *L);
/* The message of the last failed entry point (valid until the next call). */
const char *lun_last_error(lua_State *L, size_t *len);

/* ---- C -> host: the callbacks a runtime passes to lun_install --------- */
/* As lua_Alloc is passed to lua_newstate, the host passes this table: the C
 * module links against nothing of Swift's (no link-time cycle). Every
 * callback is a leaf: it never calls Lua, never calls a lun_* entry point
 * that runs Lua, never raises. The callbacks come in groups by owner (the
 * scheduler, the output builder, the clock, Swift objects, storage,
 * inspection, tracing), each with its own `context`: the part of the host
 * that keeps that state. C calls them through one macro, lunh
 * (lun_host_calls.h): a new callback is one line in its group here, one
 * line in the host's table (HostTable.swift) and its Swift function. */
/* The runtime's scheduler: flushes, rounds, units and apps (ui.effect's effects are C's: lun_effect.c) */
typedef struct lun_SchedulerHost {
  void *context;
  /* A flush starts (0: one is running already; the host settles what other threads changed). */
  int (*flush_begin)(void *context);
  /* A round of a flush starts (0: no more rounds: the render loop limit); the next ends (ran: events that ran): 1 if another round is due. */
  int (*round_begin)(void *context);
  /* scheduler: lun_flush's loop */
  /* The next batch of the round: the units to update, in order, as tickets
   * the host keeps (valid until the next call; a ticket whose unit the host
   * disposed meanwhile reads unit 0); returns how many, 0 when the round has
   * nothing left. One call per batch, not per unit. */
  int32_t (*round_batch)(void *context, const lun_Ticket **tickets);
  /* The unit's function is about to run. */
  void (*unit_begin)(void *context, int32_t unit);
  /* The update ended; returns LUN_ENDED_* bits. */
  int (*unit_end)(void *context, int32_t unit, int32_t status, const char *message, size_t len);
  /* Plain tickets' runs that ended well having asked the host nothing, in
   * the order they ran: each entry is the unit (int32_t), the length of its
   * records (size_t), then the records (nodes, text, modifiers, slots
   * only), the unit's new output. One call per batch, not per unit (C sends
   * what it holds before the next round_batch, unit_begin or unit_end, and
   * when a flush ends); returns LUN_ENDED_* bits (LUN_ENDED_ERROR for an
   * entry alone: C sends one so when it must know). */
  int (*units_done)(void *context, const char *entries, size_t len);
  /* The next record of a disposed unit to release (0: none left) and, in *unit, that unit (its
   * name is still given, unit_name, while its record is released). */
  int32_t (*release_next)(void *context, int32_t *unit);
  int (*round_end)(void *context, int ran);
  void (*flush_end)(void *context);
  int (*flushing)(void *context);
  /* apps, inspection */
  /* A new app whose root renders the view value held at recordRef, queued: C flushes. */
  int32_t (*mount)(void *context, int recordRef);
  void (*unmount)(void *context, int32_t app);
  /* The unit must run again at the next flush (a List scrolled). */
  void (*unit_invalidate)(void *context, int32_t unit);
  /* A fresh start (ui.reset): every app unmounted, the store emptied (C cancels the effects). */
  void (*reset)(void *context);
  /* graph: the C graph does the work (lun_graph.h); Swift hears of writes made while a body runs */
  /* A body wrote node, which its run had read (S36: reported after the update). */
  void (*render_write)(void *context, int32_t node);
  /* transactions: changes made between begin and end carry an animation */
  /* The current transaction (ui.withAnimation, ui.withTransaction): its
   * animation (len 0: none) and its id, which units it makes stale carry
   * to their next run; they nest, so begin may follow begin. */
  void (*transaction_begin)(void *context, const char *animation, size_t len, int32_t id);
  void (*transaction_end)(void *context);
  /* After a round: lists every onPreferenceChange handler, each followed by
   * the preference values of its subtree in tree order, in one buffer
   * (*items; the handlers' keys in *keys, *keysLen bytes; both valid until
   * the next call); returns how many items (0 when no view uses
   * preferences, or none that holds one ran or went). */
  int32_t (*prefs_prepare)(void *context, const lun_PrefItem **items, const char **keys, size_t *keysLen);
} lun_SchedulerHost;

/* The output builder: the nodes a unit's run writes */
typedef struct lun_OutputHost {
  void *context;
  /* building a unit's output */
  int32_t (*view_type)(void *context, const char *name, size_t len);
  /* The records a unit's run wrote since the last call (LUN_OUT_*), in
   * order: called when the run ends, and before each call below that depends
   * on them (unit, env, path). */
  void (*write)(void *context, const char *records, size_t len);
  /* Attaches a child unit to the open node; returns its record ref, 0 if it is
   * new, LUN_TOO_DEEP if the open node is LUN_MAX_TREE_DEPTH levels deep in
   * the whole rendered tree (across bodies): C raises, the body is an error. */
  int (*unit)(void *context, int32_t kind, int32_t typeId, const char *key, size_t klen, int32_t *unit);
  /* An environment value on the open node: returns the slot it had last render, or 0. */
  int32_t (*env)(void *context, const char *key, size_t klen, int32_t slot);
  /* The nearest environment value for key above unit: 1 and where it lives
   * (its record, its slot, the node its readers track), or 0: none. A
   * tracked read (not a look) also gets, in probe, the node that changes
   * when a value for key appears above unit, or a nearer one. */
  int (*env_find)(void *context, int32_t unit, const char *key, size_t klen, int tracked, int *recordRef,
                  int32_t *slot, int32_t *node, int32_t *probe);
  const char *(*unit_name)(void *context, int32_t unit, size_t *len);
  /* The position of the open node in the unit's output ("0VStack.1Text"). */
  const char *(*path)(void *context, size_t *len);
  /* The id of the transaction the running unit's run belongs to (0: none). */
  int32_t (*transaction)(void *context);
} lun_OutputHost;

/* The clock (real or virtual): timers, sleeps, animations */
typedef struct lun_ClockHost {
  void *context;
  /* time, and failures of code that runs outside bodies */
  double (*now)(void *context);
  void (*schedule)(void *context, int32_t kind, int32_t id, double after, double every);
  void (*cancel)(void *context, int32_t kind, int32_t id);
  /* 1 if the clock is virtual (moved by ui.clock.advance). */
  int (*virtual)(void *context);
  /* Takes the next entry due at or before upTo (the virtual clock moves to it); 0 if none. */
  int (*pop)(void *context, double upTo, int32_t *kind, int32_t *id, double *due);
  /* The virtual clock moves to `time` (after running what fell due before it). */
  void (*settle)(void *context, double time);
  void (*reset)(void *context);
} lun_ClockHost;

/* Swift objects and value tables in Lua */
typedef struct lun_ObjectsHost {
  void *context;
  int32_t (*object_serial)(void *context);
  /* Swift host objects: 0 = done, non-zero = failed (see objects.error_message) */
  int (*get)(void *context, int32_t handle, int32_t prop, int32_t tracker, lun_HostValue *out);
  int (*set)(void *context, int32_t handle, int32_t prop, const lun_HostValue *value);
  void (*track_whole)(void *context, int32_t handle, int32_t tracker);
  int (*element)(void *context, int32_t handle, int32_t prop, int64_t index, int32_t tracker, lun_HostValue *out);
  int (*set_element)(void *context, int32_t handle, int32_t prop, int64_t index, const lun_HostValue *value);
  /* Calls method `method` (1-based) of host object handle with nargs arguments; 0 = done. */
  int (*call)(void *context, int32_t handle, int32_t method, const lun_HostValue *args, int32_t nargs,
                   lun_HostValue *out);
  /* Value tables crossing to Lua: entry index (0-based) of the table `token` the host filled. */
  int (*table_entry)(void *context, int32_t token, int32_t index, lun_HostValue *key, lun_HostValue *value);
  /* Value tables crossing to Swift: a new one's token, and one entry added to it. */
  int32_t (*table_begin)(void *context);
  void (*table_add)(void *context, int32_t token, const lun_HostValue *key, const lun_HostValue *value);
  int32_t (*host_new)(void *context, int32_t type);
  void (*release)(void *context, int32_t handle);
  const char *(*describe)(void *context, int32_t handle, size_t *len);
  const char *(*error_message)(void *context, size_t *len);
} lun_ObjectsHost;

/* App storage's store */
typedef struct lun_StorageHost {
  void *context;
  /* App storage (T04, R24): keys and values are bytes (a value as
   * lun_storage.c encodes it). The bytes the store keeps for key (1: valid
   * until the next call), nothing kept (0), or the store could not say (-1:
   * the host reports it and keeps the key from being written over; the
   * default is used); and new bytes to keep, NULL to remove the key (a
   * failure is the host's to report). */
  int (*read)(void *context, const char *key, size_t len, const char **bytes, size_t *blen);
  void (*write)(void *context, const char *key, size_t len, const char *bytes, size_t blen);
  /* The script ends the process (os.exit): what was written goes to the
   * store now, and the host waits until the store has it (a while at most). */
  void (*keep)(void *context);
} lun_StorageHost;

/* Inspection and reports: apps' text, node handles, problems and failed events */
typedef struct lun_InspectHost {
  void *context;
  const char *(*app_text)(void *context, int32_t app, int32_t what, const char *arg, size_t alen, size_t *len);
  int32_t (*app_find)(void *context, int32_t app, const char *text, size_t tlen, const char *type, size_t ylen,
                      const char *id, size_t ilen, int32_t index);
  int (*node_info)(void *context, int32_t handle, int32_t role, int *recordRef, int32_t *slot);
  const char *(*node_text)(void *context, int32_t handle, int32_t what, size_t *len);
  void (*node_release_handle)(void *context, int32_t handle);
  /* The next problem recorded for a test runner (an error node, an error in
   * an event, a warning), oldest first; NULL when none is left. */
  const char *(*problem_next)(void *context, int *isError, size_t *len);
  void (*event_failed)(void *context, int32_t unit, const char *message, size_t len);
  /* A warning about unit's output, found by its walk (a Picker's selection no option has). */
  void (*warned)(void *context, int32_t unit, const char *message, size_t len);
  /* A ui.effect's run failed, or was stopped after runLimit runs in a round: the message (the host says "effect: "). */
  void (*effect_failed)(void *context, const char *message, size_t len);
  /* A script opened a URL with the default openURL action (issue 19): the
   * host decides what opening means (`lunette run` prints it). */
  void (*open_url)(void *context, const char *url, size_t len);
} lun_InspectHost;

/* Tracing (`ui.trace`, the REPL's :why) */
typedef struct lun_TraceHost {
  void *context;
  /* diagnostics: where a Lua write to a node happened (while tracing) */
  void (*write)(void *context, int32_t node, const char *place, size_t len);
  void (*where)(void *context, const char *place, size_t len);
  void (*set)(void *context, int on, int echo);
  /* While tracing: an event ran for unit ("onChange", "task resumed", ...). */
  void (*event_ran)(void *context, int32_t unit, const char *what, size_t len);
  /* While tracing: a ui.effect whose graph node is `node` is about to run (its moved dependencies say
   * why; isNew: its first run). */
  void (*effect_ran)(void *context, int32_t node, int isNew);
} lun_TraceHost;

/* The table a host passes to lun_install, by owner: each group answers
 * with its own context (the part of the host that keeps that state). */
struct lun_Host {
  lun_SchedulerHost scheduler;
  lun_OutputHost output;
  lun_ClockHost clock;
  lun_ObjectsHost objects;
  lun_StorageHost storage;
  lun_InspectHost inspect;
  lun_TraceHost trace;
};

#endif
