"""reportlab drawings (as svglib converts SVGs) as plain JSON data, for caches that must never run code.

`dumps` writes a drawing's shape tree: each shape as its class name and attributes, values as JSON numbers,
strings, lists, tuples and colours. `loads` rebuilds only the shape classes of `PROTOTYPES`, sets only
attributes that the class's attribute map (or `PRIVATE`) declares, each checked by its reportlab validator
(numbers finite), and raises `ValueError` for anything else; it never imports, evaluates or calls what the
file names.
"""

import copy
import json
from array import array
from typing import Any

from reportlab.graphics import shapes
from reportlab.lib import colors
from reportlab.lib import validators as v
from svglib import svglib

# each shape class `loads` may rebuild, with a default instance: a rebuilt shape starts from a copy of its
# attributes, so one the file leaves out still has its default value
PROTOTYPES: dict[str, shapes.Shape] = {
    type(shape).__name__: shape
    for shape in (
        shapes.Drawing(),
        shapes.Group(),
        shapes.Path(),
        shapes.Rect(0, 0, 0, 0),
        shapes.Circle(0, 0, 0),
        shapes.Ellipse(0, 0, 0, 0),
        shapes.Line(0, 0, 0, 0),
        shapes.PolyLine(),
        shapes.Polygon(),
        shapes.Wedge(0, 0, 0, 0, 0),
        svglib.NoStrokePath(),
        svglib.ClippingPath(),
        svglib.LinearGradientShape(shapes.Path(), 0, 0, 0, 0, [], []),
        svglib.RadialGradientShape(shapes.Path(), 0, 0, 0, [], []),
    )
}
_COLORS = v.SequenceOf(v.isColor)
# attributes outside the attribute maps that svglib sets, with their validators
PRIVATE = {
    "svgid": v.isString,
    "_clip_shape": v.isInstanceOf(shapes.Shape),
    "_extend": v.isBoolean,
    "_positions": v.isListOfNumbers,
    "_rl_colors": _COLORS,
    **dict.fromkeys(("_x0", "_y0", "_x1", "_y1", "_cx", "_cy", "_r"), v.isNumber),
}
MAX_DEPTH = 64


def _numbers(value: Any) -> bool:
    """A list of numbers (checked in C: svglib's paths hold hundreds of thousands)."""
    try:
        return isinstance(value, list) and (array("d", value) is not None)
    except TypeError:
        return False


POINTS = {0: 2, 1: 2, 2: 6, 3: 0}  # coordinates each path operator takes (moveTo, lineTo, curveTo, closePath)
# the long lists, checked faster than reportlab's per-item validators (same meaning)
FAST = {"points": _numbers, "operators": lambda ops: _numbers(ops) and set(ops) <= POINTS.keys()}


def dumps(drawing: shapes.Drawing) -> bytes:
    """The drawing as JSON (ValueError for a shape class or value that `loads` would refuse)."""
    return json.dumps(_encode(drawing), separators=(",", ":"), allow_nan=False).encode()


def loads(data: bytes) -> shapes.Drawing:
    """The drawing `dumps` wrote; ValueError when `data` is anything else."""
    try:
        drawing = _decode(json.loads(data, parse_constant=_refuse), 0)
    except (RecursionError, UnicodeDecodeError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a drawing: {exc}") from exc
    if type(drawing) is not shapes.Drawing:
        raise ValueError("not a drawing")
    return drawing


def _refuse(constant: str) -> None:
    raise ValueError(f"{constant} is not a number a drawing may hold")


def _encode(value: Any) -> Any:
    if isinstance(value, shapes.Shape):
        name = type(value).__name__
        if name not in PROTOTYPES or type(PROTOTYPES[name]) is not type(value):
            raise ValueError(f"cannot encode a {name}")
        return {"shape": name, "attrs": {k: _encode(x) for k, x in vars(value).items() if k != "_attrMap"}}
    if isinstance(value, colors.Color):
        if type(value) is not colors.Color:
            raise ValueError(f"cannot encode a {type(value).__name__}")
        return {"color": [value.red, value.green, value.blue, value.alpha]}
    if isinstance(value, tuple):
        return {"tuple": [_encode(x) for x in value]}
    if isinstance(value, list):
        return [_encode(x) for x in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise ValueError(f"cannot encode a {type(value).__name__}")


def _decode(value: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH}")
    if isinstance(value, list):
        return value if _numbers(value) else [_decode(x, depth + 1) for x in value]
    if not isinstance(value, dict):
        return value
    if value.keys() == {"tuple"} and isinstance(value["tuple"], list):
        return tuple(_decode(x, depth + 1) for x in value["tuple"])
    if value.keys() == {"color"}:
        rgba = value["color"]
        if not (
            isinstance(rgba, list) and len(rgba) == 4 and all(type(c) in (int, float) and 0 <= c <= 1 for c in rgba)
        ):
            raise ValueError(f"not a colour: {rgba!r}")
        return colors.Color(*rgba)
    if value.keys() == {"shape", "attrs"} and value["shape"] in PROTOTYPES and isinstance(value["attrs"], dict):
        return _shape(PROTOTYPES[value["shape"]], value["attrs"], depth)
    raise ValueError(f"unexpected value {str(value)[:60]}")


def _shape(prototype: shapes.Shape, attrs: dict, depth: int) -> shapes.Shape:
    cls = type(prototype)
    shape = copy.copy(prototype)  # the prototype's attributes (lists copied), then the file's, each one checked
    shape.__dict__.update({k: list(x) for k, x in vars(prototype).items() if isinstance(x, list)})
    declared = getattr(cls, "_attrMap", None) or {}
    for name, raw in attrs.items():
        value = _decode(raw, depth + 1)
        check = FAST.get(name) or (declared[name].validate if name in declared else PRIVATE.get(name))
        if check is None or not check(value):
            raise ValueError(f"{cls.__name__}.{name}: unexpected attribute or value")
        shape.__dict__[name] = value
    if isinstance(shape, shapes.Path) and len(shape.points) != sum(POINTS[op] for op in shape.operators):
        raise ValueError("a path whose points do not match its operators")
    if isinstance(shape, shapes.Group):
        shape.__dict__["_attrMap"] = cls._attrMap.clone()  # as Group.__init__ gives every group its own
    return shape
