"""Where batches are played: in this process (`jobs=1`), a local process pool, or a Dask cluster
(pipeline.workers.mapped).

Results come back in batch order whatever finished first, so the report is the same for every `jobs`
and for a cluster. A Dask cluster is started by the user (docs/rules-engines.md: `dask scheduler`, then
`dask worker ADDRESS` on each machine, in an environment with geodeck installed).
"""

from collections.abc import Callable, Sequence

from pipeline.playcheck.play import Batch, Watch, play_batch
from pipeline.playcheck.tally import Tally
from pipeline.workers import mapped

Done = Callable[[Batch], None]


def run(
    batches: Sequence[Batch],
    deck: str,
    jobs: int = 1,
    scheduler: str | None = None,
    on_done: Done = lambda b: None,
    watch: Watch | None = None,
) -> list[Tally]:
    """Each batch's tally, in batch order; `on_done(batch)` after each batch (progress); `watch` goes to
    `play_batch` (it must pickle; on a cluster it runs on the workers' machines)."""
    return mapped(play_batch, batches, (deck, watch), jobs, scheduler, lambda i, _: on_done(batches[i]))
