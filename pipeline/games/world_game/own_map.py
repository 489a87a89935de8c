"""Which map a World Game deck's words speak of: a recipe's deck prints its own map, titled by the recipe (a
region's zoomed to its countries), and its kit and terminal say "map"; every other deck's is the world map."""


def own_map(deck: dict) -> bool:
    """Whether `deck` (a deck's data; its cards need not be there) prints a map of its own: a recipe's deck."""
    return bool(deck.get("recipe"))
