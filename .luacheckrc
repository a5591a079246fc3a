-- luacheck configuration for Lunette's own Lua and for script authors'
-- (copy it beside your scripts, or run `luacheck --config /path/to/lunette/.luacheckrc yours.lua`).
std = "lua54"
max_line_length = false     -- the project wraps by sense, not by column
-- `ui` (what require("lunette") returns; the REPL and the preview define it as a global too),
-- `app` (the REPL's mounted app) and `arg` (lunette run's script arguments).
read_globals = { "ui", "app" }
-- `self` is every body's and action's first argument, used or not.
unused_args = false
-- busted's API, as `lunette test` and busted define it.
files["**/*_spec.lua"] = { std = "+busted", read_globals = { "finally", "lazy_setup", "lazy_teardown",
  "strict_setup", "strict_teardown", "setup", "teardown", "insulate", "expose", "context", "mock", "stub", "spy",
  "match" },
  -- a spec keeps what a call returned to show it ran (local ok = pcall(...)), not to read it
  ignore = { "211", "241", "311", "331" } }
-- Specs that show a global model read by views (as a script would have one).
files["Tests/Specs/bindings_spec.lua"] = { globals = { "globalBook" } }
files["Tests/Specs/observation_spec.lua"] = { globals = { "globalBook" } }
-- The host (Examples/InboxHost/main.swift) sets `inbox` before running the script.
files["Examples/InboxHost/inbox.lua"] = { read_globals = { "inbox" } }
-- The benchmarks build values only to measure building them.
files["Benchmarks"] = { ignore = { "211", "241", "311", "331", "421", "431" } }
-- The spec runner defines busted's API and takes the runner's globals out.
files["Sources/LunetteCLI/Lua/spec_runner.lua"] = { globals = { "describe", "context", "insulate", "expose", "it",
  "pending", "test", "spec", "before_each", "after_each", "lazy_setup", "strict_setup", "lazy_teardown", "strict_teardown",
  "setup", "teardown", "finally", "assert", "spy", "stub", "mock", "match", "lunette_spec_run", "lunette_loadfile",
  "lunette_results", "lunette_watch", "lunette_unwatch", "lunette_reset_clock", "lunette_keep_settings", "lunette_problems",
  "lunette_last_miss", "lunette_snapshots" } }
-- The annotations for lua-language-server declare, they do not run.
exclude_files = { "types/**", ".build/**", "**/.build/**" }
