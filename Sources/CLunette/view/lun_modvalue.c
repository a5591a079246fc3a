/*
 * lun_modvalue.c — the values display modifiers take, checked as SwiftUI's
 * types take them: a frame's sizes, a colour, a font's text style, a
 * button's and a text field's style, an opacity, a length, an emphasis.
 *
 * A value the preview could not draw, or a misspelt name, was recorded as
 * written and shown on the node (`.font("titel")`): each is an error now,
 * naming the modifier, the value and, where it is close, the name meant.
 */
#include "core/core.h"
#include "model/model.h"
#include "view/view.h"
#include <math.h>

/* A frame's keys: SwiftUI's two frame modifiers as one table, a fixed size
 * (frame(width:height:alignment:),
 * https://developer.apple.com/documentation/swiftui/view/frame(width:height:alignment:))
 * or a flexible one (frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:),
 * https://developer.apple.com/documentation/swiftui/view/frame(minwidth:idealwidth:maxwidth:minheight:idealheight:maxheight:alignment:)).
 * The sizes come first, width's then height's, each axis's min, ideal, max. */
static const char *const lun_frame_keys[] = {"width", "height", "minWidth", "idealWidth", "maxWidth",
                                             "minHeight", "idealHeight", "maxHeight", "alignment", NULL};

/* Checks one size of a frame's table at 2: a number from 0, finite but a
 * maximum's (math.huge: SwiftUI's .infinity). Returns it, or -1 if absent. */
static double lun_frame_size(lua_State *L, int k) {
  double n;
  const char *key = lun_frame_keys[k];
  int isMax = k == 4 || k == 7;
  if (lua_getfield(L, 2, key) == LUA_TNIL) { lua_pop(L, 1); return -1; }
  if (lua_type(L, -1) != LUA_TNUMBER)
    lun_error_here(L, "view:frame: %s is a number, got %s", key, luaL_typename(L, -1));
  n = lua_tonumber(L, -1);
  if (!(n >= 0) || (n > 1e9 && !(isMax && n == HUGE_VAL)))
    lun_error_here(L, "view:frame: %s must be a size from 0 to 1e9%s, got %s", key, isMax ? " (or math.huge)" : "",
                   n != n ? "NaN" : luaL_tolstring(L, -1, NULL));
  lua_pop(L, 1);
  return n;
}

/* Checks a frame's table at 2 (a model's: its contents): known keys only,
 * sizes (lun_frame_size), either a fixed or a flexible frame (SwiftUI has
 * no modifier taking both), each axis's min <= ideal <= max (SwiftUI logs
 * "Contradictory frame constraints" otherwise), an alignment SwiftUI names;
 * and puts a copy of it at 2, so what the caller writes to theirs later is
 * not drawn unchecked. [-0, +0] */
static void lun_modvalue_frame(lua_State *L) {
  double size[8];
  int k, fixed = 0, flexible = 0, axis;
  lun_proxy_unwrap(L, 2);
  if (lua_type(L, 2) != LUA_TTABLE || lua_getmetatable(L, 2))
    lun_error_here(L, "view:frame takes a table of sizes ({ width = 120, height = 44 } or { maxWidth = math.huge }), "
                      "got %s", luaL_typename(L, 2));
  lun_check_keys(L, 2, lun_frame_keys, "view:frame", "key");
  for (k = 0; k < 8; k++) {
    size[k] = lun_frame_size(L, k);
    if (size[k] >= 0) { if (k < 2) fixed = 1; else flexible = 1; }
  }
  if (fixed && flexible)
    lun_error_here(L, "view:frame: a fixed size (width, height) or a flexible one (min, ideal, max sizes), not both: "
                      "SwiftUI has a modifier for each");
  if (!fixed && !flexible) lun_error_here(L, "view:frame: give it a size (width, height, or min, ideal, max sizes)");
  for (axis = 2; axis <= 5; axis += 3) {          /* min, ideal, max of each axis, in order */
    int a, b;
    for (a = axis; a < axis + 3; a++)
      for (b = a + 1; b < axis + 3; b++)
        if (size[a] >= 0 && size[b] >= 0 && size[a] > size[b]) {
          char sa[32], sb[32];
          snprintf(sa, sizeof sa, "%g", size[a]);
          snprintf(sb, sizeof sb, "%g", size[b]);
          lun_error_here(L, "view:frame: %s (%s) is more than %s (%s)", lun_frame_keys[a], sa, lun_frame_keys[b], sb);
        }
  }
  if (lua_getfield(L, 2, "alignment") != LUA_TNIL) {
    if (!lun_names_one_of(L, -1, lun_view_alignments)) {
      lun_push_suggestion(L, luaL_tolstring(L, -1, NULL), 0, lun_view_alignments);
      lun_error_here(L, "view:frame: alignment is one of SwiftUI's (center, leading, topLeading, ...), got %s%s",
                     lua_tostring(L, -2), lua_tostring(L, -1));
    }
  }
  lua_pop(L, 1);
  lua_createtable(L, 0, 4);                       /* the checked copy */
  for (k = 0; lun_frame_keys[k]; k++) {
    if (lua_getfield(L, 2, lun_frame_keys[k]) == LUA_TNIL) lua_pop(L, 1);
    else lua_setfield(L, -2, lun_frame_keys[k]);
  }
  lua_replace(L, 2);
}

/* SwiftUI's Color names (https://developer.apple.com/documentation/swiftui/color),
 * "grey" beside "gray" (the preview draws both), and the ShapeStyles a
 * foreground or background commonly takes: the hierarchical levels, the
 * tint, the materials (https://developer.apple.com/documentation/swiftui/shapestyle). */
static const char *const lun_color_names[] = {"black", "blue", "brown", "clear", "cyan", "gray", "grey", "green",
                                              "indigo", "mint", "orange", "pink", "purple", "red", "teal", "white",
                                              "yellow", "primary", "secondary", "tertiary", "quaternary", "quinary",
                                              "accentColor", "tint", "ultraThinMaterial", "thinMaterial",
                                              "regularMaterial", "thickMaterial", "ultraThickMaterial", NULL};

/* Font's text styles (https://developer.apple.com/documentation/swiftui/font/textstyle). */
static const char *const lun_font_styles[] = {"largeTitle", "title", "title2", "title3", "headline", "subheadline",
                                              "body", "callout", "footnote", "caption", "caption2", NULL};

/* ButtonStyle's and TextFieldStyle's names
 * (https://developer.apple.com/documentation/swiftui/primitivebuttonstyle,
 * https://developer.apple.com/documentation/swiftui/textfieldstyle). */
static const char *const lun_button_styles[] = {"automatic", "bordered", "borderedProminent", "borderless", "plain",
                                               "link", NULL};
static const char *const lun_field_styles[] = {"automatic", "plain", "roundedBorder", "squareBorder", NULL};

/* 1 if s (len bytes) is "#" and 3, 4, 6 or 8 hex digits. */
static int lun_is_hex_color(const char *s, size_t len) {
  size_t i;
  if (len < 4 || s[0] != '#' || (len != 4 && len != 5 && len != 7 && len != 9)) return 0;
  for (i = 1; i < len; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F'))) return 0;
  return 1;
}

/* Skips spaces at *p. */
static void lun_skip_spaces(const char **p) {
  while (**p == ' ') (*p)++;
}

/* Reads an integer 0..255 at *p (1 to 3 digits); 0 if there is none. */
static int lun_read_channel(const char **p) {
  int n = 0, digits = 0;
  lun_skip_spaces(p);
  while (**p >= '0' && **p <= '9' && digits < 4) { n = n * 10 + (**p - '0'); (*p)++; digits++; }
  lun_skip_spaces(p);
  return digits > 0 && digits <= 3 && n <= 255;
}

/* Reads an alpha at *p: a number from 0 to 1 — 0, 1, 0.5, .25, 1.0 —
 * with at most 6 decimals. */
static int lun_read_alpha(const char **p) {
  int digits = 0, whole = -1, nonzero = 0;
  lun_skip_spaces(p);
  if (**p == '0' || **p == '1') whole = *(*p)++ - '0';
  if (**p == '.') {
    (*p)++;
    while (**p >= '0' && **p <= '9' && digits < 7) { nonzero |= **p != '0'; (*p)++; digits++; }
    if (digits == 0 || digits > 6) return 0;
  }
  lun_skip_spaces(p);
  return whole >= 0 || digits > 0 ? !(whole == 1 && nonzero) : 0;
}

/* 1 if s is rgb(r, g, b) or rgba(r, g, b, a): channels 0..255, alpha 0..1. */
static int lun_is_rgb_color(const char *s) {
  const char *p;
  int alpha = strncmp(s, "rgba(", 5) == 0;
  if (!alpha && strncmp(s, "rgb(", 4) != 0) return 0;
  p = s + (alpha ? 5 : 4);
  if (!lun_read_channel(&p) || *p++ != ',' || !lun_read_channel(&p) || *p++ != ',' || !lun_read_channel(&p)) return 0;
  if (alpha && (*p++ != ',' || !lun_read_alpha(&p))) return 0;
  return p[0] == ')' && p[1] == '\0';
}

/* Raises for modifier `name`'s argument 2, which is none of `list`'s
 * names (what it is, the closest name, what else it may be). */
static int lun_modvalue_refuse(lua_State *L, const char *name, const char *const *list, const char *what) {
  const char *got = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  if (got) lun_push_suggestion(L, got, 0, list);
  else lua_pushliteral(L, "");
  lun_describe(L, 2, 1);
  return lun_error_here(L, "view:%s: %s is %s, got %s%s", name, "its value", what, lua_tostring(L, -1), lua_tostring(L, -2));
}

/* A colour: a SwiftUI Color's name, "#rrggbb" (3, 4, 6 or 8 digits) or
 * "rgb(r, g, b)" / "rgba(r, g, b, a)". */
static void lun_modvalue_color(lua_State *L, const char *name) {
  size_t len = 0;
  const char *s = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
  if (lun_names_one_of(L, 2, lun_color_names) || (s && strlen(s) == len && (lun_is_hex_color(s, len) || lun_is_rgb_color(s))))
    return;
  lun_modvalue_refuse(L, name, lun_color_names, "a colour (\"red\", \"#ff8800\", \"rgb(255, 136, 0)\")");
}

/* One of `list`'s names. */
static void lun_modvalue_choice(lua_State *L, const char *name, const char *const *list, const char *what) {
  if (lun_names_one_of(L, 2, list)) return;
  lun_modvalue_refuse(L, name, list, what);
}

/* A number (not text that reads as one) from lo to hi, finite; within a
 * billionth of them (a computed 1.0000000000000002 is 1). */
static void lun_modvalue_number(lua_State *L, const char *name, double lo, double hi, const char *what) {
  double n;
  if (lua_type(L, 2) != LUA_TNUMBER) {
    lun_describe(L, 2, 1);
    lun_error_here(L, "view:%s: its value is %s, got %s", name, what, lua_tostring(L, -1));
  }
  n = lua_tonumber(L, 2);
  if (!(n >= lo - 1e-9 && n <= hi + 1e-9)) {
    char shown[40];
    if (n != n || lua_isinteger(L, 2) || n > 1e300 || n < -1e300) { lun_describe(L, 2, 1); snprintf(shown, sizeof shown, "%s", lua_tostring(L, -1)); }
    else snprintf(shown, sizeof shown, "%.17g", n);   /* as it is: 1.0000001, not 1.0 */
    lun_error_here(L, "view:%s: its value is %s, got %s", name, what, shown);
  }
}

/* SwiftUI's Edge.Set members, as padding(_:_:) takes them. */
static const char *const lun_padding_edges[] = {"all", "top", "bottom", "leading", "trailing", "horizontal", "vertical", NULL};

/* Checks that the value at idx names an edge. [-0, +0] */
static void lun_modvalue_edge(lua_State *L, int idx) {
  if (lun_names_one_of(L, idx, lun_padding_edges)) return;
  if (lua_type(L, idx) == LUA_TSTRING) lun_push_suggestion(L, lua_tostring(L, idx), 0, lun_padding_edges);
  else lua_pushliteral(L, "");
  lun_describe(L, idx, 1);
  lun_error_here(L, "view:padding: its value is a length (a number) or edges: \"top\", \"bottom\", \"leading\", "
                    "\"trailing\", \"horizontal\", \"vertical\", \"all\" or a list of them, got %s%s",
                 lua_tostring(L, -1), lua_tostring(L, -2));
}

/* Checks the edges at idx: an edge's name, or a list of 1 to 7 of them
 * (an Edge.Set: [.top, .leading]). [-0, +0] */
static void lun_modvalue_edges(lua_State *L, int idx) {
  lua_Integer i, n;
  int entries = 0;
  if (lua_type(L, idx) != LUA_TTABLE) { lun_modvalue_edge(L, idx); return; }
  n = (lua_Integer)lua_rawlen(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (++entries > 7) { lua_pop(L, 1); break; }
  }
  if (n < 1 || n > 7 || entries != n || lua_getmetatable(L, idx)) {
    lun_describe(L, idx, 1);
    lun_error_here(L, "view:padding: its edges are an edge's name or a list of 1 to 7 of them, got %s", lua_tostring(L, -1));
  }
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    lun_modvalue_edge(L, lua_gettop(L));
    lua_pop(L, 1);
  }
}

/* padding([length]) or padding(edges [, length]) (SwiftUI's
 * padding(_ length:) and padding(_ edges: Edge.Set = .all, _ length:)):
 * a length stays as it is (nil: the default); edges other than "all" are
 * kept as { edge, ..., length } in argument 2's place (the tree shows
 * .padding({"top", "leading", 8})). [-0, +0] */
static void lun_modvalue_padding(lua_State *L) {
  lua_settop(L, 3);
  if (lua_type(L, 2) == LUA_TNUMBER || lua_isnil(L, 2)) {
    if (!lua_isnil(L, 3)) {
      lun_describe(L, 3, 1);
      lun_error_here(L, "view:padding: a length comes alone or after the edges (:padding(\"horizontal\", 16)), got %s "
                        "after it", lua_tostring(L, -1));
    }
    if (!lua_isnil(L, 2)) lun_modvalue_number(L, "padding", -1e9, 1e9, "a finite number, or edges (\"horizontal\")");
    return;
  }
  lun_modvalue_edges(L, 2);
  if (!lua_isnil(L, 3)) {                         /* the length, checked where argument 2 was */
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_replace(L, 2);
    lun_modvalue_number(L, "padding", -1e9, 1e9, "a finite number after the edges");
    lua_replace(L, 2);
  }
  if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "all") == 0) {   /* .all: padding(length) */
    lua_copy(L, 3, 2);
    lua_settop(L, 2);
    return;
  }
  lua_createtable(L, 8, 0);                       /* { edge, ..., length }: the script's list may change */
  if (lua_istable(L, 2)) {
    lua_Integer i, n = (lua_Integer)lua_rawlen(L, 2);
    for (i = 1; i <= n; i++) {
      lua_rawgeti(L, 2, i);
      lua_rawseti(L, -2, i);
    }
  } else {
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 1);
  }
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_replace(L, 2);
  lua_settop(L, 2);
}

/* Checks argument 2 of display modifier `name` whose spec is `arg`
 * (lun_ModSpec in lun_modifier.c); a frame's is replaced by a checked
 * copy. [-0, +0] */
void lun_modvalue_check(lua_State *L, const char *name, const char *arg) {
  switch (arg[0]) {
    case 'F': lun_modvalue_frame(L); break;
    case 'P': lun_modvalue_padding(L); break;
    case 'c': lun_modvalue_color(L, name); break;
    case 't': lun_modvalue_choice(L, name, lun_font_styles, "a font's text style (\"title\", \"headline\", \"body\", ...)"); break;
    case 'B': lun_modvalue_choice(L, name, lun_button_styles, "a button style (\"bordered\", \"borderedProminent\", \"plain\", ...)"); break;
    case 'T': lun_modvalue_choice(L, name, lun_field_styles, "a text field style (\"roundedBorder\", \"plain\", \"automatic\")"); break;
    case 'u':                                     /* within a billionth: kept as 0 or 1 */
      lun_modvalue_number(L, name, 0, 1, "a number from 0 to 1");
      if (lua_tonumber(L, 2) < 0 || lua_tonumber(L, 2) > 1) {
        lua_pushinteger(L, lua_tonumber(L, 2) < 0 ? 0 : 1);
        lua_replace(L, 2);
      }
      break;
    case 'l':
      if (arg[1] == '?' && lua_isnoneornil(L, 2)) break;
      lun_modvalue_number(L, name, -1e9, 1e9, "a finite number");
      break;
    case 'e':
      if (!lua_isnoneornil(L, 2) && !lua_isboolean(L, 2))
        lun_error_here(L, "view:%s: its value is true or false (whether it applies), got %s", name, luaL_typename(L, 2));
      break;
    default: break;
  }
}
