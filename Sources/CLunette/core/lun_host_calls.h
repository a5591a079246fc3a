/*
 * lun_host_calls.h — lunh: C's one way into the host, through the table the
 * host passed to lun_install (clunette.h, lun_Host). A callback is declared
 * once, in its owner's group there; C calls it as
 *
 *   lunh(S->rt, clock, now)            ->  S->rt->clock.now(S->rt->clock.context)
 *   lunh(W->rt, output, attr, n, nl, v, vl)
 *
 * so each group answers with its own context (the part of the host that
 * owns that state), and no wrapper is written per callback.
 */
#ifndef LUN_HOST_CALLS_H
#define LUN_HOST_CALLS_H

#include "clunette.h"

#define lunh(h, group, name, ...) ((h)->group.name((h)->group.context, ##__VA_ARGS__))

#endif
