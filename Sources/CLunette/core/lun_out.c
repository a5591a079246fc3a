/*
 * lun_out.c — a run's output as data.
 *
 * The walk writes what a body produced (nodes, their text, modifiers,
 * attributes and slots, child records, animations) as records into one
 * buffer per state (the LUN_OUT_* layout in clunette.h). The host reads the
 * buffer in one call, output.write: when the run ends (lun_update), and
 * before the walk asks the host something that depends on what came
 * before (a child unit, an environment entry, the open node's position).
 * A body's output so crosses the seam once, not once per node.
 *
 * The buffer's capacity is charged to the state's memory cap, as Lua's own
 * memory is; a run that would pass it raises "not enough memory".
 */
#include "core/core.h"
#include <stdlib.h>

/* Above this capacity the buffer is given back after each hand-over. */
#define LUN_OUT_KEEP (64 * 1024)

/* The two buffers C fills for the host (a run's records, the batch's held
 * plain runs) grow and go the same way, charged to the memory cap. */

/* Grows the buffer *buf of capacity *cap, len bytes used, to take n more:
 * doubling from `first` up to LUN_OUT_KEEP, exactly the size past it.
 * Returns 1; 0 past the memory cap, -1 out of memory (the buffer as it
 * was). Raises not. */
static int lun_out_grow(lua_State *L, char **buf, size_t *cap, size_t len, size_t n, size_t first) {
  size_t c = *cap ? *cap : first;
  char *p;
  while (c - len < n && c < LUN_OUT_KEEP) c *= 2;
  if (c - len < n) c = len + n;                   /* a large record: exactly its size */
  if (!lun_memory_charge(L, (long long)(c - *cap))) return 0;
  p = (char *)realloc(*buf, c);
  if (!p) {
    lun_memory_charge(L, -(long long)(c - *cap));
    return -1;
  }
  *buf = p;
  *cap = c;
  return 1;
}

/* Frees a buffer lun_out_grow made. */
static void lun_out_release(lua_State *L, char **buf, size_t *cap, size_t *len) {
  free(*buf);
  if (*cap) lun_memory_charge(L, -(long long)*cap);
  *buf = NULL;
  *cap = *len = 0;
}

/* Makes room for n more bytes in S's buffer, handing over what it holds
 * first when it would grow past LUN_OUT_KEEP (records are whole, so the
 * host may read them at any record's end); raises past the memory cap. */
LUN_HOT static char *lun_out_room(lua_State *L, lun_State *S, size_t n) {
  int grown;
  if (n <= S->outCap - S->outLen) return S->outBuf + S->outLen;
  if (S->outLen && S->outLen + n > LUN_OUT_KEEP) {
    lun_out_flush(L, S);
    if (n <= S->outCap - S->outLen) return S->outBuf + S->outLen;
  }
  if (n > ((size_t)-1) / 4 - S->outLen) luaL_error(L, "not enough memory: a view's output is too large");
  grown = lun_out_grow(L, &S->outBuf, &S->outCap, S->outLen, n, 256);
  if (grown == 0) luaL_error(L, "not enough memory: its output holds more text than the memory cap allows");
  if (grown < 0) luaL_error(L, "not enough memory");
  return S->outBuf + S->outLen;
}

/* Writes a string operand at p (its length, then its bytes; NULL:
 * LUN_OUT_NONE); returns the end. */
static char *lun_out_put(char *p, const char *s, size_t len) {
  size_t mark = s ? len : LUN_OUT_NONE;
  memcpy(p, &mark, sizeof mark);
  p += sizeof mark;
  if (s && len) memcpy(p, s, len);
  return p + (s ? len : 0);
}

/* Appends one whole record: the operation byte, nints int32 operands (a, b),
 * then nstrs string operands (s1, s2). */
static void lun_out_rec(lua_State *L, int op, int nints, int32_t a, int32_t b, int nstrs,
                        const char *s1, size_t l1, const char *s2, size_t l2) {
  lun_State *S = lun_state(L);
  size_t n1 = nstrs > 0 && s1 ? l1 : 0, n2 = nstrs > 1 && s2 ? l2 : 0;
  size_t size;
  char *p;
  if (n1 > ((size_t)-1) / 4 || n2 > ((size_t)-1) / 4) luaL_error(L, "not enough memory: a view's output is too large");
  size = 1 + (size_t)nints * sizeof(int32_t) + (size_t)nstrs * sizeof(size_t) + n1 + n2;
  p = lun_out_room(L, S, size);
  *p++ = (char)op;
  if (nints > 0) { memcpy(p, &a, sizeof a); p += sizeof a; }
  if (nints > 1) { memcpy(p, &b, sizeof b); p += sizeof b; }
  if (nstrs > 0) p = lun_out_put(p, s1, l1);
  if (nstrs > 1) p = lun_out_put(p, s2, l2);
  S->outLen += size;
}

/* How many bytes of s begin it as UTF-8 (RFC 3629: no overlong form, no
 * surrogate, nothing past U+10FFFF): len if all of it is. */
static size_t lun_utf8_good(const unsigned char *s, size_t len) {
  size_t i = 0, n, k;
  while (i < len) {
    unsigned c, lo = 0x80, hi = 0xBF;
    uint64_t eight;
    if (len - i >= 8) {                           /* ASCII, eight bytes at a time */
      memcpy(&eight, s + i, 8);
      if (!(eight & 0x8080808080808080ULL)) { i += 8; continue; }
    }
    c = s[i];
    if (c < 0x80) { i++; continue; }
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c >= 0xE0 && c <= 0xEF) { n = 2; if (c == 0xE0) lo = 0xA0; else if (c == 0xED) hi = 0x9F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 3; if (c == 0xF0) lo = 0x90; else if (c == 0xF4) hi = 0x8F; }
    else return i;
    if (len - i <= n || s[i + 1] < lo || s[i + 1] > hi) return i;
    for (k = 2; k <= n; k++) if ((s[i + k] & 0xC0) != 0x80) return i;
    i += n + 1;
  }
  return len;
}

/* Notes the run's first text shown (a node's, an attribute's or a
 * modifier's value) that is no UTF-8: a host shows text as Unicode, so it
 * would be shown repaired (U+FFFD), and the walk says so (lun_walk.c). */
static LUN_HOT void lun_out_check_text(lun_State *S, const char *s, size_t len) {
  size_t good;
  if (!s || S->outBadLen || (good = lun_utf8_good((const unsigned char *)s, len)) == len) return;
  S->outBadLen = len;
  S->outBadAt = good;
  memcpy(S->outBad, s, len < sizeof S->outBad ? len : sizeof S->outBad);
}

LUN_HOT void lun_out_begin(lua_State *L, int kind, const char *text, size_t len) {
  lun_out_check_text(lun_state(L), text, len);
  lun_out_rec(L, LUN_OUT_BEGIN, 1, kind, 0, 1, text, len, NULL, 0);
  lun_state(L)->outDepth++;
}

void lun_out_position(lua_State *L, const char *slot, size_t len) {
  lun_out_rec(L, LUN_OUT_POSITION, 0, 0, 0, 1, slot, len, NULL, 0);
}

void lun_out_modifier(lua_State *L, const char *name, size_t nlen, const char *value, size_t vlen) {
  lun_out_check_text(lun_state(L), value, vlen);
  lun_out_rec(L, LUN_OUT_MODIFIER, 0, 0, 0, 2, name, nlen, value, vlen);
}

/* 1 if name (nlen bytes) starts with the NUL-terminated prefix. */
static int lun_out_prefixed(const char *name, size_t nlen, const char *prefix) {
  size_t plen = strlen(prefix);
  return name && nlen >= plen && memcmp(name, prefix, plen) == 0;
}

void lun_out_attr(lua_State *L, const char *name, size_t nlen, const char *value, size_t vlen) {
  lun_State *S = lun_state(L);
  lun_out_check_text(S, value, vlen);
  lun_out_rec(L, LUN_OUT_ATTR, 0, 0, 0, 2, name, nlen, value, vlen);
  if (S->outDepth <= 0 || lun_out_prefixed(name, nlen, "preference:") || lun_out_prefixed(name, nlen, "onPreferenceChange:"))
    S->outPlain = 0;                              /* the output's own attribute, or a preference: the full path follows it */
}

void lun_out_animate(lua_State *L, const char *desc, size_t len) {
  lun_out_rec(L, LUN_OUT_ANIMATE, 0, 0, 0, 1, desc, len, NULL, 0);
  lun_state(L)->outPlain = 0;
}

void lun_out_slot(lua_State *L, int32_t role, int32_t slot) { lun_out_rec(L, LUN_OUT_SLOT, 2, role, slot, 0, 0, 0, 0, 0); }
LUN_HOT void lun_out_end(lua_State *L) {
  lun_out_rec(L, LUN_OUT_END, 0, 0, 0, 0, 0, 0, 0, 0);
  lun_state(L)->outDepth--;
}
void lun_out_site(lua_State *L, int32_t file, int32_t line) { lun_out_rec(L, LUN_OUT_SITE, 2, file, line, 0, 0, 0, 0, 0); }
/* Pops the new record of child unit `unit` into the registry and reports
 * its ref. The room is made first: nothing raises between taking the ref
 * and handing it over (a ref taken and lost would keep the record). [-1, +0] */
void lun_out_record(lua_State *L, int32_t unit) {
  lun_State *S = lun_state(L);
  int ref;
  lun_out_room(L, S, 1 + 2 * sizeof(int32_t));
  ref = luaL_ref(L, LUA_REGISTRYINDEX);
  lun_out_rec(L, LUN_OUT_UNIT_RECORD, 2, unit, ref, 0, 0, 0, 0, 0);
  S->outPlain = 0;
}
void lun_out_changed(lua_State *L, int32_t unit) {
  lun_out_rec(L, LUN_OUT_UNIT_CHANGED, 1, unit, 0, 0, 0, 0, 0, 0);
  lun_state(L)->outPlain = 0;
}
void lun_out_env_changed(lua_State *L) {
  lun_out_rec(L, LUN_OUT_ENV_CHANGED, 0, 0, 0, 0, 0, 0, 0, 0);
  lun_state(L)->outPlain = 0;
}

/* output.env, after handing over what came before (the open node). */
int32_t lun_out_env(lua_State *L, const char *key, size_t klen, int32_t slot) {
  lun_State *S = lun_state(L);
  lun_out_flush(L, S);
  return lunh(S->rt, output, env, key, klen, slot);
}

/* output.path, after handing over what came before (the open node). */
const char *lun_out_path(lua_State *L, size_t *len) {
  lun_State *S = lun_state(L);
  lun_out_flush(L, S);
  return lunh(S->rt, output, path, len);
}

/* output.unit, after handing over what came before (the open node). */
int lun_out_unit(lua_State *L, int32_t kind, int32_t typeId, const char *key, size_t klen, int32_t *unit) {
  lun_State *S = lun_state(L);
  lun_out_flush(L, S);
  return lunh(S->rt, output, unit, kind, typeId, key, klen, unit);
}

/* Hands what was written so far to the host (output.write) and empties the
 * buffer; a large one is given back. Never raises. */
void lun_out_flush(lua_State *L, lun_State *S) {
  lun_out_begun(L, S);                            /* the host hears a plain run began before its records */
  if (S->outLen) lunh(S->rt, output, write, S->outBuf, S->outLen);
  S->outLen = 0;
  if (S->outCap > LUN_OUT_KEEP) lun_out_free(L, S);
}

/* Frees the buffer (the state closes, or it grew large). */
void lun_out_free(lua_State *L, lun_State *S) {
  lun_out_release(L, &S->outBuf, &S->outCap, &S->outLen);
}

/* ---- plain runs ----
 * Most re-renders of a view write a few nodes and ask the host nothing. For
 * a unit the host marked plain (lun_Ticket.plain: no child units, no
 * environment values, no preferences, no transaction), the host hears of
 * the run once, when it ends: its records are held as one entry of the
 * batch's units_done, in place of unit_begin, output.write and unit_end, and
 * the entries cross together (lun_out_done_send) — before the next
 * round_batch, unit_begin or unit_end, and when the flush ends. Whatever
 * would need the host during the run (a child unit, an environment value,
 * the open node's path, the transaction, a write during the body, records
 * past LUN_OUT_KEEP) first tells it the run began (lun_out_begun), and the
 * run ends the full way. */

LUN_HOT void lun_out_plain_start(lun_State *S, int32_t unit) {
  S->plainUnit = unit;
  S->outPlain = 1;
  S->outDepth = 0;
}

void lun_out_begun(lua_State *L, lun_State *S) {
  int32_t unit = S->plainUnit;
  if (!unit) return;
  S->plainUnit = 0;
  lun_out_done_send(L, S);                        /* the runs before it first (releases wait for the flush's end) */
  lunh(S->rt, scheduler, unit_begin, unit);
}

/* Holds the running plain unit's records as an entry of the next
 * units_done: the unit, the records' length, the records. 0 (holding
 * nothing) if the entries would pass the memory cap. Raises not. [-0, +0] */
static int lun_out_done_hold(lua_State *L, lun_State *S, int32_t unit) {
  size_t need = sizeof unit + sizeof S->outLen + S->outLen;
  char *p;
  if (need > S->doneCap - S->doneLen && lun_out_grow(L, &S->doneBuf, &S->doneCap, S->doneLen, need, 1024) != 1)
    return 0;
  p = S->doneBuf + S->doneLen;
  memcpy(p, &unit, sizeof unit);
  memcpy(p + sizeof unit, &S->outLen, sizeof S->outLen);
  if (S->outLen) memcpy(p + sizeof unit + sizeof S->outLen, S->outBuf, S->outLen);
  S->doneLen += need;
  return 1;
}

/* Hands the entries held to the host in one call (units_done); returns its
 * LUN_ENDED_* bits, 0 if none was held. A large buffer is given back. Raises
 * not. [-0, +0] */
LUN_HOT int lun_out_done_send(lua_State *L, lun_State *S) {
  int bits;
  if (!S->doneLen) return 0;
  bits = lunh(S->rt, scheduler, units_done, S->doneBuf, S->doneLen);
  S->doneLen = 0;
  if (S->doneCap > LUN_DONE_KEEP) lun_out_done_free(L, S);
  return bits;
}

/* Frees the held entries' buffer (the state closes, or it grew large). [-0, +0] */
void lun_out_done_free(lua_State *L, lun_State *S) {
  lun_out_release(L, &S->doneBuf, &S->doneCap, &S->doneLen);
}

/* Ends a plain run that asked the host nothing: its records become an entry
 * held for the batch's units_done; with `hold` 0 (C must know how it ended
 * now) the entry crosses at once, alone, and *ended has its bits. Returns 0
 * if the run must end the full way (it was not plain, or it told the host
 * it began, or its entry would pass the memory cap). Raises not. [-0, +0] */
LUN_HOT int lun_out_plain_done(lua_State *L, lun_State *S, int hold, int *ended) {
  int32_t unit = S->plainUnit;
  int before = 0;
  if (!unit) return 0;
  if (!S->outPlain || S->outDepth != 0) { lun_out_begun(L, S); return 0; }
  if (!hold) before = lun_out_done_send(L, S) & LUN_ENDED_RELEASES;   /* its bits are its own */
  if (!lun_out_done_hold(L, S, unit)) { lun_out_begun(L, S); return 0; }
  S->plainUnit = 0;
  S->outLen = 0;
  if (S->outCap > LUN_OUT_KEEP) lun_out_free(L, S);
  *ended = before;
  if (!hold || S->doneLen > LUN_OUT_KEEP) *ended |= lun_out_done_send(L, S);
  return 1;
}
