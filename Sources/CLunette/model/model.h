/*
 * model/model.h — the model room: observable values.
 *
 * Classes and their instances (ui.Observable, ui.ObservableObject), the
 * markers that declare their properties, tracked tables (proxies),
 * computeds pulled through the graph, publishers, Swift objects a host
 * exposes, and values described for people and matched by identity.
 * Calls only the core.
 */
#ifndef LUN_MODEL_H
#define LUN_MODEL_H

#include "core/core.h"

/* An instance metatable keeps its class's computed functions at this integer key. */
#define LUN_META_COMPUTEDS 1
#define LUN_META_NAME 2       /* the class name */
#define LUN_META_NAMES 3      /* property names by index */
#define LUN_META_CLASS 4      /* the lun_Class userdata */
#define LUN_META_DEFAULTS 5   /* default values (or factories) by index */

/* Property kinds of a model class. */
enum {
  LUN_PROP_PLAIN = 1,     /* tracked per property */
  LUN_PROP_COMPUTED,      /* ui.computed: memoised, tracked through what it reads */
  LUN_PROP_IGNORED,       /* ui.ignored: stored, not tracked */
  LUN_PROP_PUBLISHED,     /* ObservableObject ui.Published: a change invalidates the whole object */
  LUN_PROP_UNPUBLISHED    /* ObservableObject plain property: changes notify nobody */
};

/* Markers (ui.computed, ui.ignored, ui.optional, …): lun_class.c */
#define LUN_MT_MARKER "lunette.Marker"
enum { LUN_MARK_COMPUTED = 1, LUN_MARK_IGNORED, LUN_MARK_OPTIONAL, LUN_MARK_PUBLISHED, LUN_MARK_NONE, LUN_MARK_STORAGE };
int lun_marker_new(lua_State *L, int mark, int vidx);
int lun_is_none(lua_State *L, int idx);
int lun_marker_kind(lua_State *L, int idx);

/* What a class's owner wants to hear of its instances' writes (app storage
 * cells: lun_storage.c), so the model calls what its class holds, never a
 * higher room. Each may raise. [-0, +0] */
typedef struct lun_ClassHooks {
  void (*check)(lua_State *L, int objidx, int vidx);   /* before a write: refuse a value */
  void (*changed)(lua_State *L, int objidx);           /* before readers are told */
} lun_ClassHooks;

typedef struct lun_Class {
  int32_t nprops;
  int32_t count;            /* instances made so far, for Book#3 */
  int32_t isObject;         /* an ObservableObject class (whole-object invalidation) */
  uint32_t findMask;        /* the find table's size - 1; 0: no find table (lun_class_find) */
  const lun_ClassHooks *hooks;  /* NULL for a script's classes */
  const void *meta;         /* its instances' metatable (identity only: the class's closures keep it alive) */
  const char **names;       /* names[1..nprops]: each property's interned text (kept alive by the props table) */
  int32_t *find;            /* open-addressed by text address: property index, 0 empty */
  uint8_t kinds[1];         /* kinds[1..nprops] (flexible; names and find follow in the same block) */
} lun_Class;

/* Where the find table looks for the text at key first. */
static inline uint32_t lun_class_slot(const char *key, uint32_t mask) {
  return (uint32_t)(((uint64_t)(uintptr_t)key >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 32) & mask;
}

/* The index of the property named by the string key (its text from
 * lua_tostring), or 0 for none. Lua interns short strings, and the class
 * keeps its names alive, so a key names a property exactly when its text
 * is that name's (lun_class.c made the table only if every name is
 * interned). Valid only when cls->findMask != 0. */
static inline int lun_class_find(const lun_Class *cls, const char *key) {
  uint32_t i = lun_class_slot(key, cls->findMask);
  int32_t prop;
  while ((prop = cls->find[i]) != 0) {
    if (cls->names[prop] == key) return prop;
    i = (i + 1) & cls->findMask;
  }
  return 0;
}

typedef struct lun_Object {
  lun_Class *cls;
  int32_t serial;           /* runtime-wide id: how the graph names it */
  int32_t ordinal;          /* per-class number: Book#3 */
  uint32_t made;            /* lun_State.objectsMade when it was made: strict mode lets a body write what it made */
  int32_t nodes[1];         /* nodes[1..nprops]: graph node per property, 0 until tracked;
                               nodes[0]: the whole object (ObservableObject) */
} lun_Object;

/* How many properties a class may declare: an instance keeps each in a user
 * value, and Lua counts those in an unsigned short. */
#define LUN_MAX_PROPS 65000

/* The user value of an ObservableObject instance that holds its objectWillChange subject. */
#define LUN_OBJECT_SUBJECT(o) ((o)->cls->nprops + 1)

typedef struct lun_Proxy {
  lun_Object *owner;        /* whose property this table is */
  int32_t prop;
} lun_Proxy;

/* lun_class.c */
enum { LUN_CLASS_OBSERVABLE, LUN_CLASS_OBJECT };
int lun_class_define(lua_State *L, const char *name, int specidx, int kind, const lun_ClassHooks *hooks);

/* lun_object.c */
void lun_open_object(lua_State *L);
lun_Object *lun_object_test(lua_State *L, int idx);
int lun_object_read(lua_State *L, int idx, int prop);
void lun_object_write(lua_State *L, int idx, int prop, int vidx);
int lun_object_prop(lua_State *L, int idx, int keyidx);
void lun_changed(lua_State *L, int32_t node);
int32_t lun_object_node(lua_State *L, lun_Object *o, int prop, int kind);
const char *lun_object_classname(lua_State *L, int idx);
void lun_object_suggest(lua_State *L, int objidx, const char *name);
int lun_object_push_serial(lua_State *L, int32_t serial);
void lun_object_push_id(lua_State *L, int idx);
int lun_object_new_of(lua_State *L, int clsidx, int initidx);
void lun_object_metatable(lua_State *L, int clsidx, int propsidx, int methodsidx, int infoidx, const char *name);
void lun_object_notify(lua_State *L, int idx, lun_Object *o, int prop);
void lun_object_track_whole(lua_State *L, int idx);
int lun_object_is_observable_object(lua_State *L, int idx);

/* lun_computed.c */
int lun_computed_read(lua_State *L, lun_State *S, lun_Object *o, int idx, int prop);
int lun_refresh(lua_State *L, lun_State *S, int32_t node);
int lun_refresh_walk(lua_State *L, lun_State *S, int32_t node, int isEffect);
int lun_settle(lua_State *L, lun_State *S, int32_t node);

/* lun_proxy.c */
void lun_open_proxy(lua_State *L);
void lun_proxy_push(lua_State *L, int owneridx, int prop, int rawidx);
void lun_proxy_unwrap(lua_State *L, int idx);
int lun_proxy_test(lua_State *L, int idx);
void lun_store_value(lua_State *L, int objidx, int prop);
void lun_snapshot(lua_State *L, int idx, const char *what);
int lun_values_equal(lua_State *L, int a, int b);
int lun_values_equal_caught(lua_State *L, int32_t unit, int failed);            /* the two on top */
int lun_values_same(lua_State *L, int a, int b, long most, const char *what);
int lun_is_plain_table(lua_State *L, int idx);

/* lun_publisher.c */
void lun_open_publisher(lua_State *L);
void lun_subject_push_new(lua_State *L);
void lun_subject_send(lua_State *L, int subjectidx, int vidx);
int lun_subject_test(lua_State *L, int idx);

/* lun_host.c: Swift objects a host exposes */
void lun_open_host(lua_State *L);
int lun_host_test(lua_State *L, int idx, int32_t *handle);
int lun_host_to_value(lua_State *L, int idx, lun_HostValue *v);
void lun_host_to_values(lua_State *L, int idx, int n, lun_HostValue *v);
void lun_host_push_value(lua_State *L, const lun_HostValue *v);
const char *lun_host_typename(lua_State *L, int idx);
int lun_host_is_object(lua_State *L, int idx);
void lun_host_track_whole(lua_State *L, int idx);

/* lun_secret.c: where a SecureField's text lives, kept secret (issue 19) */
#define LUN_SECRET_HIDDEN "(hidden: a SecureField's text)"
void lun_secret_mark_prop(lua_State *L, int objidx, int kidx);
int lun_secret_prop(lua_State *L, int objidx, int kidx);
void lun_secret_mark_value(lua_State *L, int idx);
int lun_secret_value(lua_State *L, int idx);
int lun_secret_reads(lua_State *L, lua_CFunction read, int argidx, int mark);   /* [-0, +1] */
void lun_secure_text(lua_State *L, int idx);                                     /* [-0, +1] */
void lun_secret_describe(lua_State *L, int vidx, const char *before, const char *after);   /* [-0, +1] */

/* lun_value.c: values described for people, and the keys identities are matched by */
void lun_describe(lua_State *L, int idx, int depth);
void lun_push_quoted(lua_State *L, int idx);
void lun_push_key(lua_State *L, int idx);
void lun_identity_key(lua_State *L, int idx);
void lun_explicit_key(lua_State *L, int idx);

#endif
