"""Types of the solver's native core (``solver_core.c``; see ``solver.py``)."""

def tables(
    trumps: int,
    points: bytes,
    klass: bytes,
    beats: bytes,
    follow: tuple[int, ...],
    band_low: tuple[int, ...],
    band_mask: int,
    plain: tuple[int, ...],
    groups: tuple[int, ...],
    bands: tuple[int, ...],
) -> object: ...

class Core:
    def __init__(self, tables: object, declarer: int) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def entries(self) -> int: ...
    def search(
        self, lead: int, ha: int, hb: int, hc: int, left: int, alpha: int, beta: int, nodes: int, limit: int
    ) -> int | None: ...
    def points(
        self,
        leader: int,
        trick: tuple[int, ...],
        h0: int,
        h1: int,
        h2: int,
        tpts: int,
        left: int,
        alpha: int,
        beta: int,
        nodes: int,
        limit: int,
    ) -> int | None: ...
    def null(
        self,
        seat: int,
        n: int,
        best: int,
        bseat: int,
        follow: int,
        tmask: int,
        h0: int,
        h1: int,
        h2: int,
        all_tricks: bool,
        nodes: int,
        limit: int,
    ) -> bool | None: ...
