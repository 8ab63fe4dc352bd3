"""How long the par of a deal takes (the job ``weekly-par``, :func:`.work.run_par`).

    .venv/bin/python -m skatschule.weekly.bench [--deals 12] [--nodes 3000000]

Seeded deals (not a week's: those need the server's secret) are played as at a contest table up
to the first lead (the learner passes, the fixed bots bid, take the skat and declare); each par
is timed in CPU seconds (``time.process_time``). Prints how many were exact, the median and the
largest time, and last ``mean_par_seconds: N``.
"""

from __future__ import annotations

import argparse
import os
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--nodes", type=int, default=None, help="node budget (default: work.PAR_NODES)")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatschule.settings")
    import django

    django.setup()
    from skatschule.engine.game import Phase
    from skatschule.table import services as table_services

    from . import work

    if args.nodes is not None:
        work.PAR_NODES = args.nodes
    times: list[float] = []
    exact = 0
    seed = 0
    while len(times) < args.deals:
        seed += 1
        table = table_services.Table(seed * 7919, seed % 3, [], contest=1)
        table.moves += table_services.bot_moves(table=table)
        state = table_services.replay(table=table)
        while not state.is_over() and state.phase is not Phase.PLAY:
            state = table_services.play(table=table, action="pass", state=state, think=False)
        if state.phase is not Phase.PLAY:
            continue  # passed in: no par
        payload = work.par_payload(seed=table.seed, seat=table.seat, moves=table.moves)
        start = time.process_time()
        found = work.run_par(payload)
        times.append(time.process_time() - start)
        exact += found["augen"] is not None
    times.sort()
    print(f"deals: {len(times)}, exact Augen: {exact}")
    print(f"median_seconds: {times[len(times) // 2]:.3f}, max_seconds: {times[-1]:.3f}")
    print(f"mean_par_seconds: {sum(times) / len(times):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
