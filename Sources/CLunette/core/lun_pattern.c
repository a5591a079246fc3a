/*
 * lun_pattern.c — string.find, match, gmatch and gsub under the budget.
 *
 * Lua's patterns backtrack: `(".-"):rep(4) .. "b"` against 400 a's takes
 * minutes, and the stock matcher is C, where the budget's hook (which fires
 * between Lua instructions) never runs: a script could hold its host's
 * thread for as long as it liked. These are the same four functions, with
 * the patterns the manual describes (§6.4.1), written for Lunette: the
 * matcher counts its steps and looks at the budget every LUN_MATCH_CHECK
 * of them, raising its error as the hook would. The libraries' opening
 * (lun_libraries.c) puts them in the string table, so `s:find(p)` is
 * bounded too.
 *
 * The matcher: `lun_match` walks the pattern from p against the subject
 * from s and returns where the match ends (NULL: no match). A single item
 * with `*`, `+` or `-` tries its repetitions longest or shortest first,
 * matching the rest of the pattern after each (the backtracking the budget
 * bounds); captures are kept in the match state; nesting is bounded
 * (LUN_MATCH_DEPTH, "pattern too complex").
 */
#include "core/core.h"
#include <ctype.h>
#include <string.h>

#define LUN_MATCH_DEPTH 200        /* nested matching calls one match may make */
#define LUN_MAX_CAPTURES 32        /* as many as Lua's own matcher takes */
#define LUN_ESC '%'       /* a pattern's escape */
#define LUN_MATCH_CHECK 4096       /* steps between two looks at the budget */
#define LUN_CAP_UNFINISHED (-1)
#define LUN_CAP_POSITION (-2)
#define LUN_SPECIALS "^$*+?.([%-"

typedef struct lun_Match {
  const char *src, *srcEnd, *patEnd;
  lua_State *L;
  int depth;                       /* nested calls left */
  int level;                       /* captures open or closed */
  long untilCheck;                 /* steps before the budget is looked at again */
  struct { const char *init; ptrdiff_t len; } capture[LUN_MAX_CAPTURES];
} lun_Match;

static const char *lun_match(lun_Match *m, const char *s, const char *p);

/* n steps of work (a byte compared, copied or tried counts one; a block
 * of bytes compared at once, one per 64): the budget is looked at every
 * LUN_MATCH_CHECK of them. */
static void lun_match_steps(lun_Match *m, size_t n) {
  if ((m->untilCheck -= (long)(n < LUN_MATCH_CHECK ? n : LUN_MATCH_CHECK)) > 0) return;
  m->untilCheck = LUN_MATCH_CHECK;
  lun_budget_raise(m->L);
}

/* A step of the matcher. */
static void lun_match_step(lun_Match *m) {
  lun_match_steps(m, 1);
}

/* The end of the single character class at p (a character, %x, [set] or .). */
static const char *lun_class_end(lun_Match *m, const char *p) {
  if (*p++ == LUN_ESC) {
    if (p == m->patEnd) luaL_error(m->L, "malformed pattern (ends with '%%')");
    return p + 1;
  }
  if (p[-1] == '[') {
    if (*p == '^') p++;
    do {                           /* the first ']' of a set is a character of it */
      if (p == m->patEnd) luaL_error(m->L, "malformed pattern (missing ']')");
      if (*(p++) == LUN_ESC && p < m->patEnd) p++;
    } while (*p != ']');
    return p + 1;
  }
  return p;
}

/* Whether character c is in class %cl (a letter: its class; another: itself). */
static int lun_class_has(int c, int cl) {
  int in;
  switch (tolower(cl)) {
    case 'a': in = isalpha(c); break;
    case 'c': in = iscntrl(c); break;
    case 'd': in = isdigit(c); break;
    case 'g': in = isgraph(c); break;
    case 'l': in = islower(c); break;
    case 'p': in = ispunct(c); break;
    case 's': in = isspace(c); break;
    case 'u': in = isupper(c); break;
    case 'w': in = isalnum(c); break;
    case 'x': in = isxdigit(c); break;
    case 'z': in = c == 0; break;                 /* Lua 5.1's NUL class, still taken */
    default: return cl == c;
  }
  if (isupper(cl)) in = !in;     /* %A: the complement of %a */
  return in != 0;
}

/* Whether c is in the set [p, ec] (p at '[', ec at its ']'). */
static int lun_set_has(int c, const char *p, const char *ec) {
  int in = 1;
  if (*(p + 1) == '^') { in = 0; p++; }
  while (++p < ec) {
    if (*p == LUN_ESC) {
      p++;
      if (lun_class_has(c, (unsigned char)*p)) return in;
    } else if (*(p + 1) == '-' && p + 2 < ec) {
      p += 2;
      if ((unsigned char)*(p - 2) <= c && c <= (unsigned char)*p) return in;
    } else if ((unsigned char)*p == c) return in;
  }
  return !in;
}

/* Whether the subject's character at s matches the class [p, ep). */
static int lun_single(lun_Match *m, const char *s, const char *p, const char *ep) {
  int c;
  if (s >= m->srcEnd) return 0;
  c = (unsigned char)*s;
  switch (*p) {
    case '.': return 1;
    case LUN_ESC: return lun_class_has(c, (unsigned char)*(p + 1));
    case '[': return lun_set_has(c, p, ep - 1);
    default: return (unsigned char)*p == c;
  }
}

/* %bxy at p: a balanced run from x to y at s. */
static const char *lun_match_balance(lun_Match *m, const char *s, const char *p) {
  int open, close, count = 1;
  if (p >= m->patEnd - 1) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
  if (s >= m->srcEnd || *s != *p) return NULL;
  open = *p;
  close = *(p + 1);
  while (++s < m->srcEnd) {
    lun_match_step(m);
    if (*s == close) {
      if (--count == 0) return s + 1;
    } else if (*s == open) count++;
  }
  return NULL;
}

/* The class at p repeated as often as it matches, then the rest (ep on),
 * trying the longest first. */
static const char *lun_match_longest(lun_Match *m, const char *s, const char *p, const char *ep) {
  ptrdiff_t i = 0;
  while (lun_single(m, s + i, p, ep)) { i++; lun_match_step(m); }
  while (i >= 0) {
    const char *r = lun_match(m, s + i, ep + 1);
    if (r) return r;
    i--;
    lun_match_step(m);
  }
  return NULL;
}

/* The same, trying the shortest first (`-`). */
static const char *lun_match_shortest(lun_Match *m, const char *s, const char *p, const char *ep) {
  for (;;) {
    const char *r = lun_match(m, s, ep + 1);
    lun_match_step(m);
    if (r) return r;
    if (!lun_single(m, s, p, ep)) return NULL;
    s++;
  }
}

/* An open capture at s (`(`, or `()` for a position), then the rest. */
static const char *lun_capture_open(lun_Match *m, const char *s, const char *p, ptrdiff_t what) {
  const char *r;
  if (m->level >= LUN_MAX_CAPTURES) luaL_error(m->L, "too many captures");
  m->capture[m->level].init = s;
  m->capture[m->level].len = what;
  m->level++;
  if ((r = lun_match(m, s, p)) == NULL) m->level--;   /* undone on failure */
  return r;
}

/* The innermost capture still open. */
static int lun_capture_last_open(lun_Match *m) {
  int level = m->level;
  for (level--; level >= 0; level--)
    if (m->capture[level].len == LUN_CAP_UNFINISHED) return level;
  return luaL_error(m->L, "invalid pattern capture");
}

/* Closes the innermost open capture at s, then the rest. */
static const char *lun_capture_close(lun_Match *m, const char *s, const char *p) {
  int l = lun_capture_last_open(m);
  const char *r;
  m->capture[l].len = s - m->capture[l].init;
  if ((r = lun_match(m, s, p)) == NULL) m->capture[l].len = LUN_CAP_UNFINISHED;
  return r;
}

/* The capture a %1..%9 names, checked. */
static int lun_capture_index(lun_Match *m, int l) {
  l -= '1';
  if (l < 0 || l >= m->level || m->capture[l].len == LUN_CAP_UNFINISHED)
    return luaL_error(m->L, "invalid capture index %%%d", l + 1);
  return l;
}

/* %1..%9 at s: the text that capture matched, again. */
static const char *lun_match_back(lun_Match *m, const char *s, int l) {
  size_t len;
  l = lun_capture_index(m, l);
  len = (size_t)m->capture[l].len;
  lun_match_steps(m, 1 + len / 64);               /* a long capture compared again costs its length */
  if ((size_t)(m->srcEnd - s) >= len && memcmp(m->capture[l].init, s, len) == 0) return s + len;
  return NULL;
}

/* Matches the pattern from p at s; where the match ends, or NULL. */
static const char *lun_match(lun_Match *m, const char *s, const char *p) {
  if (m->depth-- == 0) luaL_error(m->L, "pattern too complex");
  for (;;) {
    const char *ep;
    lun_match_step(m);
    if (p == m->patEnd) break;
    if (*p == '(') {
      s = *(p + 1) == ')' ? lun_capture_open(m, s, p + 2, LUN_CAP_POSITION)
                          : lun_capture_open(m, s, p + 1, LUN_CAP_UNFINISHED);
      break;
    }
    if (*p == ')') { s = lun_capture_close(m, s, p + 1); break; }
    if (*p == '$' && p + 1 == m->patEnd) { s = s == m->srcEnd ? s : NULL; break; }
    if (*p == LUN_ESC && *(p + 1) == 'b') {
      if ((s = lun_match_balance(m, s, p + 2)) == NULL) break;
      p += 4;
      continue;
    }
    if (*p == LUN_ESC && *(p + 1) == 'f') {           /* %f[set]: a frontier */
      int before, here;
      p += 2;
      if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
      ep = lun_class_end(m, p);
      before = s == m->src ? '\0' : (unsigned char)*(s - 1);
      here = s < m->srcEnd ? (unsigned char)*s : '\0';
      if (!lun_set_has(before, p, ep - 1) && lun_set_has(here, p, ep - 1)) { p = ep; continue; }
      s = NULL;
      break;
    }
    if (*p == LUN_ESC && isdigit((unsigned char)*(p + 1))) {
      if ((s = lun_match_back(m, s, (unsigned char)*(p + 1))) == NULL) break;
      p += 2;
      continue;
    }
    ep = lun_class_end(m, p);                        /* a single class, perhaps repeated */
    if (!lun_single(m, s, p, ep)) {
      if (*ep == '*' || *ep == '?' || *ep == '-') { p = ep + 1; continue; }   /* it may match nothing */
      s = NULL;
      break;
    }
    if (*ep == '?') {
      const char *r = lun_match(m, s + 1, ep + 1);
      if (r) { s = r; break; }
      p = ep + 1;
      continue;
    }
    if (*ep == '+') { s = lun_match_longest(m, s + 1, p, ep); break; }
    if (*ep == '*') { s = lun_match_longest(m, s, p, ep); break; }
    if (*ep == '-') { s = lun_match_shortest(m, s, p, ep); break; }
    s++;
    p = ep;
  }
  m->depth++;
  return s;
}

/* Pushes capture i of a match from s to e (the whole match when there are
 * no captures and i is 0). [-0, +1] */
static void lun_push_capture(lun_Match *m, int i, const char *s, const char *e) {
  if (i >= m->level) {
    if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
    lua_pushlstring(m->L, s, (size_t)(e - s));
    return;
  }
  if (m->capture[i].len == LUN_CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
  if (m->capture[i].len == LUN_CAP_POSITION) lua_pushinteger(m->L, (m->capture[i].init - m->src) + 1);
  else lua_pushlstring(m->L, m->capture[i].init, (size_t)m->capture[i].len);
}

/* Pushes every capture (or the whole match, s given). [-0, +n] */
static int lun_push_captures(lun_Match *m, const char *s, const char *e) {
  int i, n = m->level == 0 && s ? 1 : m->level;
  luaL_checkstack(m->L, n, "too many captures");
  for (i = 0; i < n; i++) lun_push_capture(m, i, s, e);
  return n;
}

static void lun_match_init(lun_Match *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
  m->L = L;
  m->src = s;
  m->srcEnd = s + ls;
  m->patEnd = p + lp;
  m->untilCheck = LUN_MATCH_CHECK;
}

static void lun_match_reset(lun_Match *m) {
  m->level = 0;
  m->depth = LUN_MATCH_DEPTH;
}

/* A start position as find's init: negative counts from the end. */
static size_t lun_start(lua_Integer pos, size_t len) {
  if (pos > 0) return (size_t)pos;
  if (pos == 0) return 1;
  if (pos < -(lua_Integer)len) return 1;
  return len + (size_t)pos + 1;
}

/* Where needle (ln bytes) first is in haystack (lh bytes), or NULL. */
static const char *lun_find_plain(lun_Match *m, const char *h, size_t lh, const char *n, size_t ln) {
  if (ln == 0) return h;
  while (ln <= lh) {
    const char *at = memchr(h, *n, lh - ln + 1);
    if (!at) return NULL;
    lun_match_steps(m, 1 + ln / 64);              /* each candidate compares the whole needle */
    if (memcmp(at + 1, n + 1, ln - 1) == 0) return at;
    lh -= (size_t)(at + 1 - h);
    h = at + 1;
  }
  return NULL;
}

/* Whether the pattern (lp bytes, perhaps holding NULs) has no special character. */
static int lun_no_specials(const char *p, size_t lp) {
  size_t upto = 0;
  do {
    if (strpbrk(p + upto, LUN_SPECIALS)) return 0;
    upto += strlen(p + upto) + 1;              /* past the next NUL (a Lua string ends with one) */
  } while (upto <= lp);
  return 1;
}

/* string.find and string.match: (s, pattern [, init [, plain]]). */
static int lun_find_or_match(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls), *p = luaL_checklstring(L, 2, &lp);
  size_t init = lun_start(luaL_optinteger(L, 3, 1), ls) - 1;
  lun_Match m;
  if (init > ls) { luaL_pushfail(L); return 1; }
  lun_match_init(&m, L, s, ls, p, lp);
  if (find && (lua_toboolean(L, 4) || lun_no_specials(p, lp))) {
    const char *at = lun_find_plain(&m, s + init, ls - init, p, lp);
    if (!at) { luaL_pushfail(L); return 1; }
    lua_pushinteger(L, (at - s) + 1);
    lua_pushinteger(L, (at - s) + (lua_Integer)lp);
    return 2;
  } else {
    const char *s1 = s + init;
    int anchor = *p == '^';
    if (anchor) { p++; lp--; m.patEnd = p + lp; }
    do {
      const char *e;
      lun_match_reset(&m);
      if ((e = lun_match(&m, s1, p)) != NULL) {
        if (find) {
          lua_pushinteger(L, (s1 - s) + 1);
          lua_pushinteger(L, e - s);
          return lun_push_captures(&m, NULL, NULL) + 2;
        }
        return lun_push_captures(&m, s1, e);
      }
    } while (s1++ < m.srcEnd && !anchor);
  }
  luaL_pushfail(L);
  return 1;
}

static int lun_str_find(lua_State *L) { return lun_find_or_match(L, 1); }
static int lun_str_match(lua_State *L) { return lun_find_or_match(L, 0); }

/* string.gmatch's iterator. Upvalues: the subject, the pattern, the state
 * (a userdata: where to go on from and where the last match ended). */
typedef struct lun_GMatch {
  size_t next;
  ptrdiff_t last;                  /* -1: no match yet */
} lun_GMatch;

static int lun_gmatch_next(lua_State *L) {
  size_t ls, lp;
  const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
  lun_GMatch *g = (lun_GMatch *)lua_touserdata(L, lua_upvalueindex(3));
  lun_Match m;
  const char *src;
  lun_match_init(&m, L, s, ls, p, lp);
  for (src = s + g->next; src <= m.srcEnd; src++) {
    const char *e;
    lun_match_reset(&m);
    if ((e = lun_match(&m, src, p)) != NULL && (g->last < 0 || e != s + g->last)) {
      g->next = (size_t)(e - s);
      g->last = e - s;
      return lun_push_captures(&m, src, e);
    }
  }
  return 0;
}

/* string.gmatch: (s, pattern [, init]) -> iterator. */
static int lun_str_gmatch(lua_State *L) {
  size_t ls;
  lun_GMatch *g;
  size_t init;
  luaL_checklstring(L, 1, &ls);
  luaL_checkstring(L, 2);
  init = lun_start(luaL_optinteger(L, 3, 1), ls) - 1;
  lua_settop(L, 2);
  g = (lun_GMatch *)lua_newuserdatauv(L, sizeof *g, 0);
  g->next = init > ls ? ls + 1 : init;
  g->last = -1;
  lua_pushcclosure(L, lun_gmatch_next, 3);
  return 1;
}

/* Adds a string replacement (its %0..%9 and %%) for the match s..e. */
static void lun_gsub_string(lun_Match *m, luaL_Buffer *b, const char *s, const char *e) {
  size_t l, i;
  lua_State *L = m->L;
  const char *news = lua_tolstring(L, 3, &l);
  for (i = 0; i < l; i++) {
    lun_match_step(m);                            /* a long replacement costs its length, each match */
    if (news[i] != LUN_ESC) { luaL_addchar(b, news[i]); continue; }
    i++;
    if (i < l && news[i] == LUN_ESC) luaL_addchar(b, LUN_ESC);
    else if (i < l && isdigit((unsigned char)news[i])) {
      if (news[i] == '0') luaL_addlstring(b, s, (size_t)(e - s));
      else {
        lun_push_capture(m, news[i] - '1', s, e);   /* its bytes, or its position: no metamethod */
        luaL_addvalue(b);
      }
    } else luaL_error(L, "invalid use of '%c' in replacement string", LUN_ESC);
  }
}

/* Adds the replacement of the match s..e: by the string, the table's value
 * for the first capture, or the function's result; false or nil keeps the
 * match. */
static void lun_gsub_value(lun_Match *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
  lua_State *L = m->L;
  if (kind == LUA_TSTRING || kind == LUA_TNUMBER) { lun_gsub_string(m, b, s, e); return; }
  if (kind == LUA_TFUNCTION) {
    int n;
    lua_pushvalue(L, 3);
    n = lun_push_captures(m, s, e);
    lua_call(L, n, 1);
  } else {
    lun_push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
  } else if (!lua_isstring(L, -1)) {
    luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  } else luaL_addvalue(b);
}

/* string.gsub: (s, pattern, repl [, n]) -> (result, count). */
static int lun_str_gsub(lua_State *L) {
  size_t srcl, lp;
  const char *src = luaL_checklstring(L, 1, &srcl), *p = luaL_checklstring(L, 2, &lp);
  const char *last = NULL;
  int kind = lua_type(L, 3);
  lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)srcl + 1), n = 0;
  int anchor = *p == '^';
  lun_Match m;
  luaL_Buffer b;
  luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE, 3,
                   "string/function/table");
  luaL_buffinit(L, &b);
  if (anchor) { p++; lp--; }
  lun_match_init(&m, L, src, srcl, p, lp);
  while (n < max) {
    const char *e;
    lun_match_reset(&m);
    if ((e = lun_match(&m, src, p)) != NULL && e != last) {
      n++;
      lun_gsub_value(&m, &b, src, e, kind);
      src = last = e;
    } else if (src < m.srcEnd) {
      luaL_addchar(&b, *src++);
    } else break;
    if (anchor) break;
  }
  luaL_addlstring(&b, src, (size_t)(m.srcEnd - src));
  luaL_pushresult(&b);
  lua_pushinteger(L, n);
  return 2;
}

/* Puts the four in the string table on top of the stack. [-0, +0] */
void lun_open_patterns(lua_State *L) {
  static const luaL_Reg functions[] = {{"find", lun_str_find}, {"match", lun_str_match},
                                       {"gmatch", lun_str_gmatch}, {"gsub", lun_str_gsub}, {NULL, NULL}};
  luaL_setfuncs(L, functions, 0);
}

/* Puts them in the table strings index (the string library's). [-0, +0] */
void lun_use_budgeted_patterns(lua_State *L) {
  lua_pushliteral(L, "");
  if (lua_getmetatable(L, -1)) {
    if (lua_getfield(L, -1, "__index") == LUA_TTABLE) lun_open_patterns(L);
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
}
