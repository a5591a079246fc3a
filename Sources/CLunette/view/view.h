/*
 * view/view.h — the view room: views, what they declare, and the walk.
 *
 * View values and view types (ui.View and its sections, self), modifiers,
 * the walk of a body's output into records, and what the walk carries
 * down: disabled, focus, transactions, environment values a body sets,
 * preferences, alerts and sheets, DynamicProperty. Calls the core, the
 * model and the life rooms.
 */
#ifndef LUN_VIEW_H
#define LUN_VIEW_H

#include "core/core.h"

#define LUN_MT_VIEW "lunette.View"

/* Section kinds of a view type's properties. */
enum {
  LUN_SECTION_STATE = 1, LUN_SECTION_ENV, LUN_SECTION_BINDING, LUN_SECTION_BINDABLE,
  LUN_SECTION_OBSERVED, LUN_SECTION_STATEOBJECT, LUN_SECTION_ENVOBJECT, LUN_SECTION_PROPERTY,
  LUN_SECTION_STORAGE, LUN_SECTION_SCENE, LUN_SECTION_FOCUS,
  LUN_SECTION_INPUT   /* inputs = { "book", count = 0 }: plain inputs, listed ones required (issue 19) */
};

/* A section of a view definition, declared once (lun_self.c, lun_sections):
 * its key in ui.View's definition, its kind (0: a key self never resolves,
 * such as body), whether ui.View registers the names it lists (1) or the
 * section registers itself (0: properties, focusState), whether the view
 * holds objects through it (subscribed before each body), and how self
 * reads, writes and projects ("$name") a name it declares — NULL where the
 * section does not allow it —, and what its declarations must be. read and
 * project: [-0, +1]; write and check: [-0, +0]. */
typedef struct lun_Section {
  const char *name;
  int kind;
  int registers, holds;
  int (*read)(lua_State *L, int recidx, int kidx, int kind);
  void (*write)(lua_State *L, int recidx, int kidx, int vidx);
  int (*project)(lua_State *L, int recidx, int kidx, int kind);
  int input;        /* names the caller passes (required inputs), so no DynamicProperty holds one */
  /* Raises for what a definition at defidx declares in this section (its
   * key `section`) that cannot be, naming the view (NULL: nothing to check). */
  void (*check)(lua_State *L, int defidx, const char *section, const char *view);
} lun_Section;
extern const lun_Section lun_sections[];         /* ends with a NULL name */
const lun_Section *lun_section_of(int kind);     /* NULL for 0 or an unknown kind */
void lun_sections_check(lua_State *L, int defidx, const char *view);   /* every section's check */

/* lun_walk.c: what a unit's run reports to the host builder */
typedef struct lun_Walk {
  int record;       /* stack index of the unit's record */
  int out;          /* stack index of the new out table (shared and empty until lun_walk_out) */
  int ownOut;       /* the out table is the run's own: lun_walk_out made it */
  int32_t slots;    /* slots used in it */
  int life;         /* stack index of the new life table (0: the unit keeps none) */
  int depth;        /* views nested in the walk so far */
  int enabled;      /* lun_enabled.c: 0 not read yet, 1 enabled, 2 disabled */
  int marked;       /* lun_enabled.c: the open node is marked disabled */
  int32_t tx;       /* lun_walktx.c: the out slot of the transaction in effect (0: not made yet) */
  int32_t txcell;   /* lun_walktx.c: the out slot of the :transaction modifiers in effect (0: not read yet) */
  int open;         /* nodes the walk has open */
  int envsaves;     /* lun_envtransform.c: views open that set environment values in this body */
  int rows;         /* lun_list.c: for the view walked next, the stack index of its static List's selection marks (0: none) */
  int rowLevel;     /* lun_list.c: Sections and Groups between that List and the view */
  int refreshes;    /* lun_envbuiltin.c: the :refreshable modifiers walked so far in this body */
  int root;         /* the unit is an app's root (lun_focus.c: its scene) */
  int32_t unit;     /* the unit walked, whose environment the walk reads (0 for a root: nothing above it) */
  int32_t running;  /* the unit walked, a root's too (lun_focus.c: a field is its unit and its place) */
  int focusFields;  /* lun_focus.c: the :focused fields walked so far (a setter names its field by its number) */
  int animNone;     /* the top-level node being walked took the animation away (:animation(nil, value)) */
  int animInner;    /* ...and a node inside it animates (its own :animation or :transaction) */
  int submitOpen;   /* lun_submit.c: the open node's level when it has an :onSubmit of its own (0: none) */
  unsigned walked;  /* view values walked so far (the budget is looked at every LUN_BUDGET_CHECK_EVERY of them) */
  int body;         /* stack index of the function whose view is walked (a stop by the budget names it), or 0 */
  const lun_Host *rt;
} lun_Walk;
void lun_walk_value(lua_State *L, lun_Walk *W, int v);
int32_t lun_walk_store(lua_State *L, lun_Walk *W, int idx);
void lun_walk_empty_out(lua_State *L);
int lun_walk_out(lua_State *L, lun_Walk *W);
void lun_walk_env_entry(lua_State *L, lun_Walk *W, const char *key, size_t klen, int32_t slot);
/* Raises "a view value was altered" naming field; counts n steps of the
 * walk's work against the budget; reports the value at vidx, described,
 * as attribute name. */
int lun_walk_altered(lua_State *L, const char *field);
void lun_walk_work(lua_State *L, lun_Walk *W, unsigned n);                      /* [-0, +0] */
void lun_walk_describe_attr(lua_State *L, lun_Walk *W, const char *name, int vidx);   /* [-0, +0] */

/* lun_walkunit.c: the walk's child units (a component's; a List's or
 * ForEach's content) matched or made, a kept one told its inputs changed */
int lun_walk_unit(lua_State *L, lun_Walk *W, int32_t kind, int32_t typeId, const char *key, size_t klen,
                  int32_t *child);
void lun_walk_component(lua_State *L, lun_Walk *W, int v);                      /* [-0, +0] */
void lun_walk_rows(lua_State *L, lun_Walk *W, int v);                           /* [-0, +0] */

/* lun_walktx.c: the walker's part of transactions (D06) */
void lun_walk_transaction(lua_State *L, lun_Walk *W, int v);
/* What a run keeps for the next render of a position, in its out table by
 * name and path (lun_walk.c): the last render's (nil if none), and this
 * one's, the value on top. [-0, +1], [-1, +0] */
void lun_walk_kept(lua_State *L, lun_Walk *W, const char *name, int pidx);
void lun_walk_keep(lua_State *L, lun_Walk *W, const char *name, int pidx);
void lun_walk_inherited(lua_State *L, lun_Walk *W);
void lun_walk_note(lua_State *L, lun_Walk *W);                                    /* [-0, +0] */
int lun_walk_disables(lua_State *L, lun_Walk *W);
void lun_walk_tx_with(lua_State *L, lun_Walk *W, int aidx);                     /* [-0, +0] */

/* lun_envtransform.c: view:transformEnvironment and the values a body sets, for the views inside */
int lun_modifier_transform_environment(lua_State *L);
/* lun_envlist.c: a view value's environment list, whose entries only the runtime makes */
void lun_envlist_add(lua_State *L, int v);                                         /* [-1, +0] */
int lun_envlist_intact(lua_State *L, int idx);                                     /* [-0, +0] */
void lun_envwalk_value(lua_State *L, lun_Walk *W, int list, lua_Integer i, int v, int kidx);
void lun_envwalk_set(lua_State *L, lun_Walk *W, int kidx, int vidx);
void lun_envwalk_inherited(lua_State *L, lun_Walk *W, int kidx);                  /* [-0, +1] */
void lun_envwalk_leave(lua_State *L, lun_Walk *W);

/* lun_enabled.c: :disabled and isEnabled (D09) */
void lun_open_enabled(lua_State *L);
int lun_enabled_now(lua_State *L, lun_Walk *W);
void lun_enabled_enter(lua_State *L, lun_Walk *W, int v, int envSet, int hasMods);
void lun_enabled_env(lua_State *L, lun_Walk *W);
void lun_enabled_slot(lua_State *L, lun_Walk *W, int role, int32_t slot);
int lun_enabled_refuse(lua_State *L, const char *verb, const char *what);
void lun_enabled_check_arg(lua_State *L);

/* lun_focus.c: focus, one per scene (T05, D01) */
void lun_focus_claim(lua_State *L, int tidx, int kidx, int vidx);
void lun_focus_write(lua_State *L, int bidx, int vidx);
void lun_focus_walk(lua_State *L, lun_Walk *W, int fidx, int kind);
void lun_focus_walk_unbound(lua_State *L, lun_Walk *W);   /* a TextField or SecureField with no :focused */
void lun_focus_scene_walk(lua_State *L, lun_Walk *W);

/* lun_preference.c */
void lun_open_preference(lua_State *L);
int lun_preferences_run(lua_State *L, lun_State *S);

/* lun_dynamic.c: ui.DynamicProperty */
void lun_open_dynamic(lua_State *L);
void lun_dynamic_expand(lua_State *L, int defidx, const char *view);
void lun_dynamic_sections(lua_State *L, int defidx, int infoidx);
void lun_dynamic_handle(lua_State *L, int recidx, int kidx);
void lun_dynamic_update(lua_State *L, int recidx, int infoidx);
void lun_dynamic_inputs(lua_State *L, int tidx, int arg);

/* lun_preference.c: the walk met a view's onPreferenceChange list (at lidx). [-0, +0] */
void lun_pref_walk_handlers(lua_State *L, lun_Walk *W, int lidx);

/* lun_view.c: view values */
void lun_open_view(lua_State *L);
int lun_view_test(lua_State *L, int idx);
int lun_view_new(lua_State *L, int kind);
/* How many children one container (or a Picker's options) may list. */
#define LUN_MAX_CHILDREN 1000000
void lun_view_text_arg(lua_State *L, int arg, int vidx, const char *field);     /* [-0, +0] */
void lun_view_attr(lua_State *L, int vidx, const char *name);                   /* [-1, +0] */
/* Raises, naming the caller's line, if the constructor `name` got a value
 * past its `most` arguments: an option, a callback or a value it would not
 * use (D10); Lua's usual extras pass (lun_no_extra_view). [-0, +0] */
#define lun_view_arity(L, name, most) lun_no_extra_view((L), (name), (most))
/* The constructors of LUN_VIEW_KINDS that live outside lun_view.c (it registers them all). */
int lun_ui_toggle(lua_State *L);       /* lun_control.c */
int lun_ui_textfield(lua_State *L);
int lun_ui_securefield(lua_State *L);
int lun_ui_slider(lua_State *L);
int lun_ui_stepper(lua_State *L);
int lun_ui_datepicker(lua_State *L);
int lun_ui_picker(lua_State *L);       /* lun_picker.c */
int lun_ui_view(lua_State *L);         /* lun_viewtype.c */

/* lun_control.c: what Picker shares with the bound controls */
int lun_view_control(lua_State *L, int kind, int labelarg, int bindarg, int specarg);
void lun_view_bound_value(lua_State *L, int kind, int labelarg, int bindarg);
int lun_view_bound_peek(lua_State *L, int bindarg);
void lun_view_bound_check(lua_State *L, int kind, int vidx, int validx, const char *place);   /* [-0, +0] */
/* lun_walk.c: a shown text that is no UTF-8 (lun_out.c noted it), said once a body */
void lun_walk_bad_text(lua_State *L, lun_Walk *W, lun_State *S);                 /* [-0, +0] */

/* lun_viewtype.c */
void lun_open_viewtype(lua_State *L);
/* lun_site.c: records where the component view value at vidx was built (its site). [-0, +0] */
void lun_view_site(lua_State *L, int vidx);
lua_Integer lun_site_here(lua_State *L);
void lun_view_name(lua_State *L, int idx);
int lun_viewtype_test(lua_State *L, int idx);

/* lun_modifier.c */
void lun_open_modifier(lua_State *L);

/* lun_alert.c: presentations, alerts and sheets */
int lun_modifier_alert(lua_State *L);
int lun_modifier_confirmation_dialog(lua_State *L);
void lun_walk_alert(lua_State *L, lun_Walk *W, int v);
void lun_walk_sheet(lua_State *L, lun_Walk *W, int v);                          /* [-0, +0] */

/* lun_control.c */
void lun_date_text(lua_State *L, lua_Number seconds, const char *components);   /* [-0, +1] */
/* lun_picker.c */
void lun_view_tag_of(lua_State *L, int idx);                                     /* [-0, +1] */
void lun_view_list_text(lua_State *L, int idx);                                  /* [-0, +1] */
lua_Integer lun_picker_find(lua_State *L, int oidx, int vidx);                  /* [-0, +0] */
/* lun_viewtype.c */
void lun_inputs_check(lua_State *L, int defidx, const char *section, const char *view);   /* [-0, +0] */
void lun_state_check(lua_State *L, int defidx, const char *section, const char *view);    /* [-0, +0] */
/* lun_preference.c: preference keys ui.PreferenceKey declared */
void lun_pref_check_declared(lua_State *L, int idx, const char *call);   /* [-0, +0] */

/* lun_modvalue.c: the values display modifiers take (a frame, a colour, a font, ...) */
void lun_modvalue_check(lua_State *L, const char *name, const char *arg);   /* [-0, +0] */

/* A ZStack's or a frame's alignments: SwiftUI's Alignment values, by name. */
extern const char *const lun_view_alignments[];
void lun_view_add_children(lua_State *L, int src, int vidx);                     /* [-0, +0] */
/* lun_list.c: List(selection:), onDelete, onMove, swipeActions, searchable, toolbar */
int lun_list_take_options(lua_State *L);
void lun_list_check_data(lua_State *L, int idx, const char *name);               /* [-0, +0] */
void lun_list_give_selection(lua_State *L, int vidx);                            /* [-0, +0] */
void lun_list_row_value(lua_State *L, int idx);                                  /* [-0, +1] */
void lun_list_select(lua_State *L, int bidx, int sidx, int vidx);                /* [-0, +0] */
int lun_list_walk(lua_State *L, lun_Walk *W, int v);                             /* [-0, +0|1] */
void lun_list_tagged_row(lua_State *L, lun_Walk *W, int marks, int v);           /* [-0, +0] */
int lun_list_rows_begin(lua_State *L, lun_Walk *W);                              /* [-0, +1] */
void lun_list_row(lua_State *L, lun_Walk *W, int marks, int elem, lua_Integer i); /* [-0, +0] */
int lun_modifier_on_delete(lua_State *L);
int lun_modifier_on_move(lua_State *L);
int lun_modifier_swipe_actions(lua_State *L);
int lun_modifier_searchable(lua_State *L);
int lun_modifier_toolbar(lua_State *L);
int lun_modifier_navigation_destination(lua_State *L);
/* lun_envbuiltin.c: colorScheme, locale, scenePhase, editMode, isPresented, openURL */
void lun_open_envbuiltin(lua_State *L);
void lun_envbuiltin_check(lua_State *L, int kidx, int vidx);                     /* [-0, +0] */
void lun_envbuiltin_derived(lua_State *L, int kidx, int vidx, int v, const char *site); /* [-0, +0] */
int lun_envbuiltin_readonly(const char *key);
const char *lun_envbuiltin_setter(const char *key);
void lun_attribute_mute(lua_State *L, int muted);                                /* [-0, +0] */
void lun_envbuiltin_presented(lua_State *L, lun_Walk *W);                        /* [-0, +0] */
void lun_envbuiltin_refreshable(lua_State *L, lun_Walk *W);                      /* [-0, +0] */
/* lun_submit.c: :onSubmit over a view hierarchy */
void lun_submit_walk(lua_State *L, lun_Walk *W, int fidx);                        /* [-0, +0] */
void lun_submit_field(lua_State *L, lun_Walk *W, int v);                          /* [-0, +0] */
void lun_envbuiltin_list_refresh(lua_State *L, lun_Walk *W);                     /* [-0, +0] */

/* lun_self.c */
void lun_open_self(lua_State *L);
void lun_self_create(lua_State *L, int recidx, int32_t unit);
void lun_self_retype(lua_State *L, int recidx);
void lun_self_init_state(lua_State *L, int recidx);
void lun_self_init(lua_State *L, int recidx);
void lun_self_subscribe(lua_State *L, int recidx, int infoidx);
/* What a run of the view whose self is at idx does before its body, as
 * LUN_SELF_* bits, kept by self from its view's info (every bit for a value
 * that is no self). [-0, +0] */
enum { LUN_SELF_OBJECTS = 1 /* lun_self_subscribe */, LUN_SELF_UPDATES = 2 /* lun_dynamic_update */,
       LUN_SELF_READY = 4 /* lun_self_init ran: its state is made (kept by self, not a record field: P6) */ };
void lun_self_unready(lua_State *L, int recidx);
int lun_self_work(lua_State *L, int idx);
enum { LUN_FOCUS_VALUE = 1, LUN_FOCUS_BOOL = 2 };   /* lun_self_focus_binding */
int lun_self_focus_binding(lua_State *L, int bidx);
int32_t lun_self_unit(lua_State *L, int idx);
int32_t lun_record_unit(lua_State *L, int recidx);
int32_t lun_record_forget_unit(lua_State *L, int recidx);
void lun_record_keep_environment(lua_State *L, int recidx, int32_t unit);

#endif
