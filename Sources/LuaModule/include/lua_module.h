/* The loadable module exports luaopen_lunette. */
