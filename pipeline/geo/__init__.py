"""Geo: the Deutschland grid projection, town placement and the world-map numbering and layers."""
