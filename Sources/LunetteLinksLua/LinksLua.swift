// This target exists for its linker setting: every program that links the
// `Lunette` product links liblua5.4 through it (see Package.swift). The
// loadable module (LunetteLua) does not depend on it, so lunette.so carries
// no copy of Lua and uses the interpreter's.
@_exported import Lunette
@_exported import LunetteBridge
