/*
 * lun_host_calls.h — lunh_*: C's calls into the host, through the table the
 * host passed to lun_install (clunette.h, lun_Host). One line each.
 */
#ifndef LUN_HOST_CALLS_H
#define LUN_HOST_CALLS_H

#include "clunette.h"

static inline void lunh_render_write(const lun_Host *h, int32_t node) { h->render_write(h->context, node); }
static inline int32_t lunh_object_serial(const lun_Host *h) { return h->object_serial(h->context); }
static inline int32_t lunh_view_type(const lun_Host *h, const char *name, size_t len) { return h->view_type(h->context, name, len); }
static inline void lunh_out_begin(const lun_Host *h, int32_t kind, const char *text, size_t len) { h->out_begin(h->context, kind, text, len); }
static inline void lunh_out_position(const lun_Host *h, const char *slot, size_t len) { h->out_position(h->context, slot, len); }
static inline void lunh_out_modifier(const lun_Host *h, const char *name, size_t nlen, const char *value, size_t vlen) { h->out_modifier(h->context, name, nlen, value, vlen); }
static inline void lunh_out_slot(const lun_Host *h, int32_t role, int32_t slot) { h->out_slot(h->context, role, slot); }
static inline void lunh_out_attr(const lun_Host *h, const char *name, size_t nlen, const char *value, size_t vlen) { h->out_attr(h->context, name, nlen, value, vlen); }
static inline void lunh_out_end(const lun_Host *h) { h->out_end(h->context); }
static inline void lunh_out_error(const lun_Host *h, const char *message, size_t len) { h->out_error(h->context, message, len); }
static inline void lunh_out_site(const lun_Host *h, int32_t line) { h->out_site(h->context, line); }
static inline int lunh_out_unit(const lun_Host *h, int32_t kind, int32_t typeId, const char *key, size_t klen, int32_t *unit) { return h->out_unit(h->context, kind, typeId, key, klen, unit); }
static inline void lunh_out_unit_record(const lun_Host *h, int32_t unit, int recordRef) { h->out_unit_record(h->context, unit, recordRef); }
static inline void lunh_out_unit_changed(const lun_Host *h, int32_t unit) { h->out_unit_changed(h->context, unit); }
static inline int32_t lunh_out_env(const lun_Host *h, const char *key, size_t klen, int32_t slot) { return h->out_env(h->context, key, klen, slot); }
static inline void lunh_out_env_changed(const lun_Host *h) { h->out_env_changed(h->context); }
static inline int lunh_env_find(const lun_Host *h, int32_t unit, const char *key, size_t klen, int *recordRef, int32_t *slot, int32_t *node) { return h->env_find(h->context, unit, key, klen, recordRef, slot, node); }
static inline const char *lunh_unit_name(const lun_Host *h, int32_t unit, size_t *len) { return h->unit_name(h->context, unit, len); }
static inline const char *lunh_out_path(const lun_Host *h, size_t *len) { return h->out_path(h->context, len); }
static inline int32_t lunh_round_batch(const lun_Host *h, const lun_Ticket **tickets) { return h->round_batch(h->context, tickets); }
static inline void lunh_unit_begin(const lun_Host *h, int32_t unit) { h->unit_begin(h->context, unit); }
static inline int lunh_unit_end(const lun_Host *h, int32_t unit, int32_t status, const char *message, size_t len) { return h->unit_end(h->context, unit, status, message, len); }
static inline int32_t lunh_release_next(const lun_Host *h) { return h->release_next(h->context); }
static inline void lunh_trace_write(const lun_Host *h, int32_t node, const char *place, size_t len) { h->trace_write(h->context, node, place, len); }
static inline void lunh_trace_where(const lun_Host *h, const char *place, size_t len) { h->trace_where(h->context, place, len); }
static inline void lunh_trace_set(const lun_Host *h, int on, int echo) { h->trace_set(h->context, on, echo); }
static inline void lunh_transaction_begin(const lun_Host *h, const char *animation, size_t len, int32_t id) { h->transaction_begin(h->context, animation, len, id); }
static inline void lunh_transaction_end(const lun_Host *h) { h->transaction_end(h->context); }
static inline void lunh_out_animate(const lun_Host *h, const char *animation, size_t len) { h->out_animate(h->context, animation, len); }
static inline int32_t lunh_out_transaction(const lun_Host *h) { return h->out_transaction(h->context); }
static inline double lunh_clock_now(const lun_Host *h) { return h->clock_now(h->context); }
static inline void lunh_clock_schedule(const lun_Host *h, int32_t kind, int32_t id, double after, double every) { h->clock_schedule(h->context, kind, id, after, every); }
static inline void lunh_clock_cancel(const lun_Host *h, int32_t kind, int32_t id) { h->clock_cancel(h->context, kind, id); }
static inline int lunh_clock_virtual(const lun_Host *h) { return h->clock_virtual(h->context); }
static inline int lunh_clock_pop(const lun_Host *h, double upTo, int32_t *kind, int32_t *id, double *due) { return h->clock_pop(h->context, upTo, kind, id, due); }
static inline void lunh_clock_settle(const lun_Host *h, double time) { h->clock_settle(h->context, time); }
static inline void lunh_clock_reset(const lun_Host *h) { h->clock_reset(h->context); }
static inline void lunh_reset(const lun_Host *h) { h->reset(h->context); }
static inline void lunh_event_failed(const lun_Host *h, int32_t unit, const char *message, size_t len) { h->event_failed(h->context, unit, message, len); }
static inline const char *lunh_problem_next(const lun_Host *h, int *isError, size_t *len) { return h->problem_next(h->context, isError, len); }
static inline void lunh_event_ran(const lun_Host *h, int32_t unit, const char *what, size_t len) { h->event_ran(h->context, unit, what, len); }
static inline int32_t lunh_prefs_prepare(const lun_Host *h) { return h->prefs_prepare(h->context); }
static inline const char *lunh_prefs_item(const lun_Host *h, int32_t index, int *kind, int *recordRef, int32_t *slot, size_t *len) { return h->prefs_item(h->context, index, kind, recordRef, slot, len); }
static inline int32_t lunh_mount(const lun_Host *h, int recordRef) { return h->mount(h->context, recordRef); }
static inline int lunh_flush_begin(const lun_Host *h) { return h->flush_begin(h->context); }
static inline int lunh_round_begin(const lun_Host *h) { return h->round_begin(h->context); }
static inline int lunh_round_end(const lun_Host *h, int ran) { return h->round_end(h->context, ran); }
static inline void lunh_flush_end(const lun_Host *h) { h->flush_end(h->context); }
static inline int lunh_flushing(const lun_Host *h) { return h->flushing(h->context); }
static inline void lunh_unmount(const lun_Host *h, int32_t app) { h->unmount(h->context, app); }
static inline int32_t lunh_effect_new(const lun_Host *h, int recordRef) { return h->effect_new(h->context, recordRef); }
static inline void lunh_effect_dispose(const lun_Host *h, int32_t unit) { h->effect_dispose(h->context, unit); }
static inline const char *lunh_app_text(const lun_Host *h, int32_t app, int32_t what, const char *arg, size_t alen, size_t *len) { return h->app_text(h->context, app, what, arg, alen, len); }
static inline int32_t lunh_app_find(const lun_Host *h, int32_t app, const char *text, size_t tlen, const char *type, size_t ylen, const char *id, size_t ilen, int32_t index) { return h->app_find(h->context, app, text, tlen, type, ylen, id, ilen, index); }
static inline int lunh_node_info(const lun_Host *h, int32_t handle, int32_t role, int *recordRef, int32_t *slot) { return h->node_info(h->context, handle, role, recordRef, slot); }
static inline const char *lunh_node_text(const lun_Host *h, int32_t handle, int32_t what, size_t *len) { return h->node_text(h->context, handle, what, len); }
static inline void lunh_node_release_handle(const lun_Host *h, int32_t handle) { h->node_release_handle(h->context, handle); }
static inline void lunh_unit_invalidate(const lun_Host *h, int32_t unit) { h->unit_invalidate(h->context, unit); }
static inline int lunh_host_get(const lun_Host *h, int32_t handle, int32_t prop, int32_t tracker, lun_HostValue *out) { return h->host_get(h->context, handle, prop, tracker, out); }
static inline int lunh_host_set(const lun_Host *h, int32_t handle, int32_t prop, const lun_HostValue *value) { return h->host_set(h->context, handle, prop, value); }
static inline void lunh_host_track_whole(const lun_Host *h, int32_t handle, int32_t tracker) { h->host_track_whole(h->context, handle, tracker); }
static inline int lunh_host_element(const lun_Host *h, int32_t handle, int32_t prop, int64_t index, int32_t tracker, lun_HostValue *out) { return h->host_element(h->context, handle, prop, index, tracker, out); }
static inline int lunh_host_set_element(const lun_Host *h, int32_t handle, int32_t prop, int64_t index, const lun_HostValue *value) { return h->host_set_element(h->context, handle, prop, index, value); }
static inline int lunh_host_call(const lun_Host *h, int32_t handle, int32_t method, const lun_HostValue *args, int32_t nargs, lun_HostValue *out) { return h->host_call(h->context, handle, method, args, nargs, out); }
static inline int lunh_table_entry(const lun_Host *h, int32_t token, int32_t index, lun_HostValue *key, lun_HostValue *value) { return h->table_entry(h->context, token, index, key, value); }
static inline int32_t lunh_table_begin(const lun_Host *h) { return h->table_begin(h->context); }
static inline void lunh_table_add(const lun_Host *h, int32_t token, const lun_HostValue *key, const lun_HostValue *value) { h->table_add(h->context, token, key, value); }
static inline int32_t lunh_host_new(const lun_Host *h, int32_t type) { return h->host_new(h->context, type); }
static inline void lunh_host_release(const lun_Host *h, int32_t handle) { h->host_release(h->context, handle); }
static inline const char *lunh_host_describe(const lun_Host *h, int32_t handle, size_t *len) { return h->host_describe(h->context, handle, len); }
static inline const char *lunh_error_message(const lun_Host *h, size_t *len) { return h->error_message(h->context, len); }
static inline int lunh_storage_read(const lun_Host *h, const char *key, size_t len, const char **bytes, size_t *blen) { return h->storage_read(h->context, key, len, bytes, blen); }
static inline void lunh_storage_write(const lun_Host *h, const char *key, size_t len, const char *bytes, size_t blen) { h->storage_write(h->context, key, len, bytes, blen); }

#endif
