"""Map label placement: each label tries candidate positions around its point, scored for what they hit;
the first label to need a spot is the one with the most neighbours, and labels that found no clean spot go
first in the next round (up to ROUNDS; the round with the fewest broken rules wins).

Hard rules (a candidate that breaks one is taken only when every candidate does): inside the frame, on no
other label or point, clear of the `avoid` boxes (an inset's window, a page seam), and a leader line
(drawn from the point to a label set away from it) crosses no other leader and runs through no other label
or point. Soft: the nearer, the better, a label that crowds another point (within CROWD_MM) costs more,
and `prefer(box)` may add a cost (the World Game poster prefers the sea).

Everything is in page millimetres; boxes are (x0, y0, x1, y1). A label's candidates are scored at once
(numpy arrays), which places the same labels as scoring them one by one, several times faster.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

ANGLES = np.radians(np.arange(0, 360, 22.5))
RINGS_MM = (3.0, 4.5, 6.0, 8.0, 10.0, 12.5, 15.0, 18.0, 22.0)
ROUNDS = 16  # a round re-places first the labels the round before could not place well
CROWD_MM = 2.0  # a label box this near another item's point leaves that point less room: a soft cost
NEAR_COST = 400.0  # a label closer than `spacing` to another: paid, unless a leader of 400 mm would be cheaper


@dataclass(frozen=True)
class Item:
    key: object
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Placed:
    key: object
    box: tuple[float, float, float, float]
    anchor: tuple[float, float]
    leader: bool  # a line from the anchor to the box

    @property
    def leader_end(self) -> tuple[float, float]:
        """Where the leader meets the label's box (the box point nearest the anchor)."""
        x0, y0, x1, y1 = self.box
        return min(max(self.anchor[0], x0), x1), min(max(self.anchor[1], y0), y1)


def overlapping(box, boxes: np.ndarray) -> np.ndarray:
    """Which of `boxes` (n × 4) overlap `box` (touching edges do not)."""
    if not len(boxes):
        return np.zeros(0, dtype=bool)
    x0, y0, x1, y1 = box
    return ~((x1 <= boxes[:, 0]) | (x0 >= boxes[:, 2]) | (y1 <= boxes[:, 1]) | (y0 >= boxes[:, 3]))


NEAR_MM = 1e-3  # segments and boxes whose bounding boxes are farther apart than this are not looked at closer


def _orient(ax, ay, bx, by, cx, cy):
    return np.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def _proper(ax, ay, bx, by, cx, cy, dx, dy):
    d1, d2 = _orient(ax, ay, bx, by, cx, cy), _orient(ax, ay, bx, by, dx, dy)
    d3, d4 = _orient(cx, cy, dx, dy, ax, ay), _orient(cx, cy, dx, dy, bx, by)
    return (d1 * d2 < 0) & (d3 * d4 < 0)


def _where_near(test, near: np.ndarray, *values) -> np.ndarray:
    """`test(*values)` element by element (broadcast to `near`'s shape), worked out only where `near`: two
    segments, or a segment and a box, that do not come near cannot cross (most of a map's pairs)."""
    hit = np.zeros(near.shape, dtype=bool)
    if near.any():
        hit[near] = test(*(np.broadcast_to(v, near.shape)[near] for v in values))
    return hit


def _near(ax, ay, bx, by, x0, y0, x1, y1):
    """Whether segments a-b come within NEAR_MM of boxes (x0 ≤ x1, y0 ≤ y1), broadcast."""
    return (
        (np.minimum(ax, bx) <= x1 + NEAR_MM)
        & (np.maximum(ax, bx) >= x0 - NEAR_MM)
        & (np.minimum(ay, by) <= y1 + NEAR_MM)
        & (np.maximum(ay, by) >= y0 - NEAR_MM)
    )


def _cross(ax, ay, bx, by, cx, cy, dx, dy):
    """Whether segments a-b properly cross segments c-d, element by element (numpy broadcasting)."""
    near = _near(ax, ay, bx, by, np.minimum(cx, dx), np.minimum(cy, dy), np.maximum(cx, dx), np.maximum(cy, dy))
    return _where_near(_proper, near, ax, ay, bx, by, cx, cy, dx, dy)


def _entering(ax, ay, bx, by, x0, y0, x1, y1):
    hit = (x0 < ax) & (ax < x1) & (y0 < ay) & (ay < y1)
    hit |= (x0 < bx) & (bx < x1) & (y0 < by) & (by < y1)
    for cx, cy, dx, dy in ((x0, y0, x1, y0), (x1, y0, x1, y1), (x1, y1, x0, y1), (x0, y1, x0, y0)):
        hit |= _proper(ax, ay, bx, by, cx, cy, dx, dy)
    return hit


def _enters(ax, ay, bx, by, boxes: np.ndarray):
    """Whether segments a-b enter `boxes` (m × 4), broadcast against the boxes' last axis."""
    x0, y0, x1, y1 = boxes.T
    near = np.broadcast_to(_near(ax, ay, bx, by, x0, y0, x1, y1), np.broadcast_shapes(np.shape(bx), x0.shape))
    return _where_near(_entering, near, ax, ay, bx, by, x0, y0, x1, y1)


def crossing(segment, segments: np.ndarray) -> np.ndarray:
    """Which of `segments` (n × 4: x0, y0, x1, y1) properly cross `segment` (a shared end does not count)."""
    if not len(segments):
        return np.zeros(0, dtype=bool)
    return _cross(*segment, *segments.T)


def through(segment, boxes: np.ndarray) -> np.ndarray:
    """Which of `boxes` the segment enters (crosses an edge of, or ends inside)."""
    if not len(boxes):
        return np.zeros(0, dtype=bool)
    ax, ay, bx, by = segment
    return _enters(ax, ay, bx, by, boxes)


def _overlaps(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """How many of `others` (m × 4) each of `boxes` (n × 4) overlaps (touching edges do not)."""
    a, b = boxes[:, None, :], others[None, :, :]
    apart = (a[..., 2] <= b[..., 0]) | (a[..., 0] >= b[..., 2]) | (a[..., 3] <= b[..., 1]) | (a[..., 1] >= b[..., 3])
    return (~apart).sum(axis=1)


@dataclass(frozen=True)
class _Candidates:
    """An item's candidate positions (see _candidates) as arrays, each box also as the tuple it is placed as."""

    boxes: list[tuple[float, float, float, float]]
    array: np.ndarray  # n × 4
    leader: np.ndarray  # n, bool
    distance: np.ndarray  # n


def _candidates(item: Item, gap: float, rings: Sequence[float]) -> _Candidates:
    """(box, leader?, distance) around the item's point: eight positions beside it, then rings with a leader."""
    x, y, w, h = item.x, item.y, item.w, item.h
    beside = [
        (x + gap, y - h / 2),
        (x - gap - w, y - h / 2),
        (x - w / 2, y + gap),
        (x - w / 2, y - gap - h),
        (x + gap * 0.7, y + gap * 0.7),
        (x + gap * 0.7, y - gap * 0.7 - h),
        (x - gap * 0.7 - w, y + gap * 0.7),
        (x - gap * 0.7 - w, y - gap * 0.7 - h),
    ]
    out = [((bx, by, bx + w, by + h), False, 0.1 * i) for i, (bx, by) in enumerate(beside)]
    for r in rings:
        for a in ANGLES:
            cx, cy = x + (r + w / 2) * np.cos(a), y + (r + h / 2) * np.sin(a)
            out.append(((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), True, r))
    boxes = [box for box, _, _ in out]
    leader = np.array([lead for _, lead, _ in out])
    return _Candidates(boxes, np.array(boxes, dtype=float), leader, np.array([d for _, _, d in out]))


def place(
    items: Sequence[Item],
    frame: tuple[float, float, float, float],
    points: Sequence[tuple[float, float, float]] = (),
    fixed: Sequence[tuple[float, float, float, float]] = (),
    avoid: Sequence[tuple[float, float, float, float]] = (),
    gap: float = 1.0,
    prefer: Callable[[tuple[float, float, float, float]], float] | None = None,
    spacing: float = 0.0,
    rings: Sequence[float] = RINGS_MM,
) -> list[Placed]:
    """Place every item's label. `points`: (x, y, radius) dots no label or leader may cover (an item's own
    point may be among them); `fixed`: labels already set; `avoid`: boxes labels keep out of; `spacing`: the
    least distance (mm) between two labels, so that neighbours do not read as one word; `rings`: how far from
    its point (mm) a label on a leader may stand."""
    dots = np.array([(x - r, y - r, x + r, y + r) for x, y, r in points]).reshape(-1, 4)
    anchors = np.array([(it.x, it.y) for it in items]).reshape(-1, 2)
    crowd = [int((np.hypot(*(anchors - (it.x, it.y)).T) < 12).sum()) for it in items]
    order = sorted(range(len(items)), key=lambda i: (-crowd[i], items[i].x, items[i].y))
    candidates = [_candidates(item, gap, rings) for item in items]
    best_round: tuple[tuple[int, int], list[Placed]] | None = None
    for _ in range(ROUNDS):
        placed, failed, broken = _greedy(items, candidates, order, frame, dots, fixed, avoid, prefer, spacing)
        if best_round is None or (broken, len(failed)) < best_round[0]:  # fewest broken rules, then fewest too near
            best_round = ((broken, len(failed)), placed)
        if not failed:
            break
        order = failed + [i for i in order if i not in failed]
    assert best_round is not None
    return best_round[1]


def _greedy(
    items, candidates, order, frame, dots, fixed, avoid, prefer, spacing
) -> tuple[list[Placed], list[int], int]:
    """One round: the labels in `order`, each at its cheapest candidate (the first of the cheapest; the first
    candidate outright when it breaks no rule nor stands within `spacing` of another label); (placement, items
    that broke a rule or stand too near another, how many of them broke a rule)."""
    keep_out = np.array(list(avoid)).reshape(-1, 4)
    labels = np.array(list(fixed)).reshape(-1, 4)
    leaders = np.zeros((0, 4))
    fx0, fy0, fx1, fy1 = frame
    anchors = np.array([(it.x, it.y, it.x, it.y) for it in items]).reshape(-1, 4)
    placed: dict[int, Placed] = {}
    failed, broken = [], 0
    for i in order:
        item, options = items[i], candidates[i]
        own = (item.x, item.y)
        own_dot = (np.abs((dots[:, 0] + dots[:, 2]) / 2 - item.x) < 1e-9) & (
            np.abs((dots[:, 1] + dots[:, 3]) / 2 - item.y) < 1e-9
        )
        boxes = options.array
        x0, y0, x1, y1 = boxes.T
        bad = ((x0 < fx0) | (y0 < fy0) | (x1 > fx1) | (y1 > fy1)).astype(int)
        bad += _overlaps(boxes, labels) + _overlaps(boxes, keep_out)
        near = _overlaps(boxes, labels + np.array((-spacing, -spacing, spacing, spacing)))  # closer than spacing
        bad += _overlaps(boxes, dots[~own_dot])  # its own dot may touch a label beside it
        lx0, ly0, lx1, ly1 = leaders.T[:, :, None]
        bad += _enters(lx0, ly0, lx1, ly1, boxes).sum(axis=0)  # no leader set before may run through it
        lead = np.flatnonzero(options.leader)
        ex = np.minimum(np.maximum(item.x, x0[lead]), x1[lead])[:, None]  # where each leader meets its box
        ey = np.minimum(np.maximum(item.y, y0[lead]), y1[lead])[:, None]
        bad[lead] += _cross(item.x, item.y, ex, ey, *leaders.T[:, None, :]).sum(axis=1)
        bad[lead] += _enters(item.x, item.y, ex, ey, labels).sum(axis=1)
        bad[lead] += _enters(item.x, item.y, ex, ey, dots[~own_dot]).sum(axis=1)
        grown = boxes + np.array((-CROWD_MM, -CROWD_MM, CROWD_MM, CROWD_MM))
        crowding = _overlaps(grown, anchors) - ~options.leader
        if bad[0] == 0 and near[0] == 0 and not options.leader[0] and options.distance[0] == 0:
            pick = 0  # beside the point, breaking nothing: taken without looking further
            costs = options.distance[:1] + 2.0 * crowding[:1] + (prefer(options.boxes[0]) if prefer else 0.0)
        else:
            costs = bad * 1000 + near * NEAR_COST + options.distance + 2.0 * crowding
            if prefer:
                costs = costs + np.array([prefer(box) for box in options.boxes])
            pick = int(np.argmin(costs))
        box, leader = options.boxes[pick], bool(options.leader[pick])
        if costs[pick] >= NEAR_COST:  # broke a rule, or stands too near another: first in the next round
            failed.append(i)
            broken += int(costs[pick] >= 1000)
        placed[i] = Placed(item.key, box, own, leader)
        labels = np.vstack([labels, box])
        if leader:
            leaders = np.vstack([leaders, (*own, *placed[i].leader_end)])
    return [placed[i] for i in range(len(items))], failed, broken


def problems(placed: Sequence[Placed], frame, points: Sequence[tuple[float, float, float]] = ()) -> dict[str, int]:
    """What a placement breaks, counted: overlapping labels, labels outside the frame, crossing leaders,
    leaders through another label, labels on another item's point. Tests assert every count is 0."""
    boxes = np.array([p.box for p in placed]).reshape(-1, 4)
    segments = [(i, (*p.anchor, *p.leader_end)) for i, p in enumerate(placed) if p.leader]
    dots = np.array([(x - r, y - r, x + r, y + r) for x, y, r in points]).reshape(-1, 4)
    out = {"overlaps": 0, "outside": 0, "crossings": 0, "through_labels": 0, "on_points": 0}
    for i, p in enumerate(placed):
        others = np.delete(boxes, i, axis=0)
        out["overlaps"] += int(overlapping(p.box, others).sum())
        x0, y0, x1, y1 = p.box
        out["outside"] += int(
            x0 < frame[0] - 1e-6 or y0 < frame[1] - 1e-6 or x1 > frame[2] + 1e-6 or y1 > frame[3] + 1e-6
        )
        if len(dots):
            centres = np.column_stack(((dots[:, 0] + dots[:, 2]) / 2, (dots[:, 1] + dots[:, 3]) / 2))
            foreign = np.hypot(*(centres - p.anchor).T) > 1e-9
            out["on_points"] += int(overlapping(p.box, dots[foreign]).sum())
    out["overlaps"] //= 2
    for i, seg in segments:
        others = np.array([s for j, s in segments if j != i]).reshape(-1, 4)
        out["crossings"] += int(crossing(seg, others).sum())
        out["through_labels"] += int(through(seg, np.delete(boxes, i, axis=0)).sum())
    out["crossings"] //= 2
    return out
