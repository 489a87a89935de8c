"""The grid game at the terminal (`geodeck play GAME` of Deutschland or a region): the places laid out with
the guesses under them, your guess cards, the scores and the last round revealed, in any registered language."""

from rich.console import Group
from rich.table import Table

from pipeline import readers
from pipeline.games.grid.engine import COMPASS, GUESSES, ROW_POINTS, M, State, W
from pipeline.i18n.catalogue import localised
from pipeline.i18n.language import Language
from pipeline.paths import TEMPLATES_DIR
from pipeline.play.ports import Variant
from pipeline.play.view import View

VARIANTS: dict[str, Variant] = {  # the rulebook's variants: geodeck play GAME --variant face-down
    "face-down": Variant(
        "face-down: guess cards placed face down, revealed when the round is scored", lambda value: {"face_down": True}
    ),
}

WORDS = TEMPLATES_DIR / "grid" / "terminal.toml"  # the seats' colours


def seat_names(players: int, lang: Language) -> list[str]:
    """The guess cards' colours, as in the rulebook's examples."""
    return localised(readers.read_input("toml", WORDS), lang, WORDS.stem)["words"]["seats"][:players]


def guess_word(name: str, view: View) -> str:
    """A guess card's or an extreme's name as its card prints it in the view's language (the card words
    `[words]` of the layout: "N", "O" for west in French and Italian, "most inhabitants", "M (middle)"; both
    sides' letters of the west card, "W/M"); the record keeps the engine's letters (notation)."""
    words = view.layout.words(view.lang)
    if "/" in name:
        return "/".join(words[side][0] for side in name.split("/"))
    symbol, caption = words[name]
    return caption if name in ("most", "fewest") else f"{symbol} ({caption})" if name == "M" else symbol


def guess_name(guess: int, view: View) -> str:
    return guess_word(GUESSES[guess], view)


def refusal_words(state: State, fields: dict, view: View) -> dict[str, str]:
    """The words of an engine's refusal: the guess cards it names, by the letters they print."""
    words = view.layout.words(view.lang)
    letters = {key: words[key][0] for key in ("M", "W") if key in fields}
    return letters | ({"card": guess_word(fields["card"], view)} if "card" in fields else {})


def label(state: State, action: int, view: View, own: bool) -> str:
    """A guess and the place it goes under (in the face-down variant only its owner sees the guess)."""
    guess, position = divmod(action, len(state.places))
    place = view.card(state.game.places[state.places[position]].id)
    shown = guess_name(guess, view) if own or not state.game.face_down else view.say("a guess card")
    return view.say("{guess} under {place}", guess=shown, place=place)


def board(state: State, player: int, view: View) -> Group:
    """What `player` sees (their observation): the last round revealed, the places' fronts with the guesses
    under them, their guess cards left, the points."""
    seen = state.observation(player)
    parts: list = []
    if seen.rounds:
        parts.append(_last_round(state, view))
    if not state.is_terminal():
        starter = view.names[seen.starter]
        table = Table(
            *[_place_header(place_id, view) for place_id, _ in seen.places],
            title=view.say(
                "Round {round} of {rounds} · starting player: {starter}",
                round=seen.round + 1,
                rounds=state.game.rounds,
                starter=starter,
            ),
        )
        for row in range(max((len(column) for column in seen.columns), default=0)):
            table.add_row(*[_guess(column[row], view) if row < len(column) else "" for column in seen.columns])
        parts.append(table)
        cards = [guess_word("W/M" if g == W else GUESSES[g], view) for g in range(M) if g not in seen.used]
        parts.append(view.say("{name}'s guess cards: ", name=view.names[player]) + ", ".join(cards))
    parts.append(_scores(list(seen.points), view))
    return Group(*parts)


def cards_seen(state: State, player: int, view: View) -> list[tuple[str, list[tuple[str, str]]]]:
    """The cards `player` sees, as a page draws them (the studio): the place cards laid out, their fronts."""
    if state.is_terminal():
        return []
    return [
        (view.say("The places"), [(place_id, view.card(place_id)) for place_id, _ in state.observation(player).places])
    ]


def _guess(placed: tuple[int, int | None], view: View) -> str:
    player, guess = placed
    return view.labelled(view.names[player], "?" if guess is None else guess_name(guess, view))


def _place_header(place_id: str, view: View) -> str:
    fields = view.cards.get(place_id, {})
    region = fields.get(view.lang.field("state")) or fields.get("state")  # a deck before the language: its own name
    return view.card(place_id) + (f"\n({region})" if region else "")


def _scores(scores: list[int], view: View) -> str:
    return view.say("Points: ") + " · ".join(f"{n} {s}" for n, s in zip(view.names, scores))


def progress(state: State) -> int:
    """How many rounds have been scored (the play loop shows each as it is revealed)."""
    return len(state.rounds)


def revealed(state: State, index: int, view: View) -> str:
    """Round `index` as revealed: which place is each extreme (tied places all) and each player's guesses,
    right or wrong, with the points they scored."""
    rnd = state.rounds[index]
    names = [view.card(state.game.places[i].id) for i in rnd.places]
    extremes = view.clauses(
        [
            view.labelled(guess_word(g, view), ", ".join(names[i] for i in sorted(rnd.correct[g])) or "–")
            for g in (*COMPASS, "most", "fewest", "M")
        ]
    )
    scored = []
    for player, name in enumerate(view.names):
        own = [(g, pos, ok, pts) for p, g, pos, ok, pts in rnd.placements if p == player]
        guesses = ", ".join(f"{guess_name(g, view)} {names[pos]} {'✓' if ok else '✗'}" for g, pos, ok, _ in own)
        scored.append(f"{name} +{sum(pts for *_, pts in own)} ({guesses})")
    return view.say("Round {index} revealed: ", index=index + 1) + f"{extremes} — " + view.clauses(scored)


def _last_round(state: State, view: View) -> Table:
    """The last scored round: each place's numbers, which guesses were right, the points per guess."""
    rnd = state.rounds[-1]
    table = Table(
        view.say("place"),
        view.say("N-S"),
        view.say("W-E"),
        view.say("inhabitants"),
        view.say("guesses (points)"),
        title=view.say("Round {round} revealed", round=len(state.rounds)),
    )
    for position, index in enumerate(rnd.places):
        place = state.game.places[index]
        right = [g for g in (*COMPASS, "most", "fewest", "M") if position in rnd.correct[g]]
        guesses = [
            f"{view.names[p]} {guess_name(g, view)} {'✓' if ok else '✗'} {pts}"
            for p, g, pos, ok, pts in rnd.placements
            if pos == position
        ]
        table.add_row(
            f"{view.card(place.id)} ({', '.join(guess_word(g, view) for g in right) or '–'})",
            str(place.ns),
            str(place.we),
            view.number(place.population),
            view.clauses(guesses),
        )
    return table


def rules(view: View) -> str:
    """The rules in short, the guess cards by the letters they print in the view's language."""
    points = "/".join(map(str, ROW_POINTS))
    words = view.layout.words(view.lang)
    letters = {name: words[name][0] for name in (*COMPASS, "M")}
    return view.say(
        "Take turns placing 3 guess cards each under the places laid out: {N}, {S}, {W}, {E} (furthest north, "
        "south, west, east), most or fewest inhabitants, or {M} (the back of {W}: the place is furthest in no "
        "direction). A new card goes below the earlier ones. After the round wrong guesses are removed and the "
        "right ones move up: rows 1/2/3 score {points} points. With 2 players a guess the other player placed this "
        "round may not be placed.",
        points=points,
        E=letters.pop("O"),
        **letters,
    )
